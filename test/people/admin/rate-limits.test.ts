import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimitRules } from '../../../src/core/rate-limit-rules.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { activity } from '../../helpers/roles-branches.ts';

describe('rate-limit settings per route', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const row = (route: string) => t.db.selectFrom('rate_limit_overrides').selectAll().where('route', '=', route).executeTakeFirst();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('GET lists the effective settings of every API route with the configured defaults', async () => {
    const res = await w.sysops.client.get('/api/admin/rate-limits?limit=200');
    expect(res.statusCode).toBe(200);
    // More routes than one page holds: read every page, and the pages add up to the count.
    const routes = res.json().data as Array<{ route: string }>;
    while (routes.length < res.json().count) {
      const next = await w.sysops.client.get(`/api/admin/rate-limits?limit=200&offset=${routes.length}`);
      expect(next.statusCode).toBe(200);
      const page = next.json().data as Array<{ route: string }>;
      expect(page.length).toBeGreaterThan(0);
      routes.push(...page);
    }
    expect(res.json().count).toBe(routes.length);
    expect(routes.some((r) => r.route.startsWith('HEAD '))).toBe(false);
    const jobs = routes.find((r) => r.route === 'GET /api/jobs/manage');
    expect(jobs).toEqual({
      route: 'GET /api/jobs/manage',
      method: 'GET',
      path: '/api/jobs/manage',
      ip_max: 100000,
      account_max: 100000,
      window_s: t.config.rateLimit.windowS,
      overridden: false,
      defaults: { ip_max: 100000, account_max: 100000, window_s: t.config.rateLimit.windowS },
    });
    const q = await w.sysops.client.get('/api/admin/rate-limits?q=/api/admin/roles');
    expect(q.json().data.map((r: { route: string }) => r.route)).toEqual([
      'GET /api/admin/roles',
      'POST /api/admin/roles',
      'DELETE /api/admin/roles/:id',
      'PUT /api/admin/roles/:id',
      'PUT /api/admin/roles/:id/permissions',
    ]);
  });

  it('an override of ip_max takes effect at once: the third request gets 429 with the spec\'s headers and body', async () => {
    const set = await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/jobs/manage', ip_max: 2 });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ route: 'GET /api/jobs/manage', ip_max: 2, account_max: 100000, overridden: true });
    expect(await row('GET /api/jobs/manage')).toMatchObject({ ip_max: 2, account_max: null, window_s: null, updated_by_user_id: w.sysops.user.id });
    expect((await activity(t.db, 'rate_limit.update')).at(-1)!.details).toEqual({ route: 'GET /api/jobs/manage', ip_max: 2, account_max: null, window_s: null });

    const first = await w.agentA1.client.get('/api/jobs/manage');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect((await w.adminA.client.get('/api/jobs/manage')).statusCode).toBe(200);
    const third = await w.adminB.client.get('/api/jobs/manage');
    expect(third.statusCode).toBe(429);
    const body = third.json();
    expect(body).toMatchObject({ success: false, error: 'Rate limit exceeded', limit: 2 });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(t.config.rateLimit.windowS);
    expect(typeof body.message).toBe('string');
    expect(third.headers['retry-after']).toBe(String(body.retry_after));
    expect(third.headers['x-ratelimit-limit']).toBe('2');
    expect(third.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(third.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
    // Other routes keep their defaults.
    expect((await w.agentA1.client.get('/api/admin/branches')).statusCode).toBe(200);
  });

  it('reset returns the route to its defaults', async () => {
    const res = await w.sysops.client.put('/api/admin/rate-limits', { route: 'get /api/jobs/manage', reset: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ip_max: 100000, overridden: false });
    expect(await row('GET /api/jobs/manage')).toBeUndefined();
    expect((await activity(t.db, 'rate_limit.reset')).length).toBe(1);
    expect((await w.adminB.client.get('/api/jobs/manage')).statusCode).toBe(200);
  });

  it('an override of account_max counts per account', async () => {
    await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/admin/permissions', account_max: 1, window_s: 600 });
    expect((await w.adminA.client.get('/api/admin/permissions')).statusCode).toBe(200);
    const second = await w.adminA.client.get('/api/admin/permissions');
    expect(second.statusCode).toBe(429);
    expect(second.json().limit).toBe(1);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(1);
    expect((await w.adminB.client.get('/api/admin/permissions')).statusCode).toBe(200);
    await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/admin/permissions', reset: true });
  });

  it('another instance sees an override once its 5-second copy expires', async () => {
    const start = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(start);
    try {
      const other = new RateLimitRules(t.db);
      expect(await other.lookup('GET /api/agents')).toBeUndefined();
      await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/agents', ip_max: 7 });
      now.mockReturnValue(start + 4_999);
      expect(await other.lookup('GET /api/agents')).toBeUndefined();
      now.mockReturnValue(start + 5_000);
      // The expired copy starts a reload in the background; the next lookups see the override.
      await vi.waitFor(async () => expect(await other.lookup('GET /api/agents')).toEqual({ ipMax: 7 }));
    } finally {
      now.mockRestore();
    }
    await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/agents', reset: true });
  });

  it('rejects an unknown route, no values, values out of range; writes nothing', async () => {
    const unknown = await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/nowhere', ip_max: 5 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('Invalid or missing required parameter: route');
    const empty = await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/agents' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Invalid or missing required parameter: ip_max');
    for (const body of [{ ip_max: 0 }, { account_max: 2_000_000 }, { window_s: 86_401 }, { ip_max: '5' }]) {
      expect((await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/agents', ...body })).statusCode).toBe(400);
    }
    expect(await t.db.selectFrom('rate_limit_overrides').selectAll().execute()).toEqual([]);
  });

  it('is for SysOps only, and writes need a CSRF token', async () => {
    expect((await w.adminA.client.get('/api/admin/rate-limits')).statusCode).toBe(403);
    expect((await w.adminA.client.put('/api/admin/rate-limits', { route: 'GET /api/agents', ip_max: 1 })).statusCode).toBe(403);
    const noCsrf = await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/agents', ip_max: 1 }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    const other = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await other.client.get('/api/admin/rate-limits')).statusCode).toBe(403);
    expect(await t.db.selectFrom('rate_limit_overrides').selectAll().execute()).toEqual([]);
  });
});
