/**
 * GET /api/dashboard: every figure against a hand count of the fixed data set (fixture.ts), for
 * each kind of caller; nothing outside the caller's reach is counted. SLA and invoice figures over
 * the clocks and invoices of fixture-sla-money.ts, also checked against the jobs list's sla_state
 * and the invoices list's totals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { insightWorld } from './fixture.ts';
import { addSlaAndMoney } from './fixture-sla-money.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof insightWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await insightWorld(t);
  await addSlaAndMoney(t.db, w);
});
afterAll(async () => t.close());

async function dash(client: { get(url: string): Promise<{ statusCode: number; json(): any }> }) {
  const res = await client.get('/api/dashboard');
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe('GET /api/dashboard', () => {
  it('counts the agency admin figures exactly as a hand count of the agency jobs', async () => {
    const d = await dash(w.adminA.client);
    expect(d.scope).toBe('agency');
    expect(d.today).toBe('2026-11-24');
    // j5 is Completed: its work is done, so it is not an open job (docs/insight.md "Dashboard").
    expect(d.open_jobs.total).toBe(5);
    expect(d.open_jobs.by_status.map((s: any) => [s.code, s.count])).toEqual([
      ['reported', 1], ['assigned', 1], ['scheduled', 3],
    ]);
    expect(d.open_jobs.by_priority).toEqual([{ priority: 1, count: 1 }, { priority: 2, count: 2 }, { priority: 3, count: 2 }]);
    expect(d.new_jobs).toEqual({ today: 1, this_week: 2 });
    expect(d.visits).toEqual({ overdue: 1, today: 1, tomorrow: 2 });
    expect(d.certificates_expiring_30d).toBe(2);
  });

  it('counts open jobs at risk and breached from the stored SLA clocks, each job once', async () => {
    const d = await dash(w.adminA.client);
    // breached: job, j2 (j6 breached too but is closed); at risk: j1, j4, j5 (j2 is breached first)
    expect(d.sla).toEqual({ at_risk: 3, breached: 2 });
    // The same as the jobs list's sla_state over the open statuses.
    for (const state of ['at_risk', 'breached'] as const) {
      const rows = (await w.adminA.client.get(`/api/jobs/manage?sla_state=${state}&limit=200`)).json().data as Array<{ status: string }>;
      expect(rows.filter((r) => r.status !== 'Closed' && r.status !== 'Cancelled')).toHaveLength(d.sla[state]);
    }
  });

  it('counts only the SLA figures within reach: branch, contractor, agency, SysOps; none for tenants', async () => {
    expect((await dash(w.agentA1.client)).sla).toEqual({ at_risk: 3, breached: 2 });
    expect((await dash(w.agentA2.client)).sla).toEqual({ at_risk: 1, breached: 0 });
    expect((await dash(w.contractor.client)).sla).toEqual({ at_risk: 1, breached: 2 });
    expect((await dash(w.otherContractor.client)).sla).toEqual({ at_risk: 1, breached: 0 });
    expect((await dash(w.adminB.client)).sla).toEqual({ at_risk: 0, breached: 1 });
    expect((await dash(w.sysops.client)).sla).toEqual({ at_risk: 3, breached: 3 });
    expect(await dash(w.tenant.client)).not.toHaveProperty('sla');
  });

  it('totals the unpaid invoices (issued, part paid, overdue; not drafts nor credit notes) as the invoices list does', async () => {
    const d = await dash(w.adminA.client);
    expect(d.unpaid_invoices).toEqual({ count: 4, total_pence: 33_500, overdue_count: 2, overdue_pence: 7_500 });
    const totals = (await w.adminA.client.get('/api/invoices?kind=invoice')).json().totals as Record<string, { count: number; outstanding_pence: number }>;
    const unpaid = ['issued', 'part_paid', 'overdue'].map((s) => totals[s] ?? { count: 0, outstanding_pence: 0 });
    expect(unpaid.reduce((n, t) => n + t.count, 0)).toBe(d.unpaid_invoices.count);
    expect(unpaid.reduce((n, t) => n + t.outstanding_pence, 0)).toBe(d.unpaid_invoices.total_pence);
  });

  it('totals unpaid invoices within reach: a branch, a contractor its own, another agency never; none for tenants', async () => {
    expect((await dash(w.agentA1.client)).unpaid_invoices).toEqual({ count: 4, total_pence: 33_500, overdue_count: 2, overdue_pence: 7_500 });
    expect((await dash(w.agentA2.client)).unpaid_invoices).toEqual({ count: 3, total_pence: 21_500, overdue_count: 2, overdue_pence: 7_500 });
    expect((await dash(w.contractor.client)).unpaid_invoices).toEqual({ count: 3, total_pence: 28_500, overdue_count: 1, overdue_pence: 2_500 });
    expect((await dash(w.otherContractor.client)).unpaid_invoices).toEqual({ count: 1, total_pence: 5_000, overdue_count: 1, overdue_pence: 5_000 });
    expect((await dash(w.adminB.client)).unpaid_invoices).toEqual({ count: 1, total_pence: 50_000, overdue_count: 0, overdue_pence: 0 });
    expect((await dash(w.sysops.client)).unpaid_invoices).toEqual({ count: 5, total_pence: 83_500, overdue_count: 2, overdue_pence: 7_500 });
    expect(await dash(w.tenant.client)).not.toHaveProperty('unpaid_invoices');
  });

  it("counts only a contractor's own jobs and certificates", async () => {
    const d = await dash(w.contractor.client);
    expect(d.scope).toBe('contractor');
    expect(d.open_jobs.total).toBe(3);
    expect(d.open_jobs.by_status.map((s: any) => [s.code, s.count])).toEqual([['scheduled', 3]]);
    expect(d.new_jobs).toEqual({ today: 0, this_week: 1 });
    expect(d.visits).toEqual({ overdue: 1, today: 1, tomorrow: 1 });
    expect(d.certificates_expiring_30d).toBe(1);
  });

  it("counts a tenant's jobs (reported or at their address) and shows no certificates", async () => {
    const d = await dash(w.tenant.client);
    expect(d.scope).toBe('tenant');
    expect(d.open_jobs.total).toBe(5);
    expect(d.new_jobs).toEqual({ today: 1, this_week: 2 });
    expect(d).not.toHaveProperty('certificates_expiring_30d');
    const other = await dash(w.otherTenant.client);
    expect(other.open_jobs.total).toBe(0);
  });

  it('counts an agent its branch and the sharing branches, and a branch that does not share only its own', async () => {
    const a1 = await dash(w.agentA1.client);
    expect(a1.scope).toBe('branch');
    expect(a1.open_jobs.total).toBe(5);
    const a2 = await dash(w.agentA2.client);
    // Its one open job (j5) is Completed: no work left to do there.
    expect(a2.open_jobs.total).toBe(0);
    expect(a2.visits).toEqual({ overdue: 0, today: 0, tomorrow: 0 });
  });

  it('keeps agencies apart and lets SysOps count everything', async () => {
    const b = await dash(w.adminB.client);
    expect(b.open_jobs.total).toBe(1);
    expect(b.certificates_expiring_30d).toBe(0);
    const all = await dash(w.sysops.client);
    expect(all.scope).toBe('all');
    expect(all.open_jobs.total).toBe(6);
    expect(all.certificates_expiring_30d).toBe(2);
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });
});
