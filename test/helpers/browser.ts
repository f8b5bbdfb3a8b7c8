/**
 * Headless Chromium for the browser tests (Debian's `chromium`, driven by playwright-core; no
 * browser download). Tests that need it are skipped, saying why, when the binary is missing; CI
 * installs it (.ci/run).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './app.ts';
import { ensureConsoleBuilt } from './console-build.ts';
import { freePort } from './process.ts';

/** The system Chromium, or undefined when it is not installed. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/**
 * Starts headless Chromium with the flags this machine needs (no sandbox as root, no background
 * networking). `handleSIGTERM` as Playwright's launch option (default true: a SIGTERM closes the
 * browser, and the process does not exit of it).
 */
export function launchBrowser(handleSIGTERM = true): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    handleSIGTERM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** The worker process's Chromium, shared by the browser files it runs one after the other (workerBrowser). */
let shared: Promise<Browser> | undefined;

/**
 * The Chromium of this Vitest worker process: launched at the first call (launchBrowser), then the
 * same for every later file the worker runs (files share module state: `isolate: false` in
 * vitest.config.ts), launched again when it has gone (crashed or closed). It is closed when the
 * worker ends: on Vitest's SIGTERM it is closed and the signal raised again (the process then ends
 * as it would have), on the process's exit Playwright kills it (docs/architecture.md, "Tests").
 */
export async function workerBrowser(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  if (!shared) process.once('SIGTERM', closeWorkerBrowser);
  shared = launchBrowser(false);
  return shared;
}

/** SIGTERM's listener (workerBrowser): closes the worker's browser, then raises SIGTERM again with no listener left, which ends the process. */
function closeWorkerBrowser(): void {
  const browser = shared;
  shared = undefined;
  void (browser ? browser.then((b) => b.close()) : Promise.resolve())
    .catch(() => undefined)
    .finally(() => process.kill(process.pid, 'SIGTERM'));
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page (WCAG 2.0/2.1/2.2 A and AA) and returns the violations as readable
 * lines. axe is added to the page once per document (a console page moved by the router keeps it).
 * Only the violations are gathered in full (axe's `resultTypes` option): axe then skips the
 * selectors of the passed, incomplete and inapplicable nodes, which are not read here; every rule
 * still runs on every node.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }
    ).axe;
    return axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The widths the console is checked at: a phone and a laptop. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Prints a page's script errors and refused API calls (shown with a failing test). */
export function watchPage(page: Page): void {
  page.on('pageerror', (e) => process.stdout.write(`page error: ${e.message}\n`));
  page.on('response', (r) => {
    if (r.status() >= 400 && r.url().includes('/api/') && !r.url().endsWith('/api/auth/me'))
      process.stdout.write(`${r.request().method()} ${new URL(r.url()).pathname} -> ${r.status()}\n`);
  });
}

/**
 * A page in a context of its own (en-GB, Europe/London, `viewport`), watched by watchPage.
 * Close it with `page.context().close()` (or the browser).
 */
export async function consolePage(browser: Browser, viewport: { width: number; height: number }, timeoutMs = 15_000): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/London' });
  context.setDefaultTimeout(timeoutMs);
  const page = await context.newPage();
  watchPage(page);
  return page;
}

/**
 * Signs in through the console's sign-in form at `baseUrl` and waits for the signed-in layout (the
 * user menu). On failure it prints what the page shows instead, then rethrows.
 */
export async function signInConsole(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  try {
    await page.locator('.user-toggle').waitFor({ state: 'attached' });
  } catch (e) {
    process.stdout.write(`sign-in failed at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)}\n`);
    throw e;
  }
}

/** How a session's console page differs from the usual one; every field is optional. */
export interface ConsolePageOptions {
  /** The context's default timeout for actions and waits, in milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Browser permissions granted to `baseUrl`'s origin before signing in, e.g. `['notifications']` (signedIn only). */
  permissions?: string[];
  /** The password to sign in with (signedIn only; default TEST_PASSWORD, the factories' password). */
  password?: string;
}

/**
 * The browser side of one browser test file: the worker's Chromium (workerBrowser, shared with the
 * other browser files the worker runs), the contexts its tests open, and one teardown for them
 * all. Typical use:
 *
 *   const session = new BrowserSession();
 *   beforeAll(async () => { ...; await session.launch(); });
 *   afterAll(() => session.close(t));
 *   it('...', async () => { const page = await session.signedIn(baseUrl, email, PHONE); ... });
 *
 * Every context of the browser is closed by `close`, also those a file opened itself without
 * `track`: a worker runs one file at a time, so they are all this file's.
 */
export class BrowserSession {
  #browser: Browser | undefined;
  readonly #contexts: BrowserContext[] = [];

  /** Takes the worker's Chromium (workerBrowser, launched if none runs) for the file's tests; call once, in beforeAll. */
  async launch(): Promise<Browser> {
    this.#browser = await workerBrowser();
    return this.#browser;
  }

