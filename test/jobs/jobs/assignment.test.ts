import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS } from '../../../src/modules/jobs/jobs/lifecycle.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { insertJob, jobsWorld, type JobsWorld } from './fixtures.ts';

describe('jobs assignment, scheduling, accept and decline', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
  });
  afterAll(async () => t?.close());

  const approvedJob = (extra: Record<string, unknown> = {}) => insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.approved, ...extra });
  const history = (id: number) => t.db.selectFrom('job_status_history').selectAll().where('job_id', '=', id).orderBy('id').execute();
  const stored = (id: number) => t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('assigns an Approved job: Assigned, assigned_at, contractor, history and activity', async () => {
    const job = await approvedJob();
    t.clock.advance(60);
    const res = await w.agentA1.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor.uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Job assigned',
      data: { status_id: STATUS.assigned, status: 'Assigned', contractor_uuid: w.contractor.uuid, contractor_name: 'Acme Plumbing', assigned_at: t.clock.now().toISOString(), scheduled_for: null, time_range_id: null, contractor_accepted_at: null },
    });
    expect(await history(job.id)).toMatchObject([{ from_status_id: STATUS.approved, to_status_id: STATUS.assigned, by_user_id: w.agentA1.user.id }]);
    expect(await t.db.selectFrom('activity_log').select('action').where('resource_id', '=', job.id).where('action', '=', 'job.assign').execute()).toHaveLength(1);
    expect((await w.contractorUser.client.get(`/api/jobs/${job.uuid}`)).statusCode).toBe(200);
  });

  it('with a date and slot the job becomes Scheduled; reassigning resets acceptance without a history row', async () => {
    const job = await approvedJob();
    const res = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor.uuid, scheduled_for: '2026-11-25', time_range_id: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status_id: STATUS.scheduled, scheduled_for: '2026-11-25T00:00:00.000Z', time_range_id: 1, time_range: 'Morning 08:00-12:00' });
    expect((await w.contractorUser.client.post(`/api/jobs/${job.uuid}/assignment/accept`)).statusCode).toBe(200);
    const again = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor2.uuid, scheduled_for: '2026-11-26' });
    expect(again.json().data).toMatchObject({ status_id: STATUS.scheduled, contractor_uuid: w.contractor2.uuid, contractor_accepted_at: null, time_range_id: null });
    expect((await history(job.id)).map((h) => [h.from_status_id, h.to_status_id])).toEqual([[STATUS.approved, STATUS.scheduled]]);
    expect((await w.contractorUser.client.get(`/api/jobs/${job.uuid}`)).statusCode).toBe(404);
    const unscheduled = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor2.uuid });
    expect(unscheduled.json().data).toMatchObject({ status_id: STATUS.assigned, scheduled_for: null });
    const assignedToScheduled = await w.adminA.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor2.uuid, scheduled_for: '2026-11-27' });
    expect(assignedToScheduled.json().data.status_id).toBe(STATUS.scheduled);
  });

  it('refuses bad input and wrong states, changing nothing', async () => {
    const job = await approvedJob();
    const before = await stored(job.id);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ contractor_uuid: w.contractorB.uuid }, 404, 'Contractor not found'],
      [{ contractor_uuid: '00000000-0000-4000-8000-000000000000' }, 404, 'Contractor not found'],
      [{ contractor_uuid: w.contractor.uuid, time_range_id: 999 }, 400, 'Invalid or missing required parameter: time_range_id'],
      [{ contractor_uuid: w.contractor.uuid, scheduled_for: '25/11/2026' }, 400, 'Invalid or missing required parameter: scheduled_for'],
      [{}, 400, 'Invalid or missing required parameter: contractor_uuid'],
    ];
    for (const [body, status, error] of cases) {
      const res = await w.agentA1.client.post(`/api/jobs/${job.uuid}/assignment`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    expect(await stored(job.id)).toEqual(before);
    const reported = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id });
    const r = await w.agentA1.client.post(`/api/jobs/${reported.uuid}/assignment`, { contractor_uuid: w.contractor.uuid });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('Cannot move a job from Reported to Assigned');
    const inProgress = await insertJob(t, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: STATUS.inProgress, contractor_id: w.contractor.id });
    expect((await w.agentA1.client.post(`/api/jobs/${inProgress.uuid}/assignment`, { contractor_uuid: w.contractor2.uuid, scheduled_for: '2026-12-01' })).statusCode).toBe(409);
    expect((await stored(inProgress.id)).contractor_id).toBe(w.contractor.id);
  });

  it('403 for shared-branch agents, contractors and without CSRF; 404 for another agency', async () => {
    const shared = await approvedJob({ branch_id: w.a2.id });
    const ro = await w.agentA1.client.post(`/api/jobs/${shared.uuid}/assignment`, { contractor_uuid: w.contractor.uuid });
    expect(ro.statusCode).toBe(403);
    expect((await w.contractorUser.client.post(`/api/jobs/${shared.uuid}/assignment`, { contractor_uuid: w.contractor.uuid })).statusCode).toBe(403);
    expect((await w.adminA.client.post(`/api/jobs/${shared.uuid}/assignment`, { contractor_uuid: w.contractor.uuid }, { csrf: false })).statusCode).toBe(403);
    expect((await w.adminB.client.post(`/api/jobs/${shared.uuid}/assignment`, { contractor_uuid: w.contractorB.uuid })).statusCode).toBe(404);
    expect((await stored(shared.id)).status_id).toBe(STATUS.approved);
  });

  it('the contractor accepts once; others cannot', async () => {
    const job = await approvedJob({ status_id: STATUS.assigned, contractor_id: w.contractor.id });
    expect((await w.contractor2User.client.post(`/api/jobs/${job.uuid}/assignment/accept`)).statusCode).toBe(404);
    expect((await w.agentA1.client.post(`/api/jobs/${job.uuid}/assignment/accept`)).statusCode).toBe(403);
    expect((await w.contractorUser.client.post(`/api/jobs/${job.uuid}/assignment/accept`, undefined, { csrf: false })).statusCode).toBe(403);
    t.clock.advance(60);
    const ok = await w.contractorUser.client.post(`/api/jobs/${job.uuid}/assignment/accept`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Assignment accepted', data: { status_id: STATUS.assigned, contractor_accepted_at: t.clock.now().toISOString() } });
    const twice = await w.contractorUser.client.post(`/api/jobs/${job.uuid}/assignment/accept`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('The assignment is already accepted');
    const started = await approvedJob({ status_id: STATUS.inProgress, contractor_id: w.contractor.id });
    const late = await w.contractorUser.client.post(`/api/jobs/${started.uuid}/assignment/accept`);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('Only an Assigned or Scheduled job can be accepted; this one is In progress');
  });

  it('a decline clears the contractor, slot and date, goes back to Approved and is in the history', async () => {
    const job = await approvedJob();
    await w.agentA1.client.post(`/api/jobs/${job.uuid}/assignment`, { contractor_uuid: w.contractor.uuid, scheduled_for: '2026-11-30', time_range_id: 2 });
    t.clock.advance(60);
    const res = await w.contractorUser.client.post(`/api/jobs/${job.uuid}/assignment/decline`, { reason: 'No availability that week' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Assignment declined', data: { uuid: job.uuid, status_id: STATUS.approved, status: 'Approved' } });
    expect(await stored(job.id)).toMatchObject({ status_id: STATUS.approved, contractor_id: null, scheduled_for: null, time_range_id: null, assigned_at: null, contractor_accepted_at: null });
    const h = await history(job.id);
    expect(h.at(-1)).toMatchObject({ from_status_id: STATUS.scheduled, to_status_id: STATUS.approved, by_user_id: w.contractorUser.user.id, note: 'Declined by the contractor: No availability that week' });
    expect((await w.contractorUser.client.get(`/api/jobs/${job.uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.get(`/api/jobs/${job.uuid}`)).json().data.status).toBe('Approved');
    const started = await approvedJob({ status_id: STATUS.inProgress, contractor_id: w.contractor.id });
    const late = await w.contractorUser.client.post(`/api/jobs/${started.uuid}/assignment/decline`);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('Cannot move a job from In progress to Approved');
    expect((await w.contractorUser.client.post(`/api/jobs/${started.uuid}/assignment/decline`, { reason: 'x'.repeat(2001) })).statusCode).toBe(400);
  });
});
