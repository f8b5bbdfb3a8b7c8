/**
 * GET /api/analytics/jobs: every figure against a hand count of the fixed data set (fixture.ts);
 * only the caller's jobs count; bad ranges and groupings are 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { insightWorld } from './fixture.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof insightWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await insightWorld(t);
  // j6 was scheduled twice (a second visit): not a first-time fix.
  for (const at of ['2026-11-09T13:00:00Z', '2026-11-11T09:00:00Z']) {
    await t.db.insertInto('job_status_history').values({ job_id: w.j6.id, from_status_id: 4, to_status_id: 5, by_user_id: null, note: null, created_at: new Date(at) }).execute();
  }
});
afterAll(async () => t.close());

const URL = '/api/analytics/jobs?from_date=2026-11-01&to_date=2026-11-30';

describe('GET /api/analytics/jobs', () => {
  it('computes a month of the agency exactly as the hand count (volumes, percentiles, first-time fix, cost)', async () => {
    const res = await w.adminA.client.get(`${URL}&interval=month`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(1);
    expect(body.data).toEqual([
      {
        period: '2026-11-01',
        group: { key: 'all', label: 'All jobs' },
        created: 8,
        completed: 2,
        cancelled: 1,
        time_to_assign: { median_s: 10_800, p90_s: 13_680, jobs: 2 },
        time_to_attend: { median_s: 97_200, p90_s: 100_080, jobs: 2 },
        time_to_complete: { median_s: 226_800, p90_s: 264_240, jobs: 2 },
        first_time_fix_rate: 0.5,
        cost: { jobs: 2, total_pence: 30_000, mean_pence: 15_000, median_pence: 15_000 },
      },
    ]);
  });

  it('groups by London week (from Monday) and branch', async () => {
    const res = await w.adminA.client.get(`${URL}&interval=week&group_by=branch`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data.map((r: any) => [r.period, r.group.label, r.created, r.completed, r.cancelled]);
    expect(rows).toEqual([
      ['2026-11-02', 'A2', 1, 1, 0],
      ['2026-11-09', 'A2', 1, 1, 0],
      ['2026-11-16', 'A1', 4, 0, 1],
      ['2026-11-23', 'A1', 2, 0, 0],
    ]);
    expect(res.json().count).toBe(4);
  });

  it('groups by contractor and by priority, and pages the rows', async () => {
    const byContractor = (await w.adminA.client.get(`${URL}&group_by=contractor`)).json().data;
    expect(byContractor.map((r: any) => [r.group.label, r.created, r.completed])).toEqual([
      ['Fletcher Plumbing', 4, 1], ['Other Trades', 2, 1], ['Unassigned', 2, 0],
    ]);
    const page = (await w.adminA.client.get(`${URL}&group_by=priority&limit=2&offset=1`)).json();
    expect(page.count).toBe(5);
    expect(page.data.map((r: any) => [r.group.key, r.created])).toEqual([['2', 3], ['3', 2]]);
  });

  it("counts only what the caller may open: an agent of a non-sharing branch sees its branch's jobs", async () => {
    const rows = (await w.agentA2.client.get(URL)).json().data;
    expect(rows.map((r: any) => [r.created, r.completed])).toEqual([[2, 2]]);
    const other = (await w.adminB.client.get(URL)).json().data;
    expect(other.map((r: any) => r.created)).toEqual([1]);
  });

  it('refuses contractors and tenants (403) and bad ranges or groupings (400)', async () => {
    expect((await w.contractor.client.get(URL)).statusCode).toBe(403);
    expect((await w.tenant.client.get(URL)).statusCode).toBe(403);
    const back = await w.adminA.client.get('/api/analytics/jobs?from_date=2026-11-30&to_date=2026-11-01');
    expect(back.statusCode).toBe(400);
    expect(back.json()).toMatchObject({ success: false });
    expect((await w.adminA.client.get('/api/analytics/jobs?from_date=2020-01-01&to_date=2026-11-01')).statusCode).toBe(400);
    expect((await w.adminA.client.get(`${URL}&group_by=tenant`)).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/analytics/jobs?from_date=2026-13-01&to_date=2026-11-01')).statusCode).toBe(400);
  });
});
