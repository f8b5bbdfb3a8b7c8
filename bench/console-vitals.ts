/**
 * `npm run bench:vitals` (bench/README.md "The console as people hold it"): the console's Core Web
 * Vitals on a phone. Starts the real service (`node bin/caretaker.js serve`, as `npm start` runs it)
 * on the embedded database in a fresh data folder with the demo data (`CARETAKER_DEMO=true`,
 * docs/demo-data.md) on a free port, drives Debian's Chromium with playwright-core at 390 x 844
 * (device pixel ratio 3, touch, an Android Chrome user agent), the CPU slowed four times
 * (`Emulation.setCPUThrottlingRate`) and Lighthouse's "Slow 4G" network (`mobileSlow4G`: 150 ms
 * RTT, 1.6 Mbit/s down, 750 kbit/s up, applied per request as Lighthouse's DevTools throttling
 * applies it: 562.5 ms latency, 1,474.56 kbit/s down, 675 kbit/s up), and measures five pages:
 * - the job board (`/jobs`) as the demo agent, tapping "Filters and sort";
 * - one demo job's page (`/jobs/{uuid}`, the board's first job) as the demo agent, tapping the
 *   "Notes" tab;
 * - the contractor's jobs of the day (`/jobs`, "Your jobs", the installed app's start page) as
 *   the demo contractor, tapping "Sort by Visit date";
 * - the sign-in page (`/sign-in`, signed out: the first page a new user sees), tapping "Keep me
 *   signed in";
 * - the password reset page (`/reset-password`, signed out: as the pages of the e-mails' links
 *   are), tapping the e-mail field.
 * Each run opens the page in a new browser context (an empty cache, only the session cookie of a
 * sign-in made beforehand, unthrottled, for the pages behind it) and then again in the same context (a returning visit: the
 * HTTP cache and the service worker the first visit registered).
 *
 * Per load: LCP (the last `largest-contentful-paint` entry before the tap, ms since the navigation
 * started), INP of the one tap (the longest Event Timing entry of its interaction, ms from the
 * touch to the next paint; Chromium reports no entry under 16 ms, then 16 is given as the upper
 * bound), and the compressed bytes of script the page received whose request started before the
 * LCP (`encodedDataLength` of Network.loadingFinished for responses of type Script), by chunk.
 * Prints the table (median and worst over the runs) and the chunks, with the time and load
 * average at the start and the end.
 *
 * Environment: BENCH_VITALS_RUNS (5), BENCH_VITALS_CHROMIUM (/usr/bin/chromium),
 * BENCH_VITALS_CPU (4, the slow-down rate), BENCH_VITALS_NETWORK (`slow4g`, or `none`),
 * BENCH_VITALS_PAGES (parts of the pages' names, comma-separated: `job page` measures only that),
 * BENCH_VITALS_TRACE (set: each load's requests, start and end in ms since the navigation, bytes),
 * BENCH_VITALS_COMPARE (another checkout, e.g. an earlier commit's with its console built: its
 * service is started too, and each run measures each page on both, each first in turn, so a
 * change is measured against the build before it under the same load).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, devices, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { freePort, machine, median } from './common.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_VITALS_RUNS ?? 5);
const CHROMIUM = process.env.BENCH_VITALS_CHROMIUM ?? '/usr/bin/chromium';
const CPU_RATE = Number(process.env.BENCH_VITALS_CPU ?? 4);
const PASSWORD = 'caretaker-demo';
const PAGES = process.env.BENCH_VITALS_PAGES?.split(',').map((p) => p.trim());
const COMPARE = process.env.BENCH_VITALS_COMPARE ? path.resolve(process.env.BENCH_VITALS_COMPARE) : undefined;

/** The targets of bench/README.md "The console as people hold it": LCP and INP in ms, first-page script in bytes. */
export const TARGETS = { lcpMs: 2500, inpMs: 200, scriptBytes: 150 * 1024 };

/**
 * Lighthouse's mobile "Slow 4G" (`mobileSlow4G`: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up) as
 * Network.emulateNetworkConditions takes it, with Lighthouse's DevTools adjustments (latency × 3.75,
 * throughput × 0.9: DevTools throttles each request, not packets). Throughputs in bytes per second.
 */
