/**
 * docs/security.md "A session per device" (promise 2 as it stands for browser sessions): POST
 * /api/auth/session signs a browser in with a session only and revokes nothing; a login still
 * revokes earlier bearer tokens (spec 3, 4.1) but no browser session; sessions are listed with
 * their device and ended one by one, and the next request of an ended session says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, Client, createAgency, createBranch, createUser, login, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SIGNED_OUT = 'Authentication required. Please log in.';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

async function agent() {
  const agency = await createAgency(t.db);
  const branch = await createBranch(t.db, agency.id);
  const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id });
  const user = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id });
  return { user, admin };
}

/** POST /api/auth/session from a browser with `ua`; returns the cookie jar's session value and the answer. */
async function signIn(email: string, ua: string, password = TEST_PASSWORD) {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { email, password }, headers: { 'user-agent': ua } });
  return { res, cookie: res.cookies.find((c) => c.name === 'caretaker_session')?.value ?? '' };
}

/** A request with one cookie jar (the session cookie), a CSRF token fetched first for writes. */
async function browser(cookie: string, method: 'GET' | 'DELETE' | 'POST', url: string, payload?: object) {
  const headers: Record<string, string> = {};
  if (method !== 'GET') {
    const csrf = await t.app.inject({ method: 'GET', url: '/api/security/csrf-token', cookies: { caretaker_session: cookie } });
    headers['x-csrf-token'] = csrf.json().data.token as string;
  }
  return t.app.inject({ method, url, cookies: { caretaker_session: cookie }, headers, ...(payload ? { payload } : {}) });
}

const meOf = (cookie: string) => browser(cookie, 'GET', '/api/auth/me');
const activity = (userId: number, action: string) =>
  t.db.selectFrom('activity_log').selectAll().where('user_id', '=', userId).where('action', '=', action).orderBy('id').execute();

