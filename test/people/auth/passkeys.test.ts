/**
 * docs/security.md "Passkeys" (promise 39): a passkey registered and used in headless Chromium
 * through its virtual authenticator (DevTools protocol, WebAuthn domain): as a second factor after
 * the password, and password-less; another account's challenge refuses it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAgency, createBranch, createUser, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';
import { CHROMIUM, launchBrowser } from '../../helpers/browser.ts';
import { freePort } from '../../helpers/net.ts';

let t: TestApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!CHROMIUM) return;
  const port = await freePort();
  base = `http://localhost:${port}`;
  t = await buildTestApp({ CARETAKER_PUBLIC_URL: base, CARETAKER_COOKIE_SECURE: 'false' });
  t.clock.advance((Date.now() - t.clock.now().getTime()) / 1000);
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A page at the app's origin with a virtual platform authenticator (user verification on). */
async function pageWithAuthenticator(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/api/health`).catch(() => undefined);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.evaluate(() => {
    const b64 = (buf: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const unb64 = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
    const call = async (method: string, url: string, body?: unknown) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (method !== 'GET' && !['/api/auth/session', '/api/auth/passkey/options'].includes(url)) {
        const csrf: any = await (await fetch('/api/security/csrf-token', { credentials: 'same-origin' })).json();
        headers['x-csrf-token'] = csrf.data.token;
      }
      const res = await fetch(url, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, body: await res.json() };
    };
    const create = async (o: any) => {
      const cred = (await (globalThis as any).navigator.credentials.create({
        publicKey: {
          ...o,
          challenge: unb64(o.challenge),
          user: { ...o.user, id: unb64(o.user.id) },
          excludeCredentials: (o.excludeCredentials ?? []).map((c: any) => ({ ...c, id: unb64(c.id) })),
        },
      })) as any;
      const r = cred.response as any;
      return {
        id: cred.id, rawId: b64(cred.rawId), type: cred.type, clientExtensionResults: {},
        response: { clientDataJSON: b64(r.clientDataJSON), attestationObject: b64(r.attestationObject), transports: r.getTransports() },
      };
    };
    const get = async (o: any) => {
      const cred = (await (globalThis as any).navigator.credentials.get({
        publicKey: { ...o, challenge: unb64(o.challenge), allowCredentials: (o.allowCredentials ?? []).map((c: any) => ({ ...c, id: unb64(c.id) })) },
      })) as any;
      const r = cred.response as any;
      return {
        id: cred.id, rawId: b64(cred.rawId), type: cred.type, clientExtensionResults: {},
        response: {
          clientDataJSON: b64(r.clientDataJSON), authenticatorData: b64(r.authenticatorData), signature: b64(r.signature),
          ...(r.userHandle ? { userHandle: b64(r.userHandle) } : {}),
        },
      };
    };
    (globalThis as any).wa = { call, create, get };
  });
  return page;
}

type Answer = { status: number; body: any };
const call = (page: Page, method: string, url: string, body?: unknown): Promise<Answer> =>
  page.evaluate(([m, u, b]) => (globalThis as any).wa.call(m, u, b), [method, url, body] as const);

async function agent() {
  const agency = await createAgency(t.db);
  const branch = await createBranch(t.db, agency.id);
  return createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id });
}

/** Signs the page in with a password, registers a passkey, and signs out. */
async function registerPasskey(page: Page, email: string) {
  expect((await call(page, 'POST', '/api/auth/session', { email, password: TEST_PASSWORD })).status).toBe(200);
  const options = await call(page, 'POST', '/api/users/me/passkeys/options', {});
  expect(options.status).toBe(200);
  expect(options.body.data.rp.id).toBe('localhost');
  const response = await page.evaluate((o) => (globalThis as any).wa.create(o), options.body.data);
  const added = await call(page, 'POST', '/api/users/me/passkeys', { response, name: 'Virtual authenticator' });
  expect(added.status).toBe(201);
  expect(added.body.data.name).toBe('Virtual authenticator');
  expect((await call(page, 'POST', '/api/auth/logout', {})).status).toBe(200);
}

describe.skipIf(!CHROMIUM)('Passkeys in headless Chromium (virtual authenticator)', () => {
  it('registers a passkey, then answers the second-factor challenge of a password sign-in with it', async () => {
    const user = await agent();
    const page = await pageWithAuthenticator();
    await registerPasskey(page, user.email);
    const first = await call(page, 'POST', '/api/auth/session', { email: user.email, password: TEST_PASSWORD });
    expect(first.status).toBe(401);
    expect(first.body).toMatchObject({ reason: 'second_factor_required', methods: ['passkey'] });
    const opts = await call(page, 'POST', '/api/auth/passkey/options', { challenge: first.body.challenge });
    expect(opts.status).toBe(200);
    expect(opts.body.data.options.allowCredentials).toHaveLength(1);
    const assertion = await page.evaluate((o) => (globalThis as any).wa.get(o), opts.body.data.options);
    const done = await call(page, 'POST', '/api/auth/session', { challenge: first.body.challenge, passkey: assertion });
    expect(done.status).toBe(200);
    expect((await call(page, 'GET', '/api/auth/me')).body.data.email).toBe(user.email);
    const rows = await t.db.selectFrom('activity_log').select('action').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['user.passkey_add', 'auth.second_factor_challenge', 'auth.second_factor_passed']));
    await page.context().close();
  }, 60_000);

  it('signs in password-less with the passkey (user verification required)', async () => {
    const user = await agent();
    const page = await pageWithAuthenticator();
    await registerPasskey(page, user.email);
    const opts = await call(page, 'POST', '/api/auth/passkey/options', {});
    expect(opts.status).toBe(200);
    expect(opts.body.data.options.userVerification).toBe('required');
    const assertion = await page.evaluate((o) => (globalThis as any).wa.get(o), opts.body.data.options);
    const done = await call(page, 'POST', '/api/auth/session', { challenge: opts.body.data.challenge, passkey: assertion });
    expect(done.status).toBe(200);
    expect(done.body.data.user.email).toBe(user.email);
    // The challenge is single use: the same assertion again is refused.
    expect((await call(page, 'POST', '/api/auth/session', { challenge: opts.body.data.challenge, passkey: assertion })).status).toBe(401);
    // A password-less challenge cannot be answered with a code.
    const other = await call(page, 'POST', '/api/auth/passkey/options', {});
    expect((await call(page, 'POST', '/api/auth/session', { challenge: other.body.data.challenge, code: '123456' })).status).toBe(400);
    await page.context().close();
  }, 60_000);

  it("refuses one account's passkey for another account's second-factor challenge", async () => {
    const alice = await agent();
    const bob = await agent();
    const alicePage = await pageWithAuthenticator();
    await registerPasskey(alicePage, alice.email);
    const bobPage = await pageWithAuthenticator();
    await registerPasskey(bobPage, bob.email);
    // Bob's password, then Alice's authenticator answers Bob's challenge (options as a password-less probe).
    const bobFirst = await call(bobPage, 'POST', '/api/auth/session', { email: bob.email, password: TEST_PASSWORD });
    const opts = await call(bobPage, 'POST', '/api/auth/passkey/options', { challenge: bobFirst.body.challenge });
    const aliceAssertion = await alicePage.evaluate((o) => (globalThis as any).wa.get({ ...o, allowCredentials: [] }), opts.body.data.options);
    const refused = await call(bobPage, 'POST', '/api/auth/session', { challenge: bobFirst.body.challenge, passkey: aliceAssertion });
    expect(refused.status).toBe(401);
    expect(refused.body.reason).toBe('invalid_code');
    await alicePage.context().close();
    await bobPage.context().close();
  }, 60_000);
});
