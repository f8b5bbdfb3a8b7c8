/**
 * Activity-log reads that stay fast on big logs (docs/operations.md): keyset cursors before/after and
 * the count capped at COUNT_CAP with the X-Count-Capped header.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../../src/core/activity/activity.repository.ts';
import { buildTestApp, standardWorld, type TestApp } from '../helpers/app.ts';

describe('GET /api/admin/activity-log: cursors and capped count', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    // 30 entries of agency A, one a minute, the same second for two of them (ties broken by ID).
    await sql`insert into activity_log (agency_id, user_id, user_name, action, resource_type, ip_address, created_at)
      select ${w.agencyA.id}, ${w.agentA1.user.id}, 'Paging', 'paging.test', 'job', '10.0.0.1',
        timestamptz '2026-10-01T00:00:00Z' + (least(g, 29) * interval '1 minute')
      from generate_series(1, 30) g`.execute(t.db);
  });
  afterAll(async () => t?.close());

  const page = async (query: string) => {
    const res = await w.adminA.client.get(`/api/admin/activity-log?action=paging.test&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.json() as { count: number; data: Array<{ ID: number; created_at: string }> }, headers: res.headers };
  };

  it('walks the whole log with before= and back with after=, matching offset paging', async () => {
    const all = (await page('limit=200')).body.data.map((e) => e.ID);
    expect(all).toHaveLength(30);
    const walked: number[] = [];
    let cursor: number | undefined;
    for (;;) {
      const { body } = await page(`limit=7${cursor ? `&before=${cursor}` : ''}`);
      expect(body.count).toBe(30);
      if (body.data.length === 0) break;
      walked.push(...body.data.map((e) => e.ID));
      cursor = body.data.at(-1)!.ID;
    }
    expect(walked).toEqual(all);
    const offsetPage = (await page('limit=7&offset=14')).body.data.map((e) => e.ID);
    expect(offsetPage).toEqual(all.slice(14, 21));
    const previous = (await page(`limit=7&after=${all[14]}`)).body.data.map((e) => e.ID);
    expect(previous).toEqual(all.slice(7, 14));
    const between = (await page(`limit=50&after=${all[20]}&before=${all[10]}`)).body.data.map((e) => e.ID);
    expect(between).toEqual(all.slice(11, 20));
  });

  it('returns an empty page for a cursor that names no entry, and 400 for a bad one', async () => {
    expect((await page('before=999999')).body.data).toEqual([]);
    const res = await w.adminA.client.get('/api/admin/activity-log?before=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: before' });
  });

  it('counts exactly up to the cap, then says the count is capped', async () => {
    const small = await page('limit=1');
    expect(small.headers['x-count-capped']).toBeUndefined();
    await sql`insert into activity_log (agency_id, user_id, user_name, action, resource_type, ip_address, created_at)
      select ${w.agencyB.id}, null, 'Bulk', 'bulk.test', 'job', '10.0.0.2', timestamptz '2026-09-01T00:00:00Z'
      from generate_series(1, ${COUNT_CAP + 5}) g`.execute(t.db);
    const res = await w.adminB.client.get('/api/admin/activity-log?action=bulk.test&limit=2');
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(COUNT_CAP);
    expect(res.headers['x-count-capped']).toBe('true');
    expect(res.json().data).toHaveLength(2);
    const exact = await w.adminB.client.get('/api/admin/activity-log?action=bulk.test&limit=2&from_date=2026-10-01');
    expect(exact.json().count).toBe(0);
    expect(exact.headers['x-count-capped']).toBeUndefined();
  });
});
