/**
 * SLA clocks in office hours through the API (docs/sla.md "How time counts"): the agency's office
 * hours in /api/sla/settings, hour-mode rules, due and at-risk times that move with a pause, and
 * the breach and compliance reports naming each rule's mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slaScanTask } from '../../../src/modules/jobs/sla/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { clocksOf, createJob, move, RULES, slaWorld } from './sla-world.ts';

describe('SLA in office hours through the API', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof slaWorld>>;
  let job: string;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await slaWorld(t);
    t.clock.set(new Date('2026-11-20T16:00:00Z'));
  });
  afterAll(async () => t?.close());

  it('GET /api/sla/settings shows the default week until the agency sets its own', async () => {
    const res = await w.adminA.client.get('/api/sla/settings');
    expect(res.json().data).toMatchObject({
      office_hours_default: true,
      office_hours: { mon: { opens: '09:00', closes: '17:30' }, fri: { opens: '09:00', closes: '17:30' }, sat: null, sun: null },
    });
  });

  it('POST /api/sla/settings rejects a day that closes before it opens and a week without hours, changing nothing', async () => {
    const closed = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
    const bad = await w.adminA.client.post('/api/sla/settings', { office_hours: { ...closed, mon: { opens: '17:00', closes: '09:00' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error: 'Invalid or missing required parameter: office_hours' });
    expect((await w.adminA.client.post('/api/sla/settings', { office_hours: closed })).statusCode).toBe(400);
    expect((await w.adminA.client.post('/api/sla/settings', { office_hours: { ...closed, mon: { opens: '9:00', closes: '17:00' } } })).statusCode).toBe(400);
    expect((await w.adminA.client.get('/api/sla/settings')).json().data.office_hours_default).toBe(true);
  });

  it('an hour-mode rule needs response_hours and a day-mode rule refuses them', async () => {
    const base = {
      branch_uuid: w.a1.uuid, job_status_from_id: 1, job_status_to_id: 3, date_field_to_compare: 'created_at', date_field_to_track: 'approved_at',
    };
    expect((await w.adminA.client.post(RULES, { ...base, calendar: 'office_hours' })).json().error).toBe('Invalid or missing required parameter: response_hours');
    expect((await w.adminA.client.post(RULES, { ...base, calendar: 'working_days', minimum_response_days: 1, response_hours: 4 })).json().error)
      .toBe('Invalid or missing required parameter: response_hours');
    expect((await w.adminA.client.post(RULES, { ...base, calendar: 'working_days' })).json().error).toBe('Invalid or missing required parameter: minimum_response_days');
    const ok = await w.adminA.client.post(RULES, { ...base, calendar: 'office_hours', response_hours: 4, description: 'Approved within 4 office hours' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ calendar: 'office_hours', response_hours: 4, minimum_response_days: 0 });
  });

  it('a Friday 16:00 report with 4 office hours is due Monday 11:30; a pause moves due and at-risk', async () => {
    job = await createJob(w.agentA1.client, { priority: 2, branch_uuid: w.a1.uuid });
    let [clock] = await clocksOf(w.agentA1.client, job);
    // Fri 16:00-17:30 counts 1.5 h; Mon from 09:00 2.5 h more. At risk at 3 h: Mon 10:30.
    expect(clock).toMatchObject({ calendar: 'office_hours', response_hours: 4, due_at: '2026-11-23T11:30:00.000Z', at_risk_at: '2026-11-23T10:30:00.000Z' });
    // The agency opens on Saturday mornings too: 1.5 h Friday + 2.5 h Saturday 09:00-11:30.
    const week = { mon: { opens: '09:00', closes: '17:30' }, tue: { opens: '09:00', closes: '17:30' }, wed: { opens: '09:00', closes: '17:30' },
      thu: { opens: '09:00', closes: '17:30' }, fri: { opens: '09:00', closes: '17:30' }, sat: { opens: '09:00', closes: '12:00' }, sun: null };
    const set = await w.adminA.client.post('/api/sla/settings', { office_hours: week });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ office_hours_default: false, office_hours: { sat: { opens: '09:00', closes: '12:00' } } });
    [clock] = await clocksOf(w.agentA1.client, job);
    expect(clock).toMatchObject({ due_at: '2026-11-21T11:30:00.000Z', at_risk_at: '2026-11-21T10:30:00.000Z' });
    // On hold from Fri 17:00 (1 h counted) to Mon 12:00: 3 h left from Mon 12:00, at risk after 2 h.
    t.clock.set(new Date('2026-11-20T17:00:00Z'));
    await move(w.agentA1.client, job, 11);
    t.clock.set(new Date('2026-11-23T12:00:00Z'));
    await move(w.agentA1.client, job, 1);
    [clock] = await clocksOf(w.agentA1.client, job);
    expect(clock).toMatchObject({ state: 'running', due_at: '2026-11-23T15:00:00.000Z', at_risk_at: '2026-11-23T14:00:00.000Z', time_left_seconds: 3 * 3600 });
  });

  it('the breach and compliance reports say which mode the rule uses', async () => {
    t.clock.set(new Date('2026-11-23T15:00:00Z'));
    await slaScanTask.run(t.deps);
    const breaches = (await w.adminA.client.get('/api/sla/breaches')).json().data;
    expect(breaches).toEqual([expect.objectContaining({ job_uuid: job, state: 'breached', calendar: 'office_hours', response_hours: 4, minimum_response_days: 0 })]);
    const groups = (await w.adminA.client.get('/api/sla/compliance?from_date=2026-11-20&to_date=2026-11-20')).json().data;
    expect(groups).toEqual([expect.objectContaining({ name: 'A1', breached: 1, calendars: 'office_hours' })]);
    const csv = await w.adminA.client.get('/api/reports/sla-compliance?format=csv&from_date=2026-11-20&to_date=2026-11-20');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toContain('calendars');
    expect(csv.body).toContain('office_hours');
  });
});
