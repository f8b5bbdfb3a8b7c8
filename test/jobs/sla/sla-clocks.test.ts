import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recomputeJobSla, scanSlaClocks, slaScanTask } from '../../../src/modules/jobs/sla/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { clocksOf, createJob, createRule, eventCount, move, RULES, slaWorld } from './sla-world.ts';

describe('SLA clocks follow every job change and the periodic scan', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof slaWorld>>;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await slaWorld(t);
  });
  afterAll(async () => t?.close());

  it('the example of docs/sla-rules.md: attended 1 day 1 hour after being reported is breached, flagged at risk first', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-11-21T09:00:00Z'));
    await createRule(agent, {
      branch_uuid: w.a1.uuid, job_type_id: 2, job_priority: 1, job_status_from_id: 1, job_status_to_id: 6,
      date_field_to_compare: 'created_at', date_field_to_track: 'attended_at', minimum_response_days: 1,
      description: 'Emergency jobs attended within 1 day',
    });
    const uuid = await createJob(agent, { priority: 1, job_type_id: 2, branch_uuid: w.a1.uuid });
    let [clock] = await clocksOf(agent, uuid);
    expect(clock).toMatchObject({
      state: 'running', started_at: '2026-11-21T09:00:00.000Z', due_at: '2026-11-22T09:00:00.000Z',
      at_risk_at: '2026-11-22T03:00:00.000Z', stopped_at: null, time_left_seconds: 86_400, rule_description: 'Emergency jobs attended within 1 day',
    });
    const job = (await agent.get(`/api/jobs/${uuid}`)).json().data;
    expect(job).toMatchObject({ sla_state: 'running', sla_due_at: '2026-11-22T09:00:00.000Z' });

    t.clock.set(new Date('2026-11-22T03:00:00Z'));
    await slaScanTask.run(t.deps);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({ state: 'at_risk', time_left_seconds: 6 * 3600 });
    expect(await eventCount(t, 'sla.at_risk')).toBe(1);

    await move(agent, uuid, 3);
    await agent.post(`/api/jobs/${uuid}/assignment`, { contractor_uuid: w.contractor.uuid });
    t.clock.set(new Date('2026-11-22T09:00:00Z'));
    await slaScanTask.run(t.deps);
    expect((await clocksOf(agent, uuid))[0]!.state).toBe('breached');

    t.clock.set(new Date('2026-11-22T10:00:00Z'));
    await move(agent, uuid, 6);
    [clock] = await clocksOf(agent, uuid);
    expect(clock).toMatchObject({ state: 'breached', stopped_at: '2026-11-22T10:00:00.000Z', time_left_seconds: -3600 });
    await slaScanTask.run(t.deps);
    expect(await eventCount(t, 'sla.breached')).toBe(1);
    expect(await eventCount(t, 'sla.at_risk')).toBe(1);
    const activity = await t.db.selectFrom('activity_log').select(['action', 'user_name']).where('action', 'like', 'sla.%').execute();
    expect(activity.map((a) => a.action).sort()).toEqual(['sla.at_risk', 'sla.breached']);
  });

  it('a job attended late between two scans is breached at once, with its event', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-11-21T09:00:00Z'));
    const uuid = await createJob(agent, { priority: 1, job_type_id: 2, branch_uuid: w.a1.uuid });
    await move(agent, uuid, 3);
    await agent.post(`/api/jobs/${uuid}/assignment`, { contractor_uuid: w.contractor.uuid });
    const before = await eventCount(t, 'sla.breached');
    t.clock.set(new Date('2026-11-22T09:30:00Z'));
    await move(agent, uuid, 6);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({ state: 'breached', stopped_at: '2026-11-22T09:30:00.000Z' });
    expect(await eventCount(t, 'sla.breached')).toBe(before + 1);
  });

  it('a job attended in time is met, and met is kept when the job closes', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-11-21T09:00:00Z'));
    const uuid = await createJob(agent, { priority: 1, job_type_id: 2, branch_uuid: w.a1.uuid });
    await move(agent, uuid, 3);
    await agent.post(`/api/jobs/${uuid}/assignment`, { contractor_uuid: w.contractor.uuid });
    t.clock.set(new Date('2026-11-21T20:00:00Z'));
    await move(agent, uuid, 6);
    expect((await clocksOf(agent, uuid))[0]!.state).toBe('met');
    await move(agent, uuid, 7);
    await move(agent, uuid, 9);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({ state: 'met', stopped_at: '2026-11-21T20:00:00.000Z' });
  });

  it('time On hold is paused and does not count', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-11-21T09:00:00Z'));
    await createRule(agent, {
      branch_uuid: w.a1.uuid, job_type_id: 6, job_status_from_id: 1, job_status_to_id: 7,
      date_field_to_compare: 'created_at', date_field_to_track: 'completed_at', minimum_response_days: 2, description: 'Void works in 2 days',
    });
    const uuid = await createJob(agent, { priority: 4, job_type_id: 6, branch_uuid: w.a1.uuid });
    t.clock.set(new Date('2026-11-22T09:00:00Z'));
    await move(agent, uuid, 11);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({ state: 'paused', time_left_seconds: 86_400 });
    t.clock.set(new Date('2026-11-25T09:00:00Z'));
    await slaScanTask.run(t.deps);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({ state: 'paused', time_left_seconds: 86_400 });
    await move(agent, uuid, 1);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({
      state: 'running', due_at: '2026-11-26T09:00:00.000Z', paused_seconds: 3 * 86_400, time_left_seconds: 86_400,
    });
    const listed = (await agent.get('/api/jobs/manage?sla_state=running&limit=200')).json().data.map((j: { uuid: string }) => j.uuid);
    expect(listed).toContain(uuid);
  });

  it('the strictest rule of a transition wins, and a rule changed mid-flight recomputes the open jobs', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-11-21T09:00:00Z'));
    const rule = (days: number, description: string) => ({
      branch_uuid: w.a1.uuid, job_type_id: 3, job_status_from_id: 1, job_status_to_id: 3,
      date_field_to_compare: 'created_at', date_field_to_track: 'approved_at', minimum_response_days: days, description,
    });
    const loose = await createRule(agent, rule(5, 'Planned work approved in 5 days'));
    const strict = await createRule(agent, rule(2, 'Planned work approved in 2 days'));
    const uuid = await createJob(agent, { priority: 5, job_type_id: 3, branch_uuid: w.a1.uuid });
    const clocks = await clocksOf(agent, uuid);
    expect(clocks.map((c) => [c.rule_uuid, c.state])).toEqual([[strict, 'running'], [loose, 'not_applicable']]);
    expect((await agent.get(`/api/jobs/${uuid}`)).json().data.sla_due_at).toBe('2026-11-23T09:00:00.000Z');

    t.clock.set(new Date('2026-11-22T09:00:00Z'));
    expect((await agent.post(RULES, { uuid: strict, minimum_response_days: 7 })).statusCode).toBe(200);
    const after = await clocksOf(agent, uuid);
    expect(after.map((c) => [c.rule_uuid, c.state, c.due_at])).toEqual([
      [loose, 'running', '2026-11-26T09:00:00.000Z'],
      [strict, 'not_applicable', '2026-11-28T09:00:00.000Z'],
    ]);
    expect((await agent.delete(RULES, { uuid: loose })).statusCode).toBe(200);
    expect((await clocksOf(agent, uuid)).map((c) => [c.rule_uuid, c.state])).toEqual([[strict, 'running']]);
  });

  it('two instances scanning at the same time flag each breach once', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-11-21T09:00:00Z'));
    for (let i = 0; i < 6; i++) await createJob(agent, { priority: 1, job_type_id: 2, branch_uuid: w.a1.uuid });
    t.clock.set(new Date('2026-12-01T09:00:00Z'));
    const before = await eventCount(t, 'sla.breached');
    const running = await t.db.selectFrom('sla_clocks').select('id').where('state', 'in', ['running', 'at_risk']).where('due_at', '<=', t.clock.now()).execute();
    const results = await Promise.all([scanSlaClocks(t.deps, 2), scanSlaClocks(t.deps, 2), scanSlaClocks(t.deps, 3)]);
    expect(results.reduce((n, r) => n + r.breached, 0)).toBe(running.length);
    expect(await eventCount(t, 'sla.breached')).toBe(before + running.length);
    expect(running.length).toBeGreaterThanOrEqual(6);
    expect(await scanSlaClocks(t.deps)).toEqual({ breached: 0, at_risk: 0 });
  });

  it('a cancelled job with a running clock becomes not applicable', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-12-02T09:00:00Z'));
    const uuid = await createJob(agent, { priority: 1, job_type_id: 2, branch_uuid: w.a1.uuid });
    await move(agent, uuid, 10);
    expect((await clocksOf(agent, uuid))[0]).toMatchObject({ state: 'not_applicable', time_left_seconds: null });
    expect((await agent.get(`/api/jobs/${uuid}`)).json().data.sla_state).toBeNull();
  });

  it('a new job starts with the clocks a full recompute would write, a zero-day rule breached at once with its event', async () => {
    const agent = w.agentA1.client;
    t.clock.set(new Date('2026-12-04T16:00:00Z'));
    // Job type 4 is used by no other test here: these rules apply to this job only.
    await createRule(agent, {
      branch_uuid: w.a1.uuid, job_type_id: 4, job_status_from_id: 1, job_status_to_id: 3,
      date_field_to_compare: 'created_at', date_field_to_track: 'approved_at', minimum_response_days: 0, description: 'Approved the same instant',
    });
    await createRule(agent, {
      branch_uuid: w.a1.uuid, job_type_id: 4, job_status_from_id: 1, job_status_to_id: 6, calendar: 'working_days',
      date_field_to_compare: 'created_at', date_field_to_track: 'attended_at', minimum_response_days: 2, description: 'Attended within 2 working days',
    });
    const breachedBefore = await eventCount(t, 'sla.breached');
    const uuid = await createJob(agent, { priority: 2, job_type_id: 4, branch_uuid: w.a1.uuid });
    const job = await t.db.selectFrom('jobs').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    const clocks = () => t.db.selectFrom('sla_clocks').selectAll().where('job_id', '=', job.id).orderBy('rule_id').execute();
    const started = await clocks();
    expect(started.map((c) => c.state)).toEqual(['breached', 'running']);
    expect(await eventCount(t, 'sla.breached')).toBe(breachedBefore + 1);
    // Recomputing from what is stored (the job row, its history, the clocks) changes nothing.
    await t.db.transaction().execute((trx) => recomputeJobSla(trx, job.id, t.clock.now()));
    expect(await clocks()).toEqual(started);
    expect(await eventCount(t, 'sla.breached')).toBe(breachedBefore + 1);
  });
});