describe('POST /api/auth/session: a browser session per device', () => {
  it('signs a browser in with a session cookie only: no bearer token, the flags of spec 5.2, logged', async () => {
    const { user } = await agent();
    const { res, cookie } = await signIn(user.email, DESKTOP);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Signed in', data: { remember_me: false, user: { email: user.email, account_type: 'Agent' } } });
    expect(body.token).toBeUndefined();
    expect(new Date(body.data.expires_at).getTime()).toBe(t.clock.now().getTime() + 2 * 3600 * 1000);
    const set = res.cookies.find((c) => c.name === 'caretaker_session')!;
    expect(set).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/', maxAge: 7200 });
    expect((await meOf(cookie)).json().data.session.kind).toBe('session');
    const rows = await t.db.selectFrom('auth_tokens').select('kind').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => r.kind)).toEqual(['session']);
    expect(await activity(user.id, 'auth.session_start')).toHaveLength(1);
  });

  it('keeps two browsers of the same agent signed in (two cookie jars)', async () => {
    const { user } = await agent();
    const desktop = await signIn(user.email, DESKTOP);
    const phone = await signIn(user.email, PHONE);
    expect(desktop.cookie).not.toBe(phone.cookie);
    expect((await meOf(desktop.cookie)).statusCode).toBe(200);
    expect((await meOf(phone.cookie)).statusCode).toBe(200);
    // And a third sign-in on the desktop again still leaves the phone alone.
    const again = await signIn(user.email, DESKTOP);
    for (const c of [desktop.cookie, phone.cookie, again.cookie]) expect((await meOf(c)).statusCode).toBe(200);
  });

  it("never revokes an app's token, and an app's token never ends a browser session", async () => {
    const { user } = await agent();
    const apiToken = new Client(t.app, await login(t.app, user.email));
    const mobile = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } });
    const app = new Client(t.app, mobile.json().data.token as string);
    const { cookie } = await signIn(user.email, DESKTOP);
    expect((await app.get('/api/auth/me')).statusCode).toBe(200);
    expect((await apiToken.get('/api/auth/me')).statusCode).toBe(200);
    // The other way round: a new login token (which revokes the earlier bearer tokens) leaves the browser signed in.
    const second = new Client(t.app, await login(t.app, user.email));
    expect((await meOf(cookie)).statusCode).toBe(200);
    expect((await second.get('/api/auth/me')).statusCode).toBe(200);
    const firstAgain = await apiToken.get('/api/auth/me');
    expect(firstAgain.statusCode).toBe(401);
    // Bearer tokens keep the spec's body exactly.
    expect(firstAgain.json()).toEqual({ success: false, error: 'Unauthorized. Valid Bearer token required.' });
  });

  it('a second app login token still revokes the first (spec 3, 4.1)', async () => {
    const { user } = await agent();
    const first = new Client(t.app, await login(t.app, user.email));
    const second = new Client(t.app, await login(t.app, user.email));
    expect((await first.get('/api/auth/me')).statusCode).toBe(401);
    expect((await second.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('refuses a wrong password as login does, logged as auth.session_failed', async () => {
    const { user } = await agent();
    const { res, cookie } = await signIn(user.email, DESKTOP, 'not the password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: 'Invalid email or password' });
    expect(cookie).toBe('');
    expect(await activity(user.id, 'auth.session_failed')).toHaveLength(1);
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { email: user.email } });
    expect(missing.statusCode).toBe(400);
  });
});

describe('sessions listed and ended one by one, with the reason on the next request', () => {
  it('lists each browser with its device, address, times and which is current', async () => {
    const { user } = await agent();
    const desktop = await signIn(user.email, DESKTOP);
    t.clock.advance(60);
    await signIn(user.email, PHONE);
    const res = await browser(desktop.cookie, 'GET', '/api/users/me/sessions');
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Array<{ device: string; current: boolean; ip_address: string; kind: string; created_at: string }>;
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.kind, r.device, r.current])).toEqual([
      ['session', 'Mobile Safari 18 on iOS 18.1 (Apple iPhone)', false],
      ['session', 'Chrome 131 on Windows 10', true],
    ]);
    expect(rows[0]!.ip_address).toBe('127.0.0.1');
  });

  it('ending one session (by its owner) signs that browser out with the reason; the others stay', async () => {
    const { user } = await agent();
    const desktop = await signIn(user.email, DESKTOP);
    const phone = await signIn(user.email, PHONE);
    const rows = (await browser(desktop.cookie, 'GET', '/api/users/me/sessions')).json().data as Array<{ id: number; current: boolean }>;
    const other = rows.find((r) => !r.current)!;
    const end = await browser(desktop.cookie, 'DELETE', `/api/users/me/sessions/${other.id}`);
    expect(end.json()).toEqual({ success: true, data: { revoked: 1 }, message: 'Session revoked' });
    const next = await meOf(phone.cookie);
    expect(next.statusCode).toBe(401);
    expect(next.json()).toEqual({
      success: false,
      error: SIGNED_OUT,
      reason: 'ended_by_owner',
      message: 'Your session was ended on another device.',
    });
    expect((await meOf(desktop.cookie)).statusCode).toBe(200);
    const logged = await activity(user.id, 'user.sessions_revoke');
    expect(logged.at(-1)!.details).toEqual({ scope: 'one', revoked: 1, session_id: other.id });
  });

  it('"sign out everywhere else", an administrator, a password change and disabling each say why', async () => {
    const { user, admin } = await agent();
    const a = await signIn(user.email, DESKTOP);
    const b = await signIn(user.email, PHONE);
    expect((await browser(a.cookie, 'DELETE', '/api/users/me/sessions')).json().data).toEqual({ revoked: 1 });
    expect((await meOf(b.cookie)).json()).toMatchObject({ error: SIGNED_OUT, reason: 'ended_by_owner' });

    const adminSession = await signIn(admin.email, DESKTOP);
    expect((await browser(adminSession.cookie, 'DELETE', `/api/users/${user.uuid}/sessions`)).statusCode).toBe(200);
    expect((await meOf(a.cookie)).json()).toMatchObject({ error: SIGNED_OUT, reason: 'ended_by_admin', message: 'An administrator ended your session.' });

    const c = await signIn(user.email, DESKTOP);
    const d = await signIn(user.email, PHONE);
    const changed = await browser(c.cookie, 'POST', '/api/users/me/password', { current_password: TEST_PASSWORD, new_password: 'a new password 2026' });
    expect(changed.statusCode).toBe(200);
    expect((await meOf(d.cookie)).json()).toMatchObject({ reason: 'password_changed', message: 'Your password was changed. Please sign in with the new one.' });
    expect((await meOf(c.cookie)).statusCode).toBe(200);

    expect((await browser(adminSession.cookie, 'POST', `/api/users/${user.uuid}/disable`, {})).statusCode).toBe(200);
    expect((await meOf(c.cookie)).json()).toMatchObject({ error: SIGNED_OUT, reason: 'account_disabled' });
  });

  it('an idle session says so; a logged-out one says it signed out', async () => {
    const { user } = await agent();
    const a = await signIn(user.email, DESKTOP);
    t.clock.advance(31 * 60);
    expect((await meOf(a.cookie)).json()).toMatchObject({ error: SIGNED_OUT, reason: 'idle' });
    const b = await signIn(user.email, DESKTOP);
    expect((await browser(b.cookie, 'POST', '/api/auth/logout', {})).statusCode).toBe(200);
    expect((await meOf(b.cookie)).json()).toMatchObject({ reason: 'signed_out' });
    // A cookie that was never issued gets the spec's body alone.
    expect((await meOf('a'.repeat(64))).json()).toEqual({ success: false, error: SIGNED_OUT });
  });
});
