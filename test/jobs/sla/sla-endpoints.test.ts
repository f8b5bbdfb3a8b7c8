import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slaScanTask } from '../../../src/modules/jobs/sla/index.ts';
import { buildTestApp, userClient, type TestApp } from '../../helpers/app.ts';
import { clocksOf, createJob, createRule, move, slaWorld } from './sla-world.ts';

describe('SLA endpoints: breaches, job clocks, compliance and settings, with visibility', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof slaWorld>>;
  let jobA1: string;
  let jobA1Met: string;
  let jobB1: string;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await slaWorld(t);
    t.clock.set(new Date('2026-11-20T10:00:00Z'));
    const rule = (branch: string) => ({
      branch_uuid: branch, job_status_from_id: 1, job_status_to_id: 3, date_field_to_compare: 'created_at',
      date_field_to_track: 'approved_at', minimum_response_days: 1, calendar: 'working_days', description: 'Approved within 1 working day',
    });
    await createRule(w.adminA.client, rule(w.a1.uuid));
    await createRule(w.adminB.client, rule(w.b1.uuid));
    jobA1 = await createJob(w.agentA1.client, { priority: 2, branch_uuid: w.a1.uuid });
    jobA1Met = await createJob(w.agentA1.client, { priority: 3, branch_uuid: w.a1.uuid });
    jobB1 = await createJob(w.adminB.client, { priority: 2, branch_uuid: w.b1.uuid });
    t.clock.set(new Date('2026-11-20T12:00:00Z'));
    await move(w.agentA1.client, jobA1Met, 3);
    t.clock.set(new Date('2026-11-24T09:00:00Z'));
    await slaScanTask.run(t.deps);
  });
  afterAll(async () => t?.close());

  it('working days: a Friday 10:00 job is due Monday 10:00 and breached after it', async () => {
    const [clock] = await clocksOf(w.agentA1.client, jobA1);
    expect(clock).toMatchObject({ state: 'breached', due_at: '2026-11-23T10:00:00.000Z', calendar: 'working_days' });
  });

  it('GET /api/sla/breaches lists the caller\'s breached clocks by due_at with filters', async () => {
    const res = await w.adminA.client.get('/api/sla/breaches');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, count: 1, message: 'SLA breaches retrieved' });
    expect(body.data[0]).toMatchObject({ job_uuid: jobA1, state: 'breached', branch_name: 'A1', seconds_to_due: -23 * 3600, rule_description: 'Approved within 1 working day' });
    expect((await w.adminA.client.get('/api/sla/breaches?state=met')).json().data.map((r: { job_uuid: string }) => r.job_uuid)).toEqual([jobA1Met]);
    expect((await w.adminA.client.get('/api/sla/breaches?priority=3')).json().count).toBe(0);
    expect((await w.adminA.client.get(`/api/sla/breaches?branch_uuid=${w.a1.uuid}&from_date=2026-11-23&to_date=2026-11-23`)).json().count).toBe(1);
    expect((await w.adminA.client.get(`/api/sla/breaches?contractor_uuid=${w.contractor.uuid}`)).json().count).toBe(0);
    expect((await w.adminA.client.get('/api/sla/breaches?from_date=2026-11-24&to_date=2026-11-23')).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/sla/breaches?state=late')).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/sla/breaches?limit=0')).statusCode).toBe(400);
  });

  it('another agency\'s jobs, branches and contractors are the same 404 as missing ones', async () => {
    const b = w.adminB.client;
    expect((await b.get(`/api/jobs/${jobA1}/sla`)).json()).toEqual({ success: false, error: 'Job not found' });
    expect((await b.get(`/api/jobs/${jobA1}/sla`)).statusCode).toBe(404);
    expect((await b.get(`/api/sla/breaches?branch_uuid=${w.a1.uuid}`)).json()).toEqual({ success: false, error: 'Branch not found' });
    expect((await b.get(`/api/sla/breaches?contractor_uuid=${w.contractor.uuid}`)).statusCode).toBe(404);
    const breaches = (await b.get('/api/sla/breaches')).json().data.map((r: { job_uuid: string }) => r.job_uuid);
    expect(breaches).toEqual([jobB1]);
    const groups = (await b.get('/api/sla/compliance?from_date=2026-11-01&to_date=2026-11-30')).json().data;
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['B1']);
    expect((await b.get(`/api/sla/settings?agency_uuid=${w.agencyA.uuid}`)).statusCode).toBe(404);
  });

  it('an agent sees only its branch; tenants have no SLA keys; anonymous callers get 401', async () => {
    const agentA2 = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a2.id });
    expect((await agentA2.client.get(`/api/jobs/${jobA1}/sla`)).statusCode).toBe(404);
    expect((await agentA2.client.get('/api/sla/breaches')).json().count).toBe(0);
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenant.client.get('/api/sla/breaches')).statusCode).toBe(403);
    expect((await tenant.client.get(`/api/jobs/${jobA1}/sla`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/sla/breaches' })).statusCode).toBe(401);
    expect((await w.agentA1.client.get('/api/sla/settings')).statusCode).toBe(403);
  });

  it('GET /api/sla/compliance counts met, breached and running per group with the median', async () => {
    const res = await w.adminA.client.get('/api/sla/compliance?from_date=2026-11-20&to_date=2026-11-20&group_by=priority');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      count: 2,
      data: [
        { group_by: 'priority', key: '2', name: 'Priority 2', met: 0, breached: 1, running: 0, compliance_percent: 0, median_minutes_to_respond: null },
        { group_by: 'priority', key: '3', name: 'Priority 3', met: 1, breached: 0, running: 0, compliance_percent: 100, median_minutes_to_respond: 120 },
      ],
    });
    const byBranch = (await w.sysops.client.get('/api/sla/compliance?from_date=2026-11-20&to_date=2026-11-20')).json();
    expect(byBranch.data.map((g: { name: string; compliance_percent: number }) => [g.name, g.compliance_percent])).toEqual([['A1', 50], ['B1', 0]]);
    expect((await w.adminA.client.get('/api/sla/compliance?from_date=2026-11-20&to_date=2026-11-20&group_by=contractor')).json().data[0]).toMatchObject({ key: null, name: 'No contractor' });
    expect((await w.adminA.client.get('/api/sla/compliance?from_date=2026-11-20')).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/sla/compliance?from_date=2026-11-20&to_date=2026-11-20&group_by=tenant')).statusCode).toBe(400);
  });

  it('the agency region and at-risk share are read and changed by administrators, and re-measure open jobs', async () => {
    const a = w.adminA.client;
    expect((await a.get('/api/sla/settings')).json().data).toMatchObject({ agency_uuid: w.agencyA.uuid, uk_region: 'england-and-wales', at_risk_percent: 75 });
    t.clock.set(new Date('2026-11-27T10:00:00Z'));
    const uuid = await createJob(w.agentA1.client, { priority: 2, branch_uuid: w.a1.uuid });
    expect((await clocksOf(a, uuid))[0]!.due_at).toBe('2026-11-30T10:00:00.000Z');
    const res = await a.post('/api/sla/settings', { uk_region: 'scotland', at_risk_percent: 50 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'SLA settings updated', data: { uk_region: 'scotland', at_risk_percent: 50 } });
    expect((await clocksOf(a, uuid))[0]).toMatchObject({ due_at: '2026-12-01T10:00:00.000Z', at_risk_at: '2026-11-27T22:00:00.000Z' });
    expect((await a.post('/api/sla/settings', { at_risk_percent: 100 })).statusCode).toBe(400);
    expect((await a.post('/api/sla/settings', { uk_region: 'wales' })).statusCode).toBe(400);
    expect((await a.post('/api/sla/settings', {})).statusCode).toBe(400);
    expect((await w.sysops.client.get('/api/sla/settings')).statusCode).toBe(400);
    expect((await w.sysops.client.get(`/api/sla/settings?agency_uuid=${w.agencyB.uuid}`)).json().data.uk_region).toBe('england-and-wales');
    const entries = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'sla_settings.update').execute();
    expect(entries).toHaveLength(1);
  });

  it('the jobs list filters on sla_state and shows each job\'s most urgent clock', async () => {
    const res = await w.adminA.client.get('/api/jobs/manage?sla_state=breached');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((j: { uuid: string }) => j.uuid)).toEqual([jobA1]);
    expect(res.json().data[0]).toMatchObject({ sla_state: 'breached', sla_due_at: '2026-11-23T10:00:00.000Z' });
    expect((await w.adminA.client.get('/api/jobs/manage?sla_state=met')).json().count).toBe(1);
    expect((await w.adminA.client.get('/api/jobs/manage?sla_state=nope')).statusCode).toBe(400);
  });
});
