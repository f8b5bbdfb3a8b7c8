/**
 * Overlapped reads (src/http/pipeline.ts, docs/architecture.md "Request flow"): with Redis, a GET
 * from a token this process has looked up runs its handler while the request's rate-limit count
 * and auth-epoch read are in flight. Nothing may be answered, or written, that the ordinary order
 * (count first, handler after) would have refused.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/lib/crypto.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';

describe.skipIf(skipWithout(process.env.DATABASE_URL && process.env.REDIS_URL, 'reads overlap only the Redis round trip, and another instance\'s writes need PostgreSQL (set DATABASE_URL and REDIS_URL; CI\'s second run does)'))('overlapped reads', () => { // needs PostgreSQL and Redis: the overlap is of the Redis round trip
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  /** Another instance's writes: a connection of its own, so this process's epoch does not move with them. */
  let other: pg.Client;
  /** What another instance does after an identity write: the shared epoch moves on. */
  const bumpSharedEpoch = async () => {
    await t.deps.redis!.incr(t.deps.authEpoch.redisKey!);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    other = new pg.Client({ connectionString: t.config.databaseUrl });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await t?.close();
  });

  it('a read over its account\'s limit is answered 429 instead of its data, and the export it would have logged is not logged', async () => {
    const tenant = (await w.adminA.client.post('/api/tenants', { name: 'Ottoline Pruett', email: 'ottoline@example.test' })).json().data as { uuid: string };
    const route = 'GET /api/tenants/:uuid/gdpr-report';
    expect((await w.sysops.client.put('/api/admin/rate-limits', { route, account_max: 2, window_s: 600 })).statusCode).toBe(200);
    const exports = async () => (await t.db.selectFrom('activity_log').select('id').where('action', '=', 'tenant.gdpr_export').execute()).length;

    const url = `/api/tenants/${tenant.uuid}/gdpr-report`;
    // The token is looked up already (the writes above), so each read overlaps its count.
    expect((await w.adminA.client.get(url)).statusCode).toBe(200);
    expect((await w.adminA.client.get(url)).statusCode).toBe(200);
    expect(await exports()).toBe(2);
    const third = await w.adminA.client.get(url);
    expect(third.statusCode, third.body).toBe(429);
    expect(third.json()).toMatchObject({ success: false, error: 'Rate limit exceeded', limit: 2 });
    expect(third.body).not.toContain('Ottoline');
    expect(third.headers['retry-after']).toBeDefined();
    // The handler ran, but its activity entry waited for the count and was never written.
    expect(await exports()).toBe(2);
    // Refused in this window: the next read waits for its count before running.
    expect((await w.adminA.client.get(url)).statusCode).toBe(429);
    expect(await exports()).toBe(2);
  });

  it('a read that fails on its own while over its limit is answered 429, and under it with its own error', async () => {
    const reader = await userClient(t, { role: 'admin', agencyId: w.agencyA.id });
    expect((await w.sysops.client.put('/api/admin/rate-limits', { route: 'GET /api/jobs/:uuid', account_max: 2, window_s: 600 })).statusCode).toBe(200);
    expect((await reader.client.get('/api/jobs/manage')).statusCode).toBe(200);
    const missing = `/api/jobs/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    for (let i = 0; i < 2; i++) {
      const own = await reader.client.get(missing);
      expect(own.statusCode).toBe(404);
      expect(own.json()).toEqual({ success: false, error: 'Job not found' });
    }
    const over = await reader.client.get(missing);
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json()).toMatchObject({ success: false, error: 'Rate limit exceeded', limit: 2 });
  });

  it('a token revoked on another instance since this process looked it up is answered 401, not the data', async () => {
    const { token, client } = await userClient(t, { role: 'admin', agencyId: w.agencyA.id });
    expect((await client.get('/api/jobs/manage')).statusCode).toBe(200);
    await other.query('update auth_tokens set revoked_at = now() where token_hash = $1', [hashToken(token)]);
    await bumpSharedEpoch();
    const refused = await client.get('/api/jobs/manage');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ success: false, error: 'Unauthorized. Valid Bearer token required.' });
  });

  it('a caller whose branch changed on another instance a moment ago is asked to retry (503), and the retry is served under the new branch', async () => {
    const agent = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    const mine = await agent.client.get('/api/auth/me');
    expect(mine.statusCode).toBe(200);
    await other.query('update users set branch_id = $1 where id = $2', [w.a2.id, agent.user.id]);
    await bumpSharedEpoch();
    const changed = await agent.client.get('/api/auth/me');
    expect(changed.statusCode).toBe(503);
    expect(changed.json()).toEqual({ success: false, error: 'Your access changed while this request ran. Please retry.' });
    expect(changed.headers['retry-after']).toBe('1');
    const retried = await agent.client.get('/api/auth/me');
    expect(retried.statusCode).toBe(200);
    expect(JSON.stringify(retried.json().data)).toContain(w.a2.uuid);
  });

  it('a change elsewhere that leaves the caller\'s access as it was is served as usual', async () => {
    expect((await w.adminB.client.get('/api/jobs/manage')).statusCode).toBe(200);
    await other.query('update users set name = name where id = $1', [w.adminA.user.id]);
    await bumpSharedEpoch();
    const res = await w.adminB.client.get('/api/jobs/manage');
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
  });
});
