/**
 * Hazards and statutory clocks (docs/compliance.md "Hazards and statutory clocks"): worked
 * examples of the working-day deadlines (a weekend, Christmas and New Year's bank holidays of
 * England and Scotland, the August bank holiday, a Saturday just after midnight in BST) against
 * deadlines computed by hand; an emergency hazard job breaches at 24 hours, announced once; a
 * significant damp and mould hazard runs its clocks through the written summary, which is sent
 * to the tenant through messaging and kept on the job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { sendDueDeliveries } from '../../../src/modules/messaging/messaging/index.ts';
import { hazardScanTask, planHazardClocks, workingDaysDeadline } from '../../../src/modules/jobs/hazards/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { jobsWorld, type JobsWorld } from '../jobs/fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('working-day deadlines, worked by hand', () => {
  const cases: Array<[string, string, number, 'england-and-wales' | 'scotland' | 'northern-ireland', string]> = [
    // Fri 4 Dec 16:00: Friday is not counted; Mon 7 to Fri 11 (5), Mon 14 to Fri 18 (10): ends Fri 18 Dec at midnight.
    ['a Friday report skips the weekend', '2026-12-04T16:00:00Z', 10, 'england-and-wales', '2026-12-19T00:00:00.000Z'],
    // Wed 23 Dec: Thu 24 (1); Fri 25, Mon 28 (Boxing Day substitute) bank holidays; Tue 29 to Thu 31 (4); Fri 1 Jan holiday; Mon 4 to Fri 8 (9); Mon 11 (10).
    ['Christmas and New Year in England', '2026-12-23T10:00:00Z', 10, 'england-and-wales', '2027-01-12T00:00:00.000Z'],
    // Scotland also keeps 2 January, a Saturday in 2027, on Mon 4 Jan: one day later.
    ['Christmas and New Year in Scotland', '2026-12-23T10:00:00Z', 10, 'scotland', '2027-01-13T00:00:00.000Z'],
    // Investigated Fri 28 Aug 15:00 BST: Mon 31 Aug is England's summer bank holiday; Tue 1 to Thu 3 Sep; ends Thu 3 Sep 24:00 BST.
    ['the August bank holiday in England (BST)', '2026-08-28T14:00:00Z', 3, 'england-and-wales', '2026-09-03T23:00:00.000Z'],
    // Scotland's summer bank holiday was Mon 3 Aug: Mon 31 Aug counts.
    ['the same days in Scotland', '2026-08-28T14:00:00Z', 3, 'scotland', '2026-09-02T23:00:00.000Z'],
    // Sat 13 Jun 00:30 BST is Fri 12 Jun 23:30 UTC: the London date (Saturday) is the day of the report; Mon 15 to Fri 19 (5).
    ['a Saturday 00:30 BST report counts from the London date', '2026-06-12T23:30:00Z', 5, 'england-and-wales', '2026-06-19T23:00:00.000Z'],
    // Thu 22 Oct 2026: Fri 23 (1), Mon 26 (2), Tue 27 (3): the clocks went back on Sun 25 Oct, so the end is midnight GMT.
    ['across the October clock change', '2026-10-22T12:00:00Z', 3, 'england-and-wales', '2026-10-28T00:00:00.000Z'],
  ];
  it.each(cases)('%s', (_name, start, days, region, due) => {
    expect(iso(workingDaysDeadline(Date.parse(start), days, region, 75).due)).toBe(due);
  });

  it('an emergency hazard is due 24 real hours after the report, at risk at the agency share', () => {
    const [clock] = planHazardClocks({
      severity: 'emergency', reported_at: new Date('2026-10-24T22:00:00Z'), made_safe_at: null, investigated_at: null,
      summary_sent_at: null, works_started_at: null, works_completed_at: null,
    }, 75);
    // Across the October clock change: 24 hours of real time, not a London day.
    expect(clock).toMatchObject({ kind: 'make_safe', due_at: new Date('2026-10-25T22:00:00Z'), at_risk_at: new Date('2026-10-25T16:00:00Z') });
  });
});

describe('hazard jobs through the API', () => {
  let t: TestApp;
  let w: JobsWorld;
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_PUBLIC_URL: 'https://app.caretaker.test' });
    w = await jobsWorld(t);
    // The fixtures' Leeds properties are private rented: the agency applies the timescales as policy.
    expect((await w.adminA.client.put('/api/hazards/settings', { private_rented_policy: true })).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  const events = (name: string) => t.db.selectFrom('outbox').select(['name', 'payload']).where('name', '=', name).execute();

  async function newJob(title: string, tenant: { uuid: string } = w.tenant, address: { uuid: string } = w.address) {
    const res = await w.agentA1.client.post('/api/jobs/manage', { title, priority: 2, address_uuid: address.uuid, tenant_uuid: tenant.uuid });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.uuid as string;
  }

  it('an emergency hazard job breaches at 24 hours, once', async () => {
    t.clock.set(new Date('2026-11-27T09:00:00Z'));
    const uuid = await newJob('Gas smell in the kitchen');
    const put = await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'uncombusted_fuel_gas', severity: 'emergency' });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().data.clocks).toEqual([expect.objectContaining({
      kind: 'make_safe', state: 'running', due_at: '2026-11-28T09:00:00.000Z', due_at_text: 'Sat 28 Nov 2026, 09:00', time_left_seconds: 86_400,
    })]);

    t.clock.set(new Date('2026-11-28T08:59:59Z'));
    await hazardScanTask.run(t.deps);
    let clock = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data.clocks[0];
    expect(clock).toMatchObject({ state: 'at_risk', time_left_seconds: 1 });
    expect(await events('hazard.at_risk')).toHaveLength(1);
    expect(await events('hazard.breached')).toHaveLength(0);

    t.clock.set(new Date('2026-11-28T09:00:00Z'));
    await hazardScanTask.run(t.deps);
    await hazardScanTask.run(t.deps);
    clock = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data.clocks[0];
    expect(clock).toMatchObject({ state: 'breached', breached_at: '2026-11-28T09:00:00.000Z' });
    const breached = await events('hazard.breached');
    expect(breached).toHaveLength(1);
    expect(breached[0]!.payload).toMatchObject({ job_uuid: uuid, kind: 'make_safe', due_at: '2026-11-28T09:00:00.000Z' });

    // Made safe late: stays breached, the stop is recorded.
    t.clock.set(new Date('2026-11-28T10:00:00Z'));
    const made = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'made_safe' });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data.clocks[0]).toMatchObject({ state: 'breached', stopped_at: '2026-11-28T10:00:00.000Z', time_left_seconds: -3600 });
    const list = await w.agentA1.client.get('/api/hazards/breaches');
    expect(list.json().data.map((r: { job_uuid: string; state: string }) => [r.job_uuid, r.state])).toEqual([[uuid, 'breached']]);
  });

  it('a significant damp and mould hazard runs its working-day clocks; the summary reaches the tenant and stays on the job', async () => {
    // Reported Wed 23 Dec 2026 10:00: investigation due by the end of Mon 11 Jan 2027 (worked above).
    t.clock.set(new Date('2026-12-23T10:00:00Z'));
    const uuid = await newJob('Black mould in the bedroom');
    const put = await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant', description: 'Mould on the ceiling' });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().data.clocks).toEqual([expect.objectContaining({ kind: 'investigate', due_at: '2027-01-12T00:00:00.000Z', due_at_text: 'Tue 12 Jan 2027, 00:00' })]);

    const early = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary`, { findings: 'x', actions: 'y' });
    expect(early.statusCode).toBe(409);
    const wrong = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'made_safe' });
    expect(wrong.statusCode).toBe(409);
    const future = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'investigated', at: '2027-01-01T00:00:00Z' });
    expect(future.statusCode).toBe(400);

    // Investigated Tue 29 Dec 11:00: the summary is due by the end of Mon 4 Jan (Wed 30 (1), Thu 31 (2), Fri 1 Jan a bank holiday, Mon 4 (3)).
    t.clock.set(new Date('2026-12-29T11:00:00Z'));
    const inv = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'investigated' });
    expect(inv.statusCode, inv.body).toBe(200);
    const byKind = Object.fromEntries(inv.json().data.clocks.map((c: { kind: string }) => [c.kind, c]));
    expect(byKind.investigate).toMatchObject({ state: 'met', stopped_at: '2026-12-29T11:00:00.000Z' });
    expect(byKind.summary).toMatchObject({ state: 'running', due_at: '2027-01-05T00:00:00.000Z' });
    // Relevant safety work within 5 working days (reg. 11(2)(a)): Wed 30, Thu 31, Mon 4, Tue 5, Wed 6.
    expect(byKind.works_start).toMatchObject({ state: 'running', due_at: '2027-01-07T00:00:00.000Z' });
    // Further works begun within the same 5 working days (reg. 13(2)); no completion clock (reg. 13(4)).
    expect(byKind.further_works_start).toMatchObject({ state: 'running', due_at: '2027-01-07T00:00:00.000Z' });
    expect(byKind.works_complete).toBeUndefined();

    t.clock.set(new Date('2026-12-30T15:00:00Z'));
    const sum = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary`, { findings: 'Condensation from a failed extractor fan.', actions: 'Replace the fan and treat the mould.' });
    expect(sum.statusCode, sum.body).toBe(200);
    const h = sum.json().data;
    expect(h.summary_sent_at).toBe('2026-12-30T15:00:00.000Z');
    expect(h.summary.text).toContain('What we found: Condensation from a failed extractor fan.');
    expect(h.summary.text).toContain('Work to make your home safe will be done by Wed 6 Jan 2027.');
    expect(h.summary.text).toContain('Further work to stop it coming back will begin by Wed 6 Jan 2027 and be completed within a reasonable time.');
    // Issued is not delivered: the clock stops when the e-mail is sent.
    expect(h.summary).toMatchObject({ delivered_at: null, delivery_method: null });
    expect(h.clocks.find((c: { kind: string }) => c.kind === 'summary')).toMatchObject({ state: 'running', stopped_at: null });
    const again = await w.agentA1.client.post(`/api/jobs/${uuid}/hazard/summary`, { findings: 'x', actions: 'y' });
    expect(again.statusCode).toBe(409);

    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = await t.db.selectFrom('message_deliveries').select(['template_key', 'recipient_kind', 'status', 'subject']).where('template_key', '=', 'hazard.summary').execute();
    expect(rows).toEqual([expect.objectContaining({ recipient_kind: 'tenant', status: 'queued', subject: expect.stringContaining('damp and mould growth') })]);
    t.clock.set(new Date('2026-12-30T15:01:00Z'));
    await sendDueDeliveries(t.deps);
    await hazardScanTask.run(t.deps);
    const delivered = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data;
    expect(delivered.summary).toMatchObject({ delivered_at: '2026-12-30T15:01:00.000Z', delivery_method: 'email' });
    expect(delivered.clocks.find((c: { kind: string }) => c.kind === 'summary')).toMatchObject({ state: 'met', stopped_at: '2026-12-30T15:01:00.000Z' });

    // Erasing the tenant (GDPR) restricts rather than scrubs the summary sent to them: it is the
    // evidence of the statutory duty, kept until the agency's hazard-records period ends, and the
    // erasure's answer says so (docs/gdpr.md "Erasure and retention"; the retention task scrubs it
    // then: test/platform/gdpr/erasure-retention.test.ts).
    const greeted = /Hello (.+),/.exec(h.summary.text)![1]!;
    expect(greeted).toBe('Test tenant'); // the tenant's account
    const erased = await w.adminA.client.post(`/api/tenants/${w.tenant.uuid}/erase`, { force: true });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data.retained).toEqual([expect.objectContaining({ record_kind: 'hazard_records', table: 'job_hazards.summary_text' })]);
    const after = (await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).json().data;
    expect(after.summary.text).toContain(greeted);
  });

  it('refuses bad input and other agencies', async () => {
    t.clock.set(new Date('2027-01-10T10:00:00Z'));
    const uuid = await newJob('Leaking roof', w.tenant2, w.address2);
    expect((await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'bogus', severity: 'emergency' })).statusCode).toBe(400);
    expect((await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'fire', severity: 'minor' })).statusCode).toBe(400);
    expect((await w.agentA1.client.put(`/api/jobs/${uuid}/hazard`, { category: 'fire', severity: 'emergency', reported_at: '2027-02-01T00:00:00Z' })).statusCode).toBe(400);
    expect((await w.agentA1.client.get(`/api/jobs/${uuid}/hazard`)).statusCode).toBe(404);
    expect((await w.adminB.client.put(`/api/jobs/${uuid}/hazard`, { category: 'fire', severity: 'emergency' })).statusCode).toBe(404);
    expect((await w.agentA1.client.get('/api/hazards/categories')).json().count).toBe(29);
  });
});
