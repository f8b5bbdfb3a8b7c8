/**
 * Operator views of background work (docs/events.md): GET /api/system/queue and
 * GET /api/system/events for SysOps (403 for agency roles, 400 for bad paging), and the queue
 * gauges in the Prometheus metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../src/events/index.ts';
import { startBackgroundWorker } from '../../src/events/worker.ts';
import { buildTestApp, standardWorld, type TestApp } from '../helpers/app.ts';

describe('queue and events endpoints', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    await t.db.transaction().execute(async (trx) => {
      await emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: w.agencyA.id, payload: { user_id: 1, role_code: 'agent' } });
      await emitEvent(trx, t.clock.now(), { name: 'tenant.erased', agencyId: w.agencyB.id, payload: { tenant_id: 7 } });
      await emitEvent(trx, t.clock.now(), { name: 'user.created', agencyId: null, payload: { user_id: 2, role_code: 'sysops' } });
    });
  }, 600_000);
  afterAll(async () => {
    await t.close();
  });

  it('lists outbox events newest first, filtered by name and paginated, for SysOps only', async () => {
    const all = await w.sysops.client.get('/api/system/events?limit=2');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.count).toBe(3);
    expect(body.data.map((e: { name: string }) => e.name)).toEqual(['user.created', 'tenant.erased']);
    expect(body.data[1]).toMatchObject({ version: 1, agency_uuid: w.agencyB.uuid, payload: { tenant_id: 7 }, published_at: null });
    const named = (await w.sysops.client.get('/api/system/events?name=user.created&offset=1')).json();
    expect(named.count).toBe(2);
    expect(named.data).toHaveLength(1);
    expect(named.data[0].payload).toEqual({ user_id: 1, role_code: 'agent' });
    expect((await w.sysops.client.get('/api/system/events?limit=0')).statusCode).toBe(400);
    expect((await w.sysops.client.get('/api/system/events?offset=-1')).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/system/events')).statusCode).toBe(403);
    expect((await w.agentA1.client.get('/api/system/queue')).statusCode).toBe(403);
  });

  it('reports queue figures and relay lag, and exports them as Prometheus gauges', async () => {
    const before = (await w.sysops.client.get('/api/system/queue')).json();
    expect(before.data.outbox.unpublished).toBe(3);
    const handler = { name: 'platform.noop', events: ['tenant.erased'] as const, handle: async () => {} };
    const worker = await startBackgroundWorker(t.deps, t.database, [handler], [], { info: () => {}, error: () => {} });
    try {
      await worker.relayOnce();
      const res = await w.sysops.client.get('/api/system/queue');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.outbox).toEqual({ unpublished: 0, lag_s: 0 });
      const q = data.queues.find((x: { name: string }) => x.name === 'handler.platform.noop');
      expect(q).toBeDefined();
      expect(q.counts.created + q.counts.active + q.counts.completed + q.counts.retry).toBe(1);
      const metrics = await w.sysops.client.get('/api/system/metrics');
      expect(metrics.body).toContain('caretaker_event_lag_seconds 0');
      expect(metrics.body).toMatch(/caretaker_queue_depth\{queue="handler\.platform\.noop"\} \d/);
      expect(metrics.body).toContain('caretaker_queue_failed{queue="handler.platform.noop"} 0');
    } finally {
      await worker.stop(5_000);
    }
  });
});
