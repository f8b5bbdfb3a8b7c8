import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS } from '../../../src/modules/jobs/jobs/lifecycle.ts';
import { buildTestApp, userClient, type TestApp } from '../../helpers/app.ts';
import { insertJob, jobsWorld, type JobsWorld } from './fixtures.ts';

describe('jobs visibility: who sees and moves what (list, read, history, transitions)', () => {
  let t: TestApp;
  let w: JobsWorld;
  let j: Record<'a1' | 'a2' | 'a1addr2' | 'b', { id: number; uuid: string }>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
    j = {
      a1: await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.assigned, contractor_id: w.contractor.id, tenant_id: w.tenant.id, address_id: w.address.id, estimated_cost_pence: 1000, agent_user_id: w.agentA1.user.id }),
      a2: await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a2.id, status_id: STATUS.reported }),
      a1addr2: await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.reported, address_id: w.address2.id }),
      b: await insertJob(t, { agency_id: w.agencyB.id, branch_id: w.b1.id, status_id: STATUS.reported, contractor_id: w.contractorB.id }),
    };
    await t.db.insertInto('job_status_history').values({ job_id: j.a1.id, from_status_id: 3, to_status_id: 4, by_user_id: w.agentA1.user.id, note: 'internal remark', created_at: t.clock.now() }).execute();
  });
  afterAll(async () => t?.close());

  const who = (): Record<string, { c: typeof w.agentA1; sees: string[] }> => ({
    sysops: { c: w.sysops, sees: ['a1', 'a2', 'a1addr2', 'b'] },
    adminA: { c: w.adminA, sees: ['a1', 'a2', 'a1addr2'] },
    agentA1: { c: w.agentA1, sees: ['a1', 'a2', 'a1addr2'] },
    agentA2: { c: w.agentA2, sees: ['a2'] },
    contractor: { c: w.contractorUser, sees: ['a1'] },
    contractor2: { c: w.contractor2User, sees: [] },
    tenant: { c: w.tenantUser, sees: ['a1'] },
    tenant2: { c: w.tenant2User, sees: ['a1addr2'] },
    adminB: { c: w.adminB, sees: ['b'] },
  });

  it('the list, the detail and the history show exactly the caller\'s jobs; others are 404 "Job not found"', async () => {
    for (const [name, { c, sees }] of Object.entries(who())) {
      const listed = await c.client.get('/api/jobs/manage?limit=200');
      expect(listed.statusCode, name).toBe(200);
      const uuids = new Set(listed.json().data.map((x: { uuid: string }) => x.uuid));
      for (const [key, job] of Object.entries(j)) {
        const visible = sees.includes(key);
        expect(uuids.has(job.uuid), `${name} list ${key}`).toBe(visible);
        const read = await c.client.get(`/api/jobs/${job.uuid}`);
        expect(read.statusCode, `${name} read ${key}`).toBe(visible ? 200 : 404);
        if (!visible) expect(read.json()).toEqual({ success: false, error: 'Job not found' });
        const hist = await c.client.get(`/api/jobs/${job.uuid}/history`);
        expect(hist.statusCode, `${name} history ${key}`).toBe(visible ? 200 : 404);
      }
      expect(listed.json().count, name).toBe(sees.length);
    }
  });

  it('a tenant also sees jobs it reported elsewhere', async () => {
    const reported = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a2.id, reported_by_user_id: w.tenantUser.user.id });
    expect((await w.tenantUser.client.get(`/api/jobs/${reported.uuid}`)).statusCode).toBe(200);
    expect((await w.tenant2User.client.get(`/api/jobs/${reported.uuid}`)).statusCode).toBe(404);
  });

  it('tenants get no costs, agent or history authors and notes; staff and contractors do', async () => {
    const tenantView = (await w.tenantUser.client.get(`/api/jobs/${j.a1.uuid}`)).json().data;
    expect(tenantView).not.toHaveProperty('estimated_cost_pence');
    expect(tenantView).not.toHaveProperty('agent_uuid');
    expect(tenantView.contractor_name).toBe('Acme Plumbing');
    const tenantHist = (await w.tenantUser.client.get(`/api/jobs/${j.a1.uuid}/history`)).json().data;
    expect(tenantHist[0]).toMatchObject({ from_status: 'Approved', to_status: 'Assigned', by_user_uuid: null, by_user_name: null, note: null });
    const contractorView = (await w.contractorUser.client.get(`/api/jobs/${j.a1.uuid}`)).json().data;
    expect(contractorView.estimated_cost_pence).toBe(1000);
    const staffHist = (await w.agentA1.client.get(`/api/jobs/${j.a1.uuid}/history`)).json().data;
    expect(staffHist[0]).toMatchObject({ by_user_uuid: w.agentA1.user.uuid, note: 'internal remark' });
  });

  it('sharing gives read only: an agent of another branch may not move a shared job (403); unseen jobs are 404', async () => {
    const shared = await w.agentA1.client.post(`/api/jobs/${j.a2.uuid}/transitions`, { to_status_id: STATUS.approved });
    expect(shared.statusCode).toBe(403);
    expect(shared.json().error).toBe('Jobs of a shared branch are read-only for you');
    const cases: Array<[keyof JobsWorld, keyof typeof j]> = [['agentA2', 'a1'], ['adminB', 'a1'], ['adminA', 'b'], ['contractor2User', 'a1'], ['tenant2User', 'a1']];
    for (const [user, job] of cases) {
      const c = w[user] as typeof w.agentA1;
      const res = await c.client.post(`/api/jobs/${j[job].uuid}/transitions`, { to_status_id: STATUS.cancelled });
      expect(res.statusCode, `${String(user)} -> ${job}`).toBe(404);
      expect(res.json().error).toBe('Job not found');
    }
    const rows = await t.db.selectFrom('jobs').select(['uuid', 'status_id']).execute();
    expect(rows.find((r) => r.uuid === j.a2.uuid)!.status_id).toBe(STATUS.reported);
    expect(rows.find((r) => r.uuid === j.a1.uuid)!.status_id).toBe(STATUS.assigned);
    const own = await w.agentA2.client.post(`/api/jobs/${j.a2.uuid}/transitions`, { to_status_id: STATUS.approved });
    expect(own.statusCode).toBe(200);
    const sys = await w.sysops.client.post(`/api/jobs/${j.b.uuid}/transitions`, { to_status_id: STATUS.awaitingApproval });
    expect(sys.statusCode).toBe(200);
  });

  it('403 without the permission key on every endpoint', async () => {
    const now = new Date();
    const role = await t.db.insertInto('roles').values({ name: 'Viewer', code: 'viewer-none', level: 30, agency_id: w.agencyA.id, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    expect(role.id).toBeGreaterThan(0);
    const nobody = await userClient(t, { role: 'viewer-none', agencyId: w.agencyA.id });
    const u = j.a1.uuid;
    const calls = [
      nobody.client.get('/api/jobs/manage'),
      nobody.client.post('/api/jobs/manage', { title: 'x', priority: 3 }),
      nobody.client.get(`/api/jobs/${u}`),
      nobody.client.put(`/api/jobs/${u}`, { title: 'x' }),
      nobody.client.delete(`/api/jobs/${u}`),
      nobody.client.get(`/api/jobs/${u}/history`),
      nobody.client.post(`/api/jobs/${u}/transitions`, { to_status_id: 6 }),
      nobody.client.post(`/api/jobs/${u}/assignment`, { contractor_uuid: w.contractor.uuid }),
      nobody.client.post(`/api/jobs/${u}/assignment/accept`),
      nobody.client.post(`/api/jobs/${u}/assignment/decline`),
      nobody.client.get('/api/jobs/statuses'),
      nobody.client.get('/api/jobs/types'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('You do not have permission to perform this action');
    }
  });
  it("the tenant's phone is on the detail for staff and the assigned contractor only, never on the list", async () => {
    await t.db.updateTable('tenants').set({ mobile: '07700 900123' }).where('id', '=', w.tenant.id).execute();
    const phoneOf = async (c: typeof w.agentA1) => (await c.client.get(`/api/jobs/${j.a1.uuid}`)).json().data.tenant_phone;
    expect(await phoneOf(w.agentA1)).toBe('07700 900123');
    expect(await phoneOf(w.adminA)).toBe('07700 900123');
    expect(await phoneOf(w.contractorUser)).toBe('07700 900123');
    expect(await phoneOf(w.tenantUser)).toBeUndefined();
    const listed = (await w.agentA1.client.get('/api/jobs/manage?limit=200')).json().data;
    expect(listed.every((x: object) => !('tenant_phone' in x))).toBe(true);
    // A job without a tenant: null for staff.
    expect(await (async () => (await w.adminA.client.get(`/api/jobs/${j.a2.uuid}`)).json().data.tenant_phone)()).toBeNull();
  });

  it('the list writes each job exactly as GET /api/jobs/{uuid} does, for every party (the page is JSON from the database)', async () => {
    const trade = await t.db.selectFrom('trades').select('id').where('agency_id', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    const slot = await t.db.selectFrom('job_time_ranges').select('id').where('agency_id', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 20, 9, 30, 15, ms));
    // Strings JSON must escape (quote, backslash, newline, tab, a control character) and others it must not.
    const odd = await insertJob(t, {
      agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.completed, contractor_id: w.contractor.id, tenant_id: w.tenant.id,
      address_id: w.address.id, agent_user_id: w.agentA1.user.id, trade_id: trade.id, time_range_id: slot.id,
      title: 'Tap "drips" \\ fast\n\tnow \u0001 — 🚿 café </script>', description: 'Line one\r\nline two / ünïcode',
      estimated_cost_pence: 12_345, agreed_cost_pence: 0,
      contractor_accepted_at: at(1), approved_at: at(20), assigned_at: at(300), scheduled_for: at(0), attended_at: at(999), completed_at: at(7),
    });
    for (const [name, { c }] of Object.entries(who())) {
      const listed = await c.client.get('/api/jobs/manage?limit=200&sort=updated_at&order=asc');
      expect(listed.statusCode, name).toBe(200);
      expect(listed.headers['content-type'], name).toBe('application/json; charset=utf-8');
      const body = listed.json();
      expect(Object.keys(body), name).toEqual(['success', 'data', 'count', 'message']);
      expect(body.message).toBe('Jobs retrieved');
      for (const item of body.data as Array<{ uuid: string }>) {
        // The detail alone adds tenant_phone (staff and the assigned contractor); the rest is the same.
        const { tenant_phone: _phone, ...single } = (await c.client.get(`/api/jobs/${item.uuid}`)).json().data;
        // Same keys in the same order and the same values: the same bytes.
        expect(JSON.stringify(item), `${name} ${item.uuid}`).toBe(JSON.stringify(single));
      }
      if (name === 'tenant' || name === 'adminA') expect(body.data.map((x: { uuid: string }) => x.uuid), name).toContain(odd.uuid);
    }
    // An empty page past the end still counts the matching jobs.
    const past = (await w.adminA.client.get('/api/jobs/manage?limit=10&offset=500')).json();
    expect(past.data).toEqual([]);
    expect(past.count).toBeGreaterThan(0);
  });
});