export const SLOW_4G = { offline: false, latency: 150 * 3.75, downloadThroughput: (1.6 * 1024 * 0.9 * 1024) / 8, uploadThroughput: (750 * 0.9 * 1024) / 8 };

/** What one page load measured: LCP and INP in ms, the script received before the LCP in bytes, by chunk. */
export interface Load {
  lcpMs: number;
  lcpElement: string;
  inpMs: number;
  scriptBytes: number;
  chunks: Record<string, number>;
}

/** One page of the table: its name, the account (null: signed out), its address, what shows its content, what a tap does. */
interface Scenario {
  name: string;
  email: string | null;
  path: string;
  content: (page: Page) => Promise<void>;
  tap: (page: Page) => Promise<void>;
}

// Installed before any of the page's scripts: LCP entries and Event Timing entries (interactions
// only), kept on window for page.evaluate (bench/README.md "The console as people hold it").
const OBSERVERS = `
  window.__vitals = { lcp: 0, lcpElement: '', interactions: {} };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__vitals.lcp = e.startTime;
      const el = e.element;
      window.__vitals.lcpElement = el ? el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') : e.url || '';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      window.__vitals.interactions[e.interactionId] = Math.max(window.__vitals.interactions[e.interactionId] || 0, e.duration);
    }
  }).observe({ type: 'event', buffered: true, durationThreshold: 16 });
`;

/**
 * Starts `node bin/caretaker.js serve` of the checkout `root` on a free port with the demo data in `dataDir` and resolves
 * when GET /readyz answers 200 and the demo agent can sign in.
 * @throws Error when the server exits first or is not ready within five minutes
 */
