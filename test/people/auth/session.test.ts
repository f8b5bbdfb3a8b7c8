/**
 * Spec 5.2 and docs/security.md promises 3 and 4: the browser session cookie, its flags, and the
 * 2 h absolute / 30 min idle / 30 days Remember Me rules, checked with a controllable clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAgency, createUser, csrf, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

const MIN = 60;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

async function browserLogin(rememberMe = false) {
  const agency = await createAgency(t.db);
  const user = await createUser(t.db, { role: 'admin', agencyId: agency.id });
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD, remember_me: rememberMe } });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'caretaker_session');
  expect(cookie).toBeDefined();
  return { user, cookie: cookie!, token: res.json().token as string, header: String(res.headers['set-cookie']) };
}

const withCookie = (value: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { caretaker_session: value } });

describe('session cookie', () => {
  it('is HttpOnly, Secure, SameSite=Lax, Path=/ and lasts 2 hours', async () => {
    const { cookie, header } = await browserLogin();
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.secure).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
    expect(cookie.maxAge).toBe(2 * 3600);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/SameSite=Lax/);
  });

  it('authenticates requests and is different from the bearer token', async () => {
    const { cookie, token } = await browserLogin();
    expect(cookie.value).not.toBe(token);
    const res = await withCookie(cookie.value);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.session.kind).toBe('session');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('cannot be used as a bearer token, and a bearer token cannot be used as the cookie', async () => {
    const { cookie, token } = await browserLogin();
    const asBearer = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${cookie.value}` } });
    expect(asBearer.statusCode).toBe(401);
    expect((await withCookie(token)).statusCode).toBe(401);
  });

  it('expires after 30 minutes idle', async () => {
    const { cookie } = await browserLogin();
    t.clock.advance(29 * MIN);
    expect((await withCookie(cookie.value)).statusCode).toBe(200);
    t.clock.advance(30 * MIN);
    const res = await withCookie(cookie.value);
    expect(res.statusCode).toBe(401);
    // The spec's error text, with why the session ended (docs/security.md "Why a session ended").
    expect(res.json()).toEqual({
      success: false,
      error: 'Authentication required. Please log in.',
      reason: 'idle',
      message: 'You were signed out after 30 minutes without activity.',
    });
  });

  it('expires after 2 hours even when active', async () => {
    const { cookie } = await browserLogin();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(20 * MIN);
      expect((await withCookie(cookie.value)).statusCode).toBe(200);
    }
    t.clock.advance(20 * MIN + 1);
    expect((await withCookie(cookie.value)).statusCode).toBe(401);
  });

  it('with Remember Me lasts 30 days and survives idle time', async () => {
    const { cookie } = await browserLogin(true);
    expect(cookie.maxAge).toBe(30 * 86_400);
    t.clock.advance(3 * 3600);
    expect((await withCookie(cookie.value)).statusCode).toBe(200);
    t.clock.advance(30 * 86_400);
    expect((await withCookie(cookie.value)).statusCode).toBe(401);
  });

  it('is revoked by logout (which clears the cookie), not by a new login on another device', async () => {
    const { cookie, user } = await browserLogin();
    const token = await csrf(t.app, (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } })).json().token);
    expect((await withCookie(cookie.value)).statusCode).toBe(200);
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    const second = await browserLogin();
    const csrfRes = await t.app.inject({ method: 'GET', url: '/api/security/csrf-token', cookies: { caretaker_session: second.cookie.value } });
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { caretaker_session: second.cookie.value },
      headers: { 'x-csrf-token': csrfRes.json().data.token },
    });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === 'caretaker_session');
    expect(cleared?.value).toBe('');
    expect((await withCookie(second.cookie.value)).statusCode).toBe(401);
  });
});

describe('logout ends the whole login (docs/security.md "Logout")', () => {
  const withBearer = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  const logout = async (credential: { cookie?: string; bearer?: string }) => {
    const auth = credential.cookie ? { cookies: { caretaker_session: credential.cookie } } : { headers: { authorization: `Bearer ${credential.bearer}` } };
    const token = (await t.app.inject({ method: 'GET', url: '/api/security/csrf-token', ...auth })).json().data.token as string;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', ...auth, headers: { ...(auth.headers ?? {}), 'x-csrf-token': token } });
    expect(out.statusCode).toBe(200);
  };

  it('signing out with the session cookie also revokes the bearer token of the same login', async () => {
    const { cookie, token } = await browserLogin();
    expect((await withBearer(token)).statusCode).toBe(200);
    await logout({ cookie: cookie.value });
    expect((await withCookie(cookie.value)).statusCode).toBe(401);
    expect((await withBearer(token)).statusCode).toBe(401);
  });

  it('signing out with the bearer token also ends the session cookie, and leaves a mobile token alone', async () => {
    const { cookie, token, user } = await browserLogin();
    const mobile = (await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } })).json().data.token as string;
    await logout({ bearer: token });
    expect((await withBearer(token)).statusCode).toBe(401);
    expect((await withCookie(cookie.value)).statusCode).toBe(401);
    expect((await withBearer(mobile)).statusCode).toBe(200);
    const rows = await t.db.selectFrom('auth_tokens').select(['kind', 'revoked_reason', 'login_id']).where('user_id', '=', user.id).orderBy('id').execute();
    expect(rows.map((r) => [r.kind, r.revoked_reason])).toEqual([['login', 'auth.logout'], ['session', 'auth.logout'], ['mobile', null]]);
    expect(rows[0]!.login_id).toBe(rows[1]!.login_id);
    expect(rows[2]!.login_id).toBeNull();
  });
});

describe('local development over plain HTTP', () => {
  it('CARETAKER_COOKIE_SECURE=false drops the Secure flag', async () => {
    const dev = await buildTestApp({ CARETAKER_COOKIE_SECURE: 'false' });
    try {
      const agency = await createAgency(dev.db);
      const user = await createUser(dev.db, { role: 'admin', agencyId: agency.id });
      const res = await dev.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
      const cookie = res.cookies.find((c) => c.name === 'caretaker_session');
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.httpOnly).toBe(true);
    } finally {
      await dev.close();
    }
  });
});
