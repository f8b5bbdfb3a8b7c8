/**
 * Spec 3, 4.1, 4.2, 5.1 and docs/security.md promises 1, 2, 3, 11, 12: login and mobile-auth tokens,
 * their storage, lifetimes and revocation.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/lib/passwords.ts';
import { buildTestApp, Client, createAgency, createBranch, createUser, csrf, login, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

const DAY = 86_400;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

async function agentUser() {
  const agency = await createAgency(t.db);
  const branch = await createBranch(t.db, agency.id);
  return createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id });
}

/**
 * An agent whose stored hash is the service's own (`hashPassword`: m = 19 MiB, t = 2), where the
 * factories' users carry a cheaper test hash (test/helpers/app.ts testPasswordHash).
 */
async function agentUserAtServiceCost() {
  const agency = await createAgency(t.db);
  const branch = await createBranch(t.db, agency.id);
  return createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, serviceCostHash: true });
}

const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

describe('POST /api/auth/login', () => {
  it('returns the login result of 2.6 at the top level, with a 64-hex token valid for 90 days', async () => {
    const user = await agentUser();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, token_type: 'Bearer', user: { name: user.name, email: user.email, account_type: 'Agent' } });
    expect(body.data).toBeUndefined();
    expect(body.token).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof body.usage).toBe('string');
    expect(new Date(body.expires_at).getTime()).toBe(t.clock.now().getTime() + 90 * DAY * 1000);
    expect((await me(body.token)).statusCode).toBe(200);
  });

  it('accepts the e-mail in any letter case', async () => {
    const user = await agentUser();
    await expect(login(t.app, user.email.toUpperCase())).resolves.toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores only the SHA-256 of a token: the database holds no usable token', async () => {
    const user = await agentUser();
    const token = await login(t.app, user.email);
    const rows = await t.db.selectFrom('auth_tokens').selectAll().where('user_id', '=', user.id).execute();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    const hash = createHash('sha256').update(token).digest('hex');
    expect(rows.some((r) => r.token_hash === hash)).toBe(true);
  });

  it('revokes every earlier active bearer token of the account (login and mobile), not its browser sessions', async () => {
    const user = await agentUser();
    const first = await login(t.app, user.email);
    const mobile = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } });
    const mobileToken = mobile.json().data.token as string;
    const second = await login(t.app, user.email);
    for (const old of [first, mobileToken]) {
      const res = await me(old);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, error: 'Unauthorized. Valid Bearer token required.' });
    }
    expect((await me(second)).statusCode).toBe(200);
    const active = await t.db.selectFrom('auth_tokens').select('kind').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    // The session of the first login stays: a login ends bearer tokens only (docs/security.md "A session per device").
    expect(active.map((r) => r.kind).sort()).toEqual(['login', 'session', 'session']);
  });

  it('ten concurrent logins leave exactly one active login token, and it works', async () => {
    const user = await agentUserAtServiceCost();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } })),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const active = await t.db.selectFrom('auth_tokens').select(['kind', 'token_hash']).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(active.filter((r) => r.kind === 'login')).toHaveLength(1);
    expect(active.filter((r) => r.kind === 'session')).toHaveLength(10);
    const working = [];
    for (const r of results) if ((await me(r.json().token)).statusCode === 200) working.push(r);
    expect(working).toHaveLength(1);
  });

  it('expires after 90 days', async () => {
    const user = await agentUser();
    const token = await login(t.app, user.email);
    t.clock.advance(90 * DAY - 1);
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(2);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Unauthorized. Valid Bearer token required.');
  });

  it('answers an unknown e-mail and a wrong password with the same status and body', async () => {
    const user = await agentUser();
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'not the password' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.test', password: 'not the password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({ success: false, error: 'Invalid email or password' });
  });

  it('spends comparable time on an unknown e-mail and on a wrong password (argon2id either way)', async () => {
    const user = await agentUserAtServiceCost();
    const time = async (email: string) => {
      const started = process.hrtime.bigint();
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong password!' }, remoteAddress: `10.9.${Math.floor(Math.random() * 200)}.1` });
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(user.email));
      unknown.push(await time(`ghost${i}@example.test`));
    }
    const ratio = median(known) / median(unknown);
    // Both paths run one argon2id verification; a missing hash check would make the unknown path ~100x faster.
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });

  it('keeps Unicode passwords as given, without truncation', async () => {
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const password = `Pässwörd-ñ-${'x'.repeat(100)}-終`;
    await t.db.updateTable('users').set({ password_hash: await hashPassword(password) }).where('id', '=', user.id).execute();
    await expect(login(t.app, user.email, password)).resolves.toMatch(/^[0-9a-f]{64}$/);
    const truncated = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: password.slice(0, 72) } });
    expect(truncated.statusCode).toBe(401);
  });

  it('stores passwords as argon2id with m >= 19 MiB, t >= 2, p = 1', async () => {
    const user = await agentUserAtServiceCost();
    const row = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(row.password_hash);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(19_456);
    expect(Number(match![2])).toBeGreaterThanOrEqual(2);
    expect(Number(match![3])).toBe(1);
  });

  it('refuses a disabled account', async () => {
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id, status: 'disabled' });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().success).toBe(false);
  });

  it('names a missing parameter', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: email' });
  });

  it('records auth.login and auth.login_failed in the activity log', async () => {
    const user = await agentUser();
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'wrong-password' } });
    await login(t.app, user.email);
    const rows = await t.db.selectFrom('activity_log').select(['action', 'user_id', 'ip_address', 'created_at']).where('user_id', '=', user.id).orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['auth.login_failed', 'auth.login']);
    expect(rows[1]!.ip_address).toBe('127.0.0.1');
  });
});