export async function startDemoServer(root: string, dataDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS']) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('OTEL_') || k.startsWith('BENCH_')) delete env[k];
  const child = spawn(process.execPath, ['--max-semi-space-size=16', path.join(root, 'bin/caretaker.js'), 'serve'], {
    cwd: root,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', CARETAKER_COOKIE_SECURE: 'false', CARETAKER_DEMO: 'true', CARETAKER_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout!.on('data', (d: Buffer) => lines.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`caretaker exited (${child.exitCode}):\n${lines.join('')}`);
    if (await apiToken(baseUrl, 'agent@northwind.test').then(() => true, () => false)) return { child, baseUrl };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`caretaker not ready:\n${lines.join('')}`);
}

/** A bearer token of a demo account (POST /api/auth/login). @throws Error when the login fails */
async function apiToken(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** The first job of the demo agent's board, the job page's subject. */
async function demoJob(baseUrl: string): Promise<string> {
  const token = await apiToken(baseUrl, 'agent@northwind.test');
  const res = await fetch(`${baseUrl}/api/jobs/manage?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data: Array<{ uuid: string }> };
  if (!body.data[0]) throw new Error('the demo agent sees no job');
  return body.data[0].uuid;
}

/** A phone's browser context: 390 x 844 at device pixel ratio 3, touch, Android Chrome's user agent, en-GB in London. */
async function phoneContext(browser: Browser, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: devices['Pixel 7']!.userAgent,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    storageState,
  });
  context.setDefaultTimeout(60_000);
  return context;
}

/** Signs in through the console's form (unthrottled) and returns the context's cookies and storage. */
async function signedInState(browser: Browser, baseUrl: string, email: string) {
  const context = await phoneContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.user-toggle').waitFor({ state: 'attached' });
    const state = await context.storageState();
    // Only the session: the sign-in's own page may have stored offline copies (pwa.ts).
    return { cookies: state.cookies, origins: [] };
  } finally {
    await context.close();
  }
}

/**
 * Opens `url` in a new page of `context` with the CPU slowed and the network throttled, waits for
 * the scenario's content, reads the LCP, taps, and reads that tap's INP.
 * @returns the load's figures (LCP and INP in ms, script bytes before the LCP)
 */
export async function measureLoad(context: BrowserContext, url: string, scenario: Scenario): Promise<Load> {
  const page = await context.newPage();
  // A load that goes wrong says why: the page's script errors and its failed requests are printed.
  page.on('pageerror', (e) => process.stdout.write(`  page error (${scenario.name}): ${e.message}\n`));
  page.on('requestfailed', (r) => process.stdout.write(`  request failed (${scenario.name}): ${new URL(r.url()).pathname} ${r.failure()?.errorText ?? ''}\n`));
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
  await cdp.send('Network.enable');
  if ((process.env.BENCH_VITALS_NETWORK ?? 'slow4g') !== 'none') await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  const requests = new Map<string, { url: string; started: number; type?: string }>();
  const finished: Array<{ id: string; bytes: number; ended: number }> = [];
  let navigationStart: number | undefined;
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, started: e.timestamp });
    if (navigationStart === undefined && e.type === 'Document') navigationStart = e.timestamp;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.type = e.type;
  });
  cdp.on('Network.loadingFinished', (e) => finished.push({ id: e.requestId, bytes: e.encodedDataLength, ended: e.timestamp }));
  await page.addInitScript(OBSERVERS);
  await page.goto(url, { waitUntil: 'commit' });
  await scenario.content(page);
  // LCP entries arrive after the paint that shows the content; a tap ends the LCP.
  await page.waitForTimeout(1500);
  const lcp = await page.evaluate('({ ms: window.__vitals.lcp, element: window.__vitals.lcpElement })') as { ms: number; element: string };
  await scenario.tap(page);
  await page.waitForTimeout(1000);
  const interactions = (await page.evaluate('Object.values(window.__vitals.interactions)')) as number[];
  const chunks: Record<string, number> = {};
  let scriptBytes = 0;
  for (const f of finished) {
    const r = requests.get(f.id);
    if (!r || r.type !== 'Script' || navigationStart === undefined || (r.started - navigationStart) * 1000 > lcp.ms) continue;
    const name = new URL(r.url).pathname.replace(/^\/assets\//, '');
    chunks[name] = (chunks[name] ?? 0) + f.bytes;
    scriptBytes += f.bytes;
  }
  if (process.env.BENCH_VITALS_TRACE && navigationStart !== undefined) {
    const at = (t: number) => Math.round((t - navigationStart!) * 1000);
    for (const f of finished) {
      const r = requests.get(f.id);
      if (r) process.stdout.write(`  ${String(at(r.started)).padStart(5)}-${String(at(f.ended)).padEnd(5)} ms ${kB(f.bytes).padStart(9)} ${r.type ?? ''} ${new URL(r.url).pathname}\n`);
    }
  }
  await cdp.detach();
  await page.close();
  return { lcpMs: lcp.ms, lcpElement: lcp.element, inpMs: Math.max(16, ...interactions), scriptBytes, chunks };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const ms = (n: number) => `${Math.round(n).toLocaleString('en-GB')} ms`;
const worst = (xs: number[]) => Math.max(...xs);

/** The table's rows for one page and visit kind: median and worst of each figure, and whether the targets are met. */
export function row(name: string, loads: Load[]): string {
  const lcp = loads.map((l) => l.lcpMs);
  const inp = loads.map((l) => l.inpMs);
  const js = loads.map((l) => l.scriptBytes);
  const met = worst(lcp) < TARGETS.lcpMs && worst(inp) < TARGETS.inpMs && worst(js) < TARGETS.scriptBytes;
  return `| ${name} | ${ms(median(lcp))} | ${ms(worst(lcp))} | ${ms(median(inp))} | ${ms(worst(inp))} | ${kB(median(js))} | ${kB(worst(js))} | ${loads[0]?.lcpElement ?? ''} | ${met ? 'yes' : '**no**'} |`;
}

/** A checkout whose service is measured: its label in the table, its folder, and once started its server and sign-ins. */
interface Build {
  label: string;
  root: string;
  dataDir?: string;
  server?: { child: ChildProcess; baseUrl: string };
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (BENCH_VITALS_CHROMIUM)`);
  const builds: Build[] = [{ label: 'this checkout', root: ROOT }];
  if (COMPARE) builds.push({ label: path.basename(COMPARE), root: COMPARE });
  for (const b of builds) if (!existsSync(path.join(b.root, 'console/dist/index.html'))) throw new Error(`${b.root}/console/dist is missing: npm run console:build`);
  process.stdout.write(`start: ${machine()}\nstarting caretaker serve with the demo data (${builds.map((b) => b.root).join(', ')}) ...\n`);
  // Interrupted (Ctrl-C, or a closed pipe on stdout): the servers are stopped, not left behind.
  const stopServers = () => {
    for (const b of builds) b.server?.child.kill('SIGTERM');
    process.exit(1);
  };
  process.once('SIGINT', stopServers);
  process.once('SIGTERM', stopServers);
  process.stdout.on('error', stopServers);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  try {
    const scenarios = new Map<Build, Scenario[]>();
    const states = new Map<string, Awaited<ReturnType<typeof signedInState>>>();
    for (const b of builds) {
      b.dataDir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-vitals-'));
      b.server = await startDemoServer(b.root, b.dataDir);
      const jobUuid = await demoJob(b.server.baseUrl);
      const board = async (page: Page) => void (await page.locator('.job-card').first().waitFor());
      const list: Scenario[] = [
        { name: 'job board (agent)', email: 'agent@northwind.test', path: '/jobs', content: board, tap: (p) => p.getByRole('button', { name: /^Filters and sort/ }).tap() },
        { name: 'job page (agent)', email: 'agent@northwind.test', path: `/jobs/${jobUuid}`, content: async (p) => void (await p.locator('#details').waitFor()), tap: (p) => p.getByRole('tab', { name: /^Notes/ }).tap() },
        { name: "contractor's jobs today", email: 'contractor@northwind.test', path: '/jobs', content: board, tap: (p) => p.getByRole('button', { name: /^Sort by Visit date/ }).tap() },
        {
          name: 'sign-in page (signed out)',
          email: null,
          path: '/sign-in',
          content: async (p) => void (await p.getByRole('button', { name: 'Sign in', exact: true }).waitFor()),
          tap: (p) => p.getByText('Keep me signed in for 30 days').tap(),
        },
        {
          name: 'password reset page (signed out)',
          email: null,
          path: '/reset-password',
          content: async (p) => void (await p.getByRole('button', { name: 'Send reset link' }).waitFor()),
          tap: (p) => p.getByLabel('E-mail address').tap(),
        },
      ];
      scenarios.set(b, PAGES ? list.filter((s) => PAGES.some((p) => s.name.includes(p))) : list);
      for (const s of list) if (s.email) states.set(`${b.label} ${s.email}`, await signedInState(browser, b.server.baseUrl, s.email));
    }
    const results = new Map<string, Load[]>();
    for (let run = 1; run <= RUNS; run++) {
      for (let i = 0; i < scenarios.get(builds[0]!)!.length; i++) {
        // Each build first in turn, so both meet the machine in the same states.
        for (const b of run % 2 ? builds : [...builds].reverse()) {
          const s = scenarios.get(b)![i]!;
          const context = await phoneContext(browser, s.email ? states.get(`${b.label} ${s.email}`) : undefined);
          try {
            for (const visit of ['first visit (cold cache)', 'returning visit']) {
              const load = await measureLoad(context, `${b.server!.baseUrl}${s.path}`, s);
              const key = `${COMPARE ? `${b.label}: ` : ''}${s.name}, ${visit}`;
              results.set(key, [...(results.get(key) ?? []), load]);
              process.stdout.write(`run ${run} ${key}: LCP ${ms(load.lcpMs)} (${load.lcpElement}), INP ${ms(load.inpMs)}, script ${kB(load.scriptBytes)}\n`);
            }
          } finally {
            await context.close();
          }
        }
      }
    }
    process.stdout.write(`\nend: ${machine()}\n\n`);
    process.stdout.write(`| page, visit | LCP median | LCP worst | INP median | INP worst | script before LCP, median | worst | LCP element | targets met |\n|---|---|---|---|---|---|---|---|---|\n`);
    for (const key of [...results.keys()].sort()) process.stdout.write(`${row(key, results.get(key)!)}\n`);
    process.stdout.write('\nscript before the LCP by chunk (compressed bytes received, first run, first visits):\n');
    for (const [key, loads] of results) {
      if (!key.includes('cold')) continue;
      const chunks = Object.entries(loads[0]!.chunks).sort((a, b) => b[1] - a[1]);
      process.stdout.write(`- ${key}: ${chunks.map(([n, b]) => `${n} ${kB(b)}`).join(', ')}\n`);
    }
  } finally {
    await browser.close();
    for (const b of builds) {
      const child = b.server?.child;
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (b.dataDir) await rm(b.dataDir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
