/**
 * GET /api/dashboard: every figure against a hand count of the fixed data set (fixture.ts), for
 * each kind of caller; nothing outside the caller's reach is counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { insightWorld } from './fixture.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof insightWorld>>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await insightWorld(t);
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
    expect(d.open_jobs.total).toBe(6);
    expect(d.open_jobs.by_status.map((s: any) => [s.code, s.count])).toEqual([
      ['reported', 1], ['assigned', 1], ['scheduled', 3], ['completed', 1],
    ]);
    expect(d.open_jobs.by_priority).toEqual([{ priority: 1, count: 1 }, { priority: 2, count: 3 }, { priority: 3, count: 2 }]);
    expect(d.new_jobs).toEqual({ today: 1, this_week: 2 });
    expect(d.visits).toEqual({ overdue: 1, today: 1, tomorrow: 2 });
    expect(d.certificates_expiring_30d).toBe(2);
  });

  it('leaves the SLA and invoice figures absent, not zero, until their modules provide them', async () => {
    const d = await dash(w.adminA.client);
    expect(d).not.toHaveProperty('sla');
    expect(d).not.toHaveProperty('unpaid_invoices');
  });

  it("counts only a contractor's own jobs and certificates", async () => {
    const d = await dash(w.contractor.client);
    expect(d.scope).toBe('contractor');
    expect(d.open_jobs.total).toBe(4);
    expect(d.open_jobs.by_status.map((s: any) => [s.code, s.count])).toEqual([['scheduled', 3], ['completed', 1]]);
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
    expect(a1.open_jobs.total).toBe(6);
    const a2 = await dash(w.agentA2.client);
    expect(a2.open_jobs.total).toBe(1);
    expect(a2.visits).toEqual({ overdue: 0, today: 0, tomorrow: 0 });
  });

  it('keeps agencies apart and lets SysOps count everything', async () => {
    const b = await dash(w.adminB.client);
    expect(b.open_jobs.total).toBe(1);
    expect(b.certificates_expiring_30d).toBe(0);
    const all = await dash(w.sysops.client);
    expect(all.scope).toBe('all');
    expect(all.open_jobs.total).toBe(7);
    expect(all.certificates_expiring_30d).toBe(2);
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });
});
