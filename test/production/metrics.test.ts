import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../helpers/app.ts';

describe('GET /api/system/metrics (Prometheus)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('gives SysOps the text format with request counts by route template, latency and process metrics', async () => {
    await w.agentA1.client.get('/api/jobs/manage?limit=5');
    await w.agentA1.client.get('/api/jobs/manage?limit=7');
    const res = await w.sysops.client.get('/api/system/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(/caretaker_http_requests_total\{method="GET",route="\/api\/jobs\/manage",status="200"\} 2/);
    expect(text).toContain('caretaker_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/jobs/manage",status="200"}');
    expect(text).toContain('caretaker_process_cpu_user_seconds_total');
    expect(text).toContain('caretaker_db_pool_max');
    if (t.deps.engine === 'postgres') expect(text).toMatch(/caretaker_db_pool_connections\{state="total"\} \d+/);
    // The read-only pool of the overlapped reads (PostgreSQL without a transaction pooler).
    if (t.deps.engine === 'postgres') expect(text).toMatch(/caretaker_db_read_pool_connections\{state="total"\} \d+/);
    expect(text).not.toContain('limit=5');
  });

  it('lets a platform scraper role made by SysOps scrape, not an agency API account', async () => {
    const api = await userClient(t, { role: 'api', agencyId: w.agencyA.id });
    expect((await api.client.get('/api/system/metrics')).statusCode).toBe(403);
    const role = await w.sysops.client.post('/api/admin/roles', { name: 'Metrics scraper', level: 30, permissions: ['api.system.metrics.view'] });
    expect(role.statusCode, role.body).toBe(201);
    const scraper = await userClient(t, { role: role.json().data.code as string });
    expect((await scraper.client.get('/api/system/metrics')).statusCode).toBe(200);
  });

  it('counts rate-limit refusals by route', async () => {
    const small = await buildTestApp({ CARETAKER_RATE_LIMIT_IP_MAX: '2' });
    try {
      const ops = await userClient(small, { role: 'sysops' });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await small.app.inject({ method: 'GET', url: '/livez' })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      const res = await ops.client.get('/api/system/metrics');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('caretaker_rate_limit_refusals_total{route="/livez"} 1');
    } finally {
      await small.close();
    }
  });

  it('refuses callers without the key (403) and anonymous callers (401), in the JSON envelope', async () => {
    const res = await w.agentA1.client.get('/api/system/metrics');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: 'You do not have permission to perform this action' });
    const anon = await t.app.inject({ method: 'GET', url: '/api/system/metrics' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().success).toBe(false);
  });
});
