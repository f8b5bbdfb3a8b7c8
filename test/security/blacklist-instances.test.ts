/**
 * docs/security.md "Blacklist" and "Logout", across instances: two apps on one PostgreSQL database
 * and one Redis. A block or an unblock made on A is enforced by B within a second although B holds
 * a fresh copy of the blacklist (it hears the change through Redis pub/sub), and a logout on B ends
 * the login on A at once. Also: a guard whose subscription fails logs it and reports it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.ts';
import type { AppDeps } from '../../src/app-deps.ts';
import { loadConfig } from '../../src/config/config.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { BlacklistGuard } from '../../src/modules/platform/security/index.ts';
import { openRedis, openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { Client, createUser, login, TEST_PASSWORD } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { skipWithout } from '../helpers/skip.ts';

const BLOCKED_IP = '203.0.113.50';

/** Polls `probe` until it returns true; the milliseconds it took, or Infinity past `limitMs`. */
async function within(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start <= limitMs) {
    if (await probe()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 25));
  }
  return Number.POSITIVE_INFINITY;
}

describe.skipIf(skipWithout(process.env.DATABASE_URL && process.env.REDIS_URL, 'two instances need PostgreSQL and Redis (set DATABASE_URL and REDIS_URL; CI\'s second run does)'))('two instances on PostgreSQL and Redis', () => {
  let database: TestDatabase;
  const runtimes: Runtime[] = [];
  let a: FastifyInstance;
  let b: FastifyInstance;
  let prefix: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = `caretaker-test:${randomBytes(6).toString('hex')}:`;
    const config = loadConfig({
      LOG_LEVEL: 'silent', CARETAKER_COOKIE_SECURE: 'true', CARETAKER_RATE_LIMIT_IP_MAX: '100000', CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '100000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
      DATABASE_URL: database.databaseUrl!, REDIS_URL: process.env.REDIS_URL!, CARETAKER_REDIS_PREFIX: prefix,
    });
    const clock = new ManualClock(new Date('2026-11-21T09:00:00Z'));
    const open = async () => {
      const rt = await openRuntime(config, {
        clock, dataDir: 'memory://', redisPrefix: prefix,
        filesDir: await mkdtemp(path.join(tmpdir(), 'caretaker-files-')), mailDir: await mkdtemp(path.join(tmpdir(), 'caretaker-mail-')),
      });
      runtimes.push(rt);
      const app = await buildApp(rt.deps, { logger: false });
      await app.ready();
      return app;
    };
    a = await open();
    b = await open();
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const rt of runtimes) await rt.close();
    await database?.drop();
  });

  const from = (app: FastifyInstance, ip: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: ip, headers });

  it('both guards are subscribed (PUBSUB NUMSUB 2) and both instances are ready', async () => {
    const [, count] = (await runtimes[0]!.deps.redis!.pubsub('NUMSUB', `${prefix}blacklist`)) as [string, number];
    expect(count).toBe(2);
    for (const app of [a, b]) expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('an address blocked and unblocked on A is refused and served again by B within a second', async () => {
    const sysops = await createUser(runtimes[0]!.deps.db, { role: 'sysops' });
    const admin = new Client(a, await login(a, sysops.email));
    expect((await from(b, BLOCKED_IP)).statusCode).toBe(401); // B has loaded its copy: not blocked
    const added = await admin.post('/api/security/blacklist', { kind: 'ip', value: BLOCKED_IP, reason: 'scanner' });
    expect(added.statusCode, added.body).toBe(201);
    expect(await within(1_000, async () => (await from(b, BLOCKED_IP)).statusCode === 403)).toBeLessThanOrEqual(1_000);
    expect((await admin.delete(`/api/security/blacklist/${added.json().data.uuid}`, {})).statusCode).toBe(200);
    expect(await within(1_000, async () => (await from(b, BLOCKED_IP)).statusCode === 401)).toBeLessThanOrEqual(1_000);
  });

  it('an account blocked on A is refused by B within a second', async () => {
    const sysops = await createUser(runtimes[0]!.deps.db, { role: 'sysops' });
    const victim = await createUser(runtimes[0]!.deps.db, { role: 'sysops' });
    const victimToken = await login(b, victim.email);
    const bearer = { authorization: `Bearer ${victimToken}` };
    expect((await from(b, '192.0.2.10', bearer)).statusCode).toBe(200);
    const admin = new Client(a, await login(a, sysops.email));
    expect((await admin.post('/api/security/blacklist', { kind: 'account', user_uuid: victim.uuid, reason: 'left' })).statusCode).toBe(201);
    // The block ends the account's sessions (docs/security.md promise 38), so B refuses the token
    // it served a moment ago (401), and B's copy of the blacklist refuses a new sign-in (403).
    expect(await within(1_000, async () => (await from(b, '192.0.2.10', bearer)).statusCode === 401)).toBeLessThanOrEqual(1_000);
    const signIn = () => b.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '192.0.2.10', payload: { email: victim.email, password: TEST_PASSWORD } });
    expect(await within(1_000, async () => (await signIn()).statusCode === 403)).toBeLessThanOrEqual(1_000);
  });

  it('a logout with the session cookie on B ends the bearer token of the same login on A at once', async () => {
    const user = await createUser(runtimes[0]!.deps.db, { role: 'sysops' });
    const res = await a.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
    const token = res.json().token as string;
    const cookie = res.cookies.find((c) => c.name === 'caretaker_session')!.value;
    expect((await from(a, '192.0.2.11', { authorization: `Bearer ${token}` })).statusCode).toBe(200); // A caches the lookup
    const csrfToken = (await b.inject({ method: 'GET', url: '/api/security/csrf-token', cookies: { caretaker_session: cookie } })).json().data.token as string;
    const out = await b.inject({ method: 'POST', url: '/api/auth/logout', cookies: { caretaker_session: cookie }, headers: { 'x-csrf-token': csrfToken } });
    expect(out.statusCode).toBe(200);
    expect((await from(a, '192.0.2.11', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });
});

describe('a blacklist guard whose Redis subscription fails', () => {
  it('logs the failure at error level once and reports it (readiness), then polls every second', async () => {
    const redis = await openRedis('redis://127.0.0.1:1'); // nothing listens there
    const lines: Array<{ level: string; obj: object; msg: string }> = [];
    const log = { info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }), error: (obj: object, msg: string) => lines.push({ level: 'error', obj, msg }) };
    const deps = { redis, config: loadConfig({ CARETAKER_REDIS_PREFIX: 'caretaker-test-dead:' }) } as unknown as AppDeps;
    const guard = new BlacklistGuard(deps, log);
    try {
      await guard.start();
      expect(guard.subscriptionProblem()).toMatch(/^Blacklist change feed down \(/);
      const errors = lines.filter((l) => l.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.msg).toContain('blacklist change feed down');
    } finally {
      await guard.stop();
      redis.disconnect();
    }
  });
});
