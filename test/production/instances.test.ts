/**
 * docs/operations.md: two Caretaker processes on one PostgreSQL database and one Redis share sessions,
 * CSRF tokens, revocation and rate-limit counters.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, type CaretakerProcess, type ProcessWorld } from '../helpers/process.ts';
import { skipWithout } from '../helpers/skip.ts';

const RATE_MAX = 10;

describe.skipIf(skipWithout(process.env.DATABASE_URL && process.env.REDIS_URL, 'two instances need PostgreSQL and Redis (set DATABASE_URL and REDIS_URL; CI\'s second run does): several processes cannot share PGlite or in-process counters'))('two instances on PostgreSQL and Redis', () => { // needs PostgreSQL (several processes cannot share PGlite) and Redis (shared counters); CI's second run sets both
  let world: ProcessWorld;
  let a: CaretakerProcess;
  let b: CaretakerProcess;

  beforeAll(async () => {
    world = await createProcessWorld('postgres');
    const env = {
      ...world.env,
      REDIS_URL: process.env.REDIS_URL!,
      CARETAKER_REDIS_PREFIX: `caretaker-proc:${randomBytes(6).toString('hex')}:`,
      CARETAKER_RATE_LIMIT_IP_MAX: String(RATE_MAX),
    };
    [a, b] = await Promise.all([startCaretaker(env), startCaretaker(env)]);
    await Promise.all([a.waitReady(), b.waitReady()]);
  }, 90_000);

  afterAll(async () => {
    await stopAllProcesses();
    await world?.drop();
  });

  it('a login on A works on B, by bearer token and by session cookie', async () => {
    const { token, cookie } = await httpLogin(a.url, world.admin.email, world.admin.password);
    const byToken = await fetch(`${b.url}/api/jobs/manage`, { headers: { authorization: `Bearer ${token}` } });
    expect(byToken.status).toBe(200);
    const bySession = await fetch(`${b.url}/api/auth/me`, { headers: { cookie } });
    expect(bySession.status).toBe(200);
    expect(((await bySession.json()) as { data: { email: string } }).data.email).toBe(world.admin.email);
  });

  it('a CSRF token fetched on A is consumed on B, and its reuse on A is refused', async () => {
    const { token } = await httpLogin(b.url, world.admin.email, world.admin.password);
    const csrf = await httpCsrf(a.url, token);
    const post = (base: string) =>
      fetch(`${base}/api/jobs/manage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ title: 'Leaking tap', priority: 3 }),
      });
    expect((await post(b.url)).status).toBe(201);
    const again = await post(a.url);
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ success: false, error: 'Invalid or missing CSRF token' });
  });

  it('a token revoked on one instance is refused by the other at once', async () => {
    const issued = await fetch(`${a.url}/api/security/mobile-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: world.admin.email, password: world.admin.password }),
    });
    expect(issued.status).toBe(200);
    const mobile = ((await issued.json()) as { data: { token: string } }).data.token;
    expect((await fetch(`${b.url}/api/jobs/manage`, { headers: { authorization: `Bearer ${mobile}` } })).status).toBe(200);
    const csrf = await httpCsrf(b.url, mobile);
    const revoked = await fetch(`${b.url}/api/security/mobile-auth`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${mobile}`, 'content-type': 'application/json' },
      body: JSON.stringify({ csrf_token: csrf }),
    });
    expect(revoked.status).toBe(200);
    const refused = await fetch(`${a.url}/api/jobs/manage`, { headers: { authorization: `Bearer ${mobile}` } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ success: false, error: 'Unauthorized. Valid Bearer token required.' });
  });

  it('a token that A has just looked up (and keeps for a few seconds) is refused by A at once after B revokes it', async () => {
    const issued = await fetch(`${a.url}/api/security/mobile-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: world.admin.email, password: world.admin.password }),
    });
    const mobile = ((await issued.json()) as { data: { token: string } }).data.token;
    // Twice on A: the second answer comes from A's cached lookup.
    for (let i = 0; i < 2; i++) expect((await fetch(`${a.url}/api/jobs/manage`, { headers: { authorization: `Bearer ${mobile}` } })).status).toBe(200);
    const csrf = await httpCsrf(b.url, mobile);
    const revoked = await fetch(`${b.url}/api/security/mobile-auth`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${mobile}`, 'content-type': 'application/json' },
      body: JSON.stringify({ csrf_token: csrf }),
    });
    expect(revoked.status).toBe(200);
    expect((await fetch(`${a.url}/api/jobs/manage`, { headers: { authorization: `Bearer ${mobile}` } })).status).toBe(401);
  });

  it('a session logged out on B is refused on A, and so is the bearer token of the same login', async () => {
    const { cookie, token } = await httpLogin(a.url, world.admin.email, world.admin.password);
    const csrfRes = await fetch(`${a.url}/api/security/csrf-token`, { headers: { cookie } });
    const csrf = ((await csrfRes.json()) as { data: { token: string } }).data.token;
    const out = await fetch(`${b.url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ csrf_token: csrf }),
    });
    expect(out.status, await out.clone().text()).toBe(200);
    expect((await fetch(`${a.url}/api/auth/me`, { headers: { cookie } })).status).toBe(401);
    // A logout ends the whole login (docs/security.md "Logout"): the bearer token it issued too.
    expect((await fetch(`${a.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('the per-IP rate limit counts the requests to both instances', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < RATE_MAX + 1; i++) {
      const res = await fetch(`${(i % 2 === 0 ? a : b).url}/livez`);
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(statuses.slice(0, RATE_MAX)).toEqual(Array(RATE_MAX).fill(200));
    expect(statuses[RATE_MAX]).toBe(429);
    expect(remaining.slice(0, RATE_MAX)).toEqual(Array.from({ length: RATE_MAX }, (_, i) => String(RATE_MAX - 1 - i)));
    // Both instances now refuse.
    expect((await fetch(`${a.url}/livez`)).status).toBe(429);
    expect((await fetch(`${b.url}/livez`)).status).toBe(429);
  });
});

describe('serve --workers', () => {
  afterAll(async () => stopAllProcesses());

  it('refuses --workers above 1 without DATABASE_URL, with a clear message', async () => {
    const proc = await startCaretaker({ CARETAKER_DATA_DIR: '/nonexistent-caretaker-dir' }, ['--workers', '2']);
    const exit = await proc.waitExit(30_000);
    expect(exit.code).toBe(2);
    expect(proc.log).toContain('--workers above 1 needs PostgreSQL: set DATABASE_URL');
  });

  it.skipIf(skipWithout(process.env.DATABASE_URL, 'serve --workers N needs PostgreSQL (set DATABASE_URL): PGlite is one process'))('runs N workers on one port, replaces a crashed worker and stops them all on SIGTERM', async () => { // needs PostgreSQL: PGlite is one process
    const world = await createProcessWorld('postgres');
    try {
      const proc = await startCaretaker({ ...world.env, CARETAKER_SHUTDOWN_TIMEOUT_S: '5' }, ['--workers', '2']);
      await proc.waitReady();
      const serving = () => proc.json().filter((l) => l.msg === 'Caretaker is serving').map((l) => l.pid as number);
      await expect.poll(() => serving().length, { timeout: 30_000 }).toBe(2);
      const [first] = serving();
      process.kill(first!, 'SIGKILL');
      await expect.poll(() => proc.json().some((l) => l.msg === 'worker died; starting a new one'), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => serving().length, { timeout: 30_000 }).toBe(3);
      const res = await fetch(`${proc.url}/readyz`);
      expect(res.status).toBe(200);
      proc.signal('SIGTERM');
      const exit = await proc.waitExit(15_000);
      expect(exit.code).toBe(0);
      expect(proc.json().some((l) => l.msg === 'all workers stopped')).toBe(true);
    } finally {
      await stopAllProcesses();
      await world.drop();
    }
  });
});