describe('POST /api/security/mobile-auth and DELETE', () => {
  it('issues a 64-hex token valid up to one year without revoking the login token', async () => {
    const user = await agentUser();
    const loginToken = await login(t.app, user.email);
    const res = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(typeof body.message).toBe('string');
    expect(body.data.token).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(body.data.expires_at).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(366 * DAY * 1000);
    expect((await me(loginToken)).statusCode).toBe(200);
    expect((await me(body.data.token)).statusCode).toBe(200);
    t.clock.advance(365 * DAY + 1);
    expect((await me(body.data.token)).statusCode).toBe(401);
  });

  it('DELETE revokes the bearer token of the request (CSRF required), and only it', async () => {
    const user = await agentUser();
    const loginToken = await login(t.app, user.email);
    const mobile = (await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } })).json().data.token as string;
    const noCsrf = await t.app.inject({ method: 'DELETE', url: '/api/security/mobile-auth', headers: { authorization: `Bearer ${mobile}` } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    const res = await new Client(t.app, mobile).delete('/api/security/mobile-auth');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    expect((await me(mobile)).statusCode).toBe(401);
    expect((await me(loginToken)).statusCode).toBe(200);
  });

  it('DELETE needs a bearer token: none gives 401', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/security/mobile-auth' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: 'Unauthorized. Valid Bearer token required.' });
  });

  it('a revoked token cannot fetch a CSRF token either', async () => {
    const user = await agentUser();
    const token = await login(t.app, user.email);
    await new Client(t.app, token).post('/api/auth/logout');
    await expect(csrf(t.app, token)).rejects.toThrow(/401/);
  });
});

describe('credentials and malformed tokens', () => {
  it.each([
    ['no header', undefined, 'Authentication required. Please log in.'],
    ['a malformed bearer token', 'Bearer abc', 'Unauthorized. Valid Bearer token required.'],
    ['an unknown bearer token', `Bearer ${'a'.repeat(64)}`, 'Unauthorized. Valid Bearer token required.'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Unauthorized. Valid Bearer token required.'],
  ])('%s gives 401 with the spec message', async (_label, header, message) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: header ? { authorization: header } : {} });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: message });
  });
});
