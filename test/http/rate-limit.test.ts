/**
 * Spec 7, 8 and docs/security.md promises 13 and 14: per-IP and per-account limits with the spec's
 * headers and 429 body; X-Forwarded-For only from trusted proxies; failed logins throttled per
 * account and per IP for a bounded time. Counters live in Redis when REDIS_URL is set.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_FILES_IP_MAX, consoleDistDir } from '../../src/http/console.ts';
import { buildTestApp, createAgency, createBranch, createUser, login, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function expect429(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, limit: number, windowS: number) {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(body).toMatchObject({ success: false, error: 'Rate limit exceeded', limit });
  expect(typeof body.message).toBe('string');
  expect(body.retry_after).toBeGreaterThanOrEqual(1);
  expect(body.retry_after).toBeLessThanOrEqual(windowS);
  expect(Number(res.headers['retry-after'])).toBe(body.retry_after);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  const reset = Number(res.headers['x-ratelimit-reset']);
  const nowS = Date.now() / 1000;
  expect(reset).toBeGreaterThan(nowS);
  expect(reset).toBeLessThanOrEqual(nowS + windowS + 1);
}

describe('per-IP limit', () => {
  it('answers 429 with the spec headers and body after the limit, and counts down before it', async () => {
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '3', CARETAKER_RATE_LIMIT_WINDOW_S: '60' });
    const get = () => t!.app.inject({ method: 'GET', url: '/livez' });
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const res = await get();
      expect(res.statusCode).toBe(200);
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expect429(await get(), 3, 60);
    // Another client address has its own counter.
    expect((await t.app.inject({ method: 'GET', url: '/livez', remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
  });

  it("the console's files count against a ceiling of their own, not the API's", async () => {
    // A first visit fetches about 80 of them (the service worker precaches the whole build): at the
    // API's limit an office behind one address had its fourth or fifth browser's files refused.
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '2', CARETAKER_RATE_LIMIT_WINDOW_S: '60' });
    const assets = readdirSync(path.join(consoleDistDir(), 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(2);
    for (const file of assets.slice(0, 5)) {
      const res = await t.app.inject({ method: 'GET', url: `/assets/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(CONSOLE_FILES_IP_MAX));
    }
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: '/sw.js' })).statusCode).toBe(200);
    // The API beside them keeps its limit.
    await t.app.inject({ method: 'GET', url: '/livez' });
    await t.app.inject({ method: 'GET', url: '/livez' });
    expect429(await t.app.inject({ method: 'GET', url: '/livez' }), 2, 60);
  });

  it('a spoofed X-Forwarded-For does not reset the count without a trusted proxy', async () => {
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '2' });
    for (let i = 0; i < 2; i++) await t.app.inject({ method: 'GET', url: '/livez', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    const res = await t.app.inject({ method: 'GET', url: '/livez', headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(res.statusCode).toBe(429);
  });

  it('X-Forwarded-For from a trusted proxy identifies the client', async () => {
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '2', CARETAKER_TRUST_PROXY: '127.0.0.1' });
    const from = (ip: string) => t!.app.inject({ method: 'GET', url: '/livez', headers: { 'x-forwarded-for': ip } });
    await from('203.0.113.1');
    await from('203.0.113.1');
    expect((await from('203.0.113.1')).statusCode).toBe(429);
    expect((await from('203.0.113.2')).statusCode).toBe(200);
    // From an untrusted peer the header is ignored.
    const untrusted = await t.app.inject({ method: 'GET', url: '/livez', remoteAddress: '192.0.2.50', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(untrusted.statusCode).toBe(200);
  });
});

describe('per-account limit', () => {
  it('counts an account across addresses', async () => {
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '3' });
    const agency = await createAgency(t.db);
    const branch = await createBranch(t.db, agency.id);
    const user = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id });
    const token = await login(t.app, user.email);
    const get = (ip: string) => t!.app.inject({ method: 'GET', url: '/api/jobs/manage', remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 3; i++) expect((await get(`10.0.0.${i + 1}`)).statusCode).toBe(200);
    expect429(await get('10.0.0.9'), 3, 60);
  });
});

describe('per-agency limit (docs/operations.md "Fairness between agencies")', () => {
  it('counts every account and route of an agency together; another agency is unaffected', async () => {
    t = await buildTestApp({ CARETAKER_RATE_LIMIT_AGENCY_MAX: '4', CARETAKER_RATE_LIMIT_WINDOW_S: '60' });
    const busy = await createAgency(t.db, 'Busy Lettings');
    const quiet = await createAgency(t.db, 'Quiet Lettings');
    const busyBranch = await createBranch(t.db, busy.id);
    const quietBranch = await createBranch(t.db, quiet.id);
    const agentOf = async (agencyId: number, branchId: number) => login(t!.app, (await createUser(t!.db, { role: 'agent', agencyId, branchId })).email);
    const [one, two, other] = [await agentOf(busy.id, busyBranch.id), await agentOf(busy.id, busyBranch.id), await agentOf(quiet.id, quietBranch.id)];
    const get = (token: string, url: string, ip: string) => t!.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
    // Two accounts, two routes, two addresses: one count for the agency.
    const answers = [await get(one, '/api/jobs/manage', '10.3.0.1'), await get(two, '/api/jobs/statuses', '10.3.0.2'), await get(one, '/api/jobs/types', '10.3.0.3'), await get(two, '/api/jobs/manage', '10.3.0.4')];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0']);
    expect429(await get(two, '/api/jobs/types', '10.3.0.9'), 4, 60);
    const unaffected = await get(other, '/api/jobs/manage', '10.3.0.1');
    expect(unaffected.statusCode).toBe(200);
    expect(unaffected.headers['x-ratelimit-remaining']).toBe('3');
  });
});

describe('failed logins', () => {
  it('are throttled per account, even from other addresses and with the right password, for a bounded time', async () => {
    t = await buildTestApp({ CARETAKER_LOGIN_ACCOUNT_FAILURES: '3', CARETAKER_LOGIN_WINDOW_S: '900' });
    const agency = await createAgency(t.db);
    const victim = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const bystander = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const attempt = (email: string, password: string, ip: string) =>
      t!.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password } });
    for (let i = 0; i < 3; i++) expect((await attempt(victim.email, 'wrong password', `10.2.0.${i}`)).statusCode).toBe(401);
    const locked = await attempt(victim.email, TEST_PASSWORD, '10.2.0.99');
    expect429(locked, 3, 900);
    expect((await attempt(bystander.email, TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(200);
    const logged = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'auth.login_throttled').execute();
    expect(logged.length).toBeGreaterThan(0);
  });

  it('are throttled per IP across accounts', async () => {
    t = await buildTestApp({ CARETAKER_LOGIN_IP_FAILURES: '3' });
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.3.0.1', payload: { email: `guess${i}@example.test`, password: 'x' } });
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.3.0.1', payload: { email: 'another@example.test', password: 'x' } });
    expect(res.statusCode).toBe(429);
  });

  it('a successful login clears the account counter', async () => {
    t = await buildTestApp({ CARETAKER_LOGIN_ACCOUNT_FAILURES: '3' });
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const attempt = (password: string) => t!.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    await attempt('wrong-1');
    await attempt('wrong-2');
    expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
    await attempt('wrong-3');
    await attempt('wrong-4');
    expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
  });
});