  /** The launched browser. Throws an Error when `launch` has not been called. */
  get browser(): Browser {
    if (!this.#browser) throw new Error('BrowserSession: launch() the browser first (in beforeAll)');
    return this.#browser;
  }

  /** Keeps `context` to be closed by `close`; returns it. */
  track<C extends BrowserContext>(context: C): C {
    this.#contexts.push(context);
    return context;
  }

  /**
   * A console page in a context of its own (consolePage: en-GB, Europe/London, `viewport` in CSS
   * pixels, page errors and refused API calls printed), its context kept to be closed by `close`.
   * Uses `options.timeoutMs` only.
   */
  async page(viewport: { width: number; height: number }, options: ConsolePageOptions = {}): Promise<Page> {
    const page = await consolePage(this.browser, viewport, options.timeoutMs);
    this.track(page.context());
    return page;
  }

  /**
   * A `page` signed in as `email` through the console's sign-in form at `baseUrl` (signInConsole),
   * waiting for the signed-in layout; `options.permissions` are granted to `baseUrl` first.
   * Rejects (after printing what the page shows) when the sign-in does not complete in time.
   */
  async signedIn(baseUrl: string, email: string, viewport: { width: number; height: number }, options: ConsolePageOptions = {}): Promise<Page> {
    const page = await this.page(viewport, options);
    if (options.permissions) await page.context().grantPermissions(options.permissions, { origin: baseUrl });
    await signInConsole(page, baseUrl, email, options.password ?? TEST_PASSWORD);
    return page;
  }

  /**
   * The file's teardown: closes the kept contexts and every other context of the browser (one that
   * fails to close is passed over), leaving the browser running for the worker's next file, then
   * each of `after` in the order given (the test app, other servers), skipping those never made.
   */
  async close(...after: Array<{ close(): Promise<unknown> } | undefined>): Promise<void> {
    const contexts = new Set([...this.#contexts.splice(0), ...(this.#browser?.contexts() ?? [])]);
    for (const context of contexts) await context.close().catch(() => undefined);
    for (const item of after) await item?.close();
  }
}

/**
 * Runs axe on the page and expects no violation: at the page's own size (`sizes` omitted), or at
 * each of `sizes` in turn (the page stays at the last). With CONSOLE_SCREENSHOTS=1 also writes
 * `<folder>/<name>.png`, or `<folder>/<name>-<size>.png` per size (the docs' pictures).
 */
export async function checkAndShoot(page: Page, folder: string, name: string, sizes?: Record<string, { width: number; height: number }>): Promise<void> {
  const shoot = async (file: string) => {
    if (process.env.CONSOLE_SCREENSHOTS === '1') await page.screenshot({ path: path.join(folder, `${file}.png`), fullPage: true, animations: 'disabled' });
  };
  if (!sizes) {
    expect(await axeViolations(page), name).toEqual([]);
    await shoot(name);
    return;
  }
  for (const [label, viewport] of Object.entries(sizes)) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `${name} at ${label} width`).toEqual([]);
    await shoot(`${name}-${label}`);
  }
}

/**
 * A `width`×`height` PNG of a sink-blue gradient (pngjs), for photo uploads in browser tests: the
 * server decides a photo's type from its content, and the screenshots show a real preview.
 */
export function gradientPng(width = 320, height = 240): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) png.data.set([40 + (x * 120) / width, 90 + (y * 100) / height, 160, 255], (y * width + x) * 4);
  }
  return PNG.sync.write(png);
}

/** The docs' console pictures (docs/console), written by checkAtBothWidths with CONSOLE_SCREENSHOTS=1. */
export const CONSOLE_SHOTS = path.resolve(import.meta.dirname, '../../docs/console');

/** checkAndShoot at phone width and at 1280 px (the page stays at 1280 px), pictures in docs/console as `<name>-phone.png` and `<name>-desktop.png`. */
export function checkAtBothWidths(page: Page, name: string): Promise<void> {
  return checkAndShoot(page, CONSOLE_SHOTS, name, { phone: PHONE, desktop: DESKTOP });
}

/** Reloads the page and waits for the same level-1 heading, then expects the same URL: every console URL survives a reload (docs/console.md). */
export async function reloadLands(page: Page, heading: string | RegExp): Promise<void> {
  const url = page.url();
  await page.reload();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  expect(page.url()).toBe(url);
}

/**
 * Serves a test app to a browser: its clock moved to the real now (the browser's cookies and the
 * session expiry it shows use real time), listening on 127.0.0.1 at a free port.
 * @returns the app's base URL, `http://127.0.0.1:PORT`
 */
export async function serveForBrowser(t: TestApp): Promise<string> {
  t.clock.advance((Date.now() - t.clock.now().getTime()) / 1000);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/**
 * The usual start of a console test file: the console built (ensureConsoleBuilt), a test app made
 * with `env` (buildTestApp) and served for a browser (serveForBrowser). The app is closed again
 * when serving it fails.
 * @returns the app and its base URL, `http://127.0.0.1:PORT`
 */
export async function serveConsole(env: Record<string, string> = {}): Promise<{ t: TestApp; baseUrl: string }> {
  ensureConsoleBuilt();
  const t = await buildTestApp(env);
  try {
    return { t, baseUrl: await serveForBrowser(t) };
  } catch (e) {
    await t.close();
    throw e;
  }
}

/**
 * Like serveConsole, at a port chosen before the app is made so that the app knows its own
 * address: CARETAKER_PUBLIC_URL is `http://localhost:PORT` (a WebAuthn relying party is a host
 * name, never an IP address; single sign-on's redirect URI is made from it) and the cookies are
 * not Secure (plain HTTP). `env` is added to that.
 * @returns the app and its base URL, `http://localhost:PORT`
 */
export async function serveConsoleOnLocalhost(env: Record<string, string> = {}): Promise<{ t: TestApp; baseUrl: string }> {
  ensureConsoleBuilt();
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const t = await buildTestApp({ CARETAKER_PUBLIC_URL: baseUrl, CARETAKER_COOKIE_SECURE: 'false', ...env });
  try {
    t.clock.advance((Date.now() - t.clock.now().getTime()) / 1000);
    await t.app.listen({ port, host: '127.0.0.1' });
    return { t, baseUrl };
  } catch (e) {
    await t.close();
    throw e;
  }
}
