/**
 * Visits booked by the people involved (docs/tenant-reporting.md "Booking the visit"): the
 * tenant's windows and their rules (future, 60-day horizon, no overlap, at most 6, 1 to 12 hours);
 * the contractor's timed slot through the booking move, inside a window and clear of its other
 * bookings (409); the tenant's pick of a free slot; the day-before reminder once; a missed visit
 * with who missed it, in the job's history and the contractor's scorecard; other parties refused;
 * the tenant's signed link (no account): sent on assignment, scoped, single-use, expiring.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { sendVisitReminders } from '../../../src/modules/jobs/jobs/visits.service.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../../helpers/factories.ts';

type Client = Awaited<ReturnType<typeof userClient>>['client'];

describe('visit booking', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: Client;
  let tenantEmail: string;
  let fixerEmail: string;
  let otherTenant: Client;
  let fixer: Client;
  let contractor: { id: number; uuid: string };
  let tenantRow: { id: number };
  let house: { id: number };
  const dispatch = () => dispatchPendingEvents(t.deps, backgroundHandlers());
  const textOf = (c: unknown) => ((typeof c === 'string' ? JSON.parse(c) : c) as { text: string }).text;
  const at = (s: string) => new Date(s).toISOString();
  // Thursday 26 Nov 2026, 10:00 London (GMT: London time is UTC in November).
  const NOW = new Date('2026-11-26T10:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(NOW);
    house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    tenantRow = await insertTenant(t.db, w.agencyA.id, [house.id], 'Emily Clarke');
    await t.db.updateTable('tenants').set({ email: 'emily@example.test' }).where('id', '=', tenantRow.id).execute();
    const tu = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: tenantRow.id, name: 'Emily Clarke' });
    tenant = tu.client;
    tenantEmail = tu.user.email;
    const other = await insertTenant(t.db, w.agencyA.id, [], 'Someone Else');
    otherTenant = (await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: other.id })).client;
    contractor = await insertContractor(t.db, w.agencyA.id, 'Aire Heating');
    await t.db.updateTable('contractors').set({ email: 'jobs@aire.test' }).where('id', '=', contractor.id).execute();
    const cu = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId: contractor.id, name: 'Dave Aire' });
    fixer = cu.client;
    fixerEmail = cu.user.email;
  });
  afterAll(async () => t?.close());

  const assignedJob = (extra: Record<string, unknown> = {}) =>
    insertJob(t.db, {
      agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 4, contractor_id: contractor.id, tenant_id: tenantRow.id, address_id: house.id,
      assigned_at: NOW, title: 'Boiler not firing', ...extra,
    }, NOW);
  const windows = (uuid: string, list: Array<[string, string]>, c: Client = tenant) =>
    c.put(`/api/jobs/${uuid}/visit/windows`, { windows: list.map(([s, e]) => ({ starts_at: s, ends_at: e })) });

  let job: { id: number; uuid: string };

  it('the tenant gives windows; the plan shows them in London time', async () => {
    job = await assignedJob();
    const res = await windows(job.uuid, [['2026-11-30T13:00:00Z', '2026-11-30T17:00:00Z'], ['2026-11-27T09:00:00Z', '2026-11-27T12:00:00Z']]);
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json().data;
    expect(plan.windows.map((x: { label: string }) => x.label)).toEqual(['Fri 27 Nov 2026, 09:00-12:00', 'Mon 30 Nov 2026, 13:00-17:00']);
    expect(plan.windows[0]).toMatchObject({ starts_at: '2026-11-27T09:00:00.000Z', ends_at: '2026-11-27T12:00:00.000Z', given_by: 'tenant' });
    expect(plan.visit).toBeNull();
    // Only slots the tenant can book are offered: none of the agency's slots with hours (08:00-12:00,
    // 12:00-17:00, 17:00-20:00, 08:00-18:00) lies inside 09:00-12:00 or 13:00-17:00.
    expect(plan.free_slots).toEqual([]);
    expect(plan.rules).toEqual({ max_windows: 6, horizon_days: 60, min_minutes: 60, max_hours: 12 });
    // The contractor and the agent read the same plan.
    expect((await fixer.get(`/api/jobs/${job.uuid}/visit`)).json().data.windows).toHaveLength(2);
    expect((await w.agentA1.client.get(`/api/jobs/${job.uuid}/visit`)).json().data.windows).toHaveLength(2);
  });

  it('refuses windows in the past, beyond 60 days, overlapping, too many, too short or too long (400 naming the rule)', async () => {
    const cases: Array<[Array<[string, string]>, string]> = [
      [[['2026-11-26T08:00:00Z', '2026-11-26T11:00:00Z']], 'The window Thu 26 Nov 2026, 08:00-11:00 is not in the future'],
      [[['2027-01-25T09:00:00Z', '2027-01-25T12:00:00Z']], 'The window Mon 25 Jan 2027, 09:00-12:00 ends more than 60 days ahead'],
      [[['2026-11-27T09:00:00Z', '2026-11-27T12:00:00Z'], ['2026-11-27T11:00:00Z', '2026-11-27T14:00:00Z']], 'The windows Fri 27 Nov 2026, 09:00-12:00 and Fri 27 Nov 2026, 11:00-14:00 overlap'],
      [[['2026-11-27T09:00:00Z', '2026-11-27T09:30:00Z']], 'The window Fri 27 Nov 2026, 09:00-09:30 is shorter than 60 minutes'],
      [[['2026-11-27T06:00:00Z', '2026-11-27T19:00:00Z']], 'The window Fri 27 Nov 2026, 06:00-19:00 is longer than 12 hours'],
      [[['2026-11-27T12:00:00Z', '2026-11-27T09:00:00Z']], 'The window Fri 27 Nov 2026, 12:00-09:00 ends before it starts'],
      [Array.from({ length: 7 }, (_, i) => [`2026-12-0${i + 1}T09:00:00Z`, `2026-12-0${i + 1}T12:00:00Z`] as [string, string]), 'At most 6 windows'],
    ];
    for (const [list, error] of cases) {
      const res = await windows(job.uuid, list);
      expect(res.statusCode, error).toBe(400);
      expect(res.json()).toEqual({ success: false, error });
    }
    // Exactly 6 fit; touching windows do not overlap.
    const six = Array.from({ length: 6 }, (_, i) => [`2026-12-0${i + 1}T09:00:00Z`, `2026-12-0${i + 1}T12:00:00Z`] as [string, string]);
    expect((await windows(job.uuid, six)).statusCode).toBe(200);
    expect((await windows(job.uuid, [['2026-11-27T09:00:00Z', '2026-11-27T12:00:00Z'], ['2026-11-27T12:00:00Z', '2026-11-27T14:00:00Z']])).statusCode).toBe(200);
    // Back to the first two windows.
    expect((await windows(job.uuid, [['2026-11-30T13:00:00Z', '2026-11-30T17:00:00Z'], ['2026-11-27T09:00:00Z', '2026-11-27T12:00:00Z']])).statusCode).toBe(200);
  });

  it('only the job\'s tenant or its staff give windows; other agencies see no job', async () => {
    const list: Array<[string, string]> = [['2026-11-27T09:00:00Z', '2026-11-27T12:00:00Z']];
    expect((await windows(job.uuid, list, otherTenant)).statusCode).toBe(404);
    expect((await windows(job.uuid, list, fixer)).statusCode).toBe(403);
    expect((await windows(job.uuid, list, w.adminB.client)).statusCode).toBe(404);
    expect((await w.adminB.client.get(`/api/jobs/${job.uuid}/visit`)).statusCode).toBe(404);
    const bad = await tenant.put(`/api/jobs/${job.uuid}/visit/windows`, { windows: [{ starts_at: 'tomorrow', ends_at: '2026-11-27T12:00:00Z' }] });
    expect(bad.statusCode).toBe(400);
  });

  it('the contractor books a slot inside a window through the booking move; outside one is 400', async () => {
    const outside = await fixer.post(`/api/jobs/${job.uuid}/assignment/booking`, { starts_at: '2026-11-27T13:00:00Z', ends_at: '2026-11-27T15:00:00Z' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toBe("The slot Fri 27 Nov 2026, 13:00-15:00 is outside the tenant's windows: Fri 27 Nov 2026, 09:00-12:00; Mon 30 Nov 2026, 13:00-17:00");
    const half = await fixer.post(`/api/jobs/${job.uuid}/assignment/booking`, { starts_at: '2026-11-27T09:00:00Z' });
    expect(half.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: ends_at' });
    const res = await fixer.post(`/api/jobs/${job.uuid}/assignment/booking`, { starts_at: '2026-11-27T09:00:00Z', ends_at: '2026-11-27T11:00:00Z' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Scheduled', scheduled_for: '2026-11-27T00:00:00.000Z' });
    const plan = (await tenant.get(`/api/jobs/${job.uuid}/visit`)).json().data;
    expect(plan.visit).toMatchObject({ label: 'Fri 27 Nov 2026, 09:00-11:00', booked_by: 'contractor', reminder_sent_at: null });
    const history = (await w.agentA1.client.get(`/api/jobs/${job.uuid}/history`)).json().data;
    expect(history.at(-1)).toMatchObject({ to_status: 'Scheduled', note: 'Visit booked by the contractor for Fri 27 Nov 2026, 09:00-11:00' });
    await dispatch();
    const mail = await t.db.selectFrom('message_deliveries').select(['recipient_address', 'subject']).where('template_key', '=', 'job.visit_booked').where('channel', '=', 'email').execute();
    expect(mail).toContainEqual({ recipient_address: tenantEmail, subject: expect.stringContaining('Friday 27 November 2026') });
  });

  it('a slot overlapping another booking of the contractor is refused with 409', async () => {
    const second = await assignedJob({ title: 'Radiator cold' });
    const clash = await fixer.post(`/api/jobs/${second.uuid}/assignment/booking`, { starts_at: '2026-11-27T10:00:00Z', ends_at: '2026-11-27T12:00:00Z' });
    expect(clash.statusCode).toBe(409);
    const ref = (await t.db.selectFrom('jobs').select('reference').where('id', '=', job.id).executeTakeFirstOrThrow()).reference;
    expect(clash.json().error).toBe(`You already have a visit Fri 27 Nov 2026, 09:00-11:00 (job ${ref}); Fri 27 Nov 2026, 10:00-12:00 overlaps it`);
    // A job booked by date with a slot's hours (Afternoon 12:00-17:00) blocks those hours too.
    const dated = await assignedJob({ title: 'Tap drips', status_id: 5, scheduled_for: new Date('2026-12-01T00:00:00Z'), time_range_id: 2 });
    const clash2 = await fixer.post(`/api/jobs/${second.uuid}/assignment/booking`, { starts_at: '2026-12-01T16:00:00Z', ends_at: '2026-12-01T18:00:00Z' });
    expect(clash2.statusCode).toBe(409);
    expect(clash2.json().error).toContain('Tue 1 Dec 2026, 12:00-17:00');
    const fine = await fixer.post(`/api/jobs/${second.uuid}/assignment/booking`, { starts_at: '2026-11-27T11:00:00Z', ends_at: '2026-11-27T13:00:00Z' });
    expect(fine.statusCode, fine.body).toBe(200);
    await t.db.updateTable('jobs').set({ status_id: 10 }).where('id', 'in', [second.id, dated.id]).execute();
  });

  it('the tenant picks one of the contractor\'s free slots; a slot that is not free is refused', async () => {
    const third = await assignedJob({ title: 'Shower leaks' });
    const plan = (await tenant.get(`/api/jobs/${third.uuid}/visit`)).json().data;
    // Weekdays from tomorrow, the agency's slots with hours; Friday morning overlaps the first job's visit.
    expect(plan.free_slots[0]).toEqual({ starts_at: '2026-11-27T12:00:00.000Z', ends_at: '2026-11-27T17:00:00.000Z', label: 'Fri 27 Nov 2026, 12:00-17:00' });
    expect(plan.free_slots.some((s: { label: string }) => s.label.startsWith('Sat') || s.label.startsWith('Sun'))).toBe(false);
    const taken = await tenant.post(`/api/jobs/${third.uuid}/visit/choice`, { starts_at: '2026-11-27T08:00:00Z', ends_at: '2026-11-27T12:00:00Z' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('The contractor is no longer free Fri 27 Nov 2026, 08:00-12:00: pick another slot');
    const odd = await tenant.post(`/api/jobs/${third.uuid}/visit/choice`, { starts_at: '2026-11-30T08:30:00Z', ends_at: '2026-11-30T10:00:00Z' });
    expect(odd.statusCode).toBe(400);
    expect((await fixer.post(`/api/jobs/${third.uuid}/visit/choice`, plan.free_slots[0])).statusCode).toBe(403);
    expect((await otherTenant.post(`/api/jobs/${third.uuid}/visit/choice`, plan.free_slots[0])).statusCode).toBe(404);
    const res = await tenant.post(`/api/jobs/${third.uuid}/visit/choice`, { starts_at: plan.free_slots[0].starts_at, ends_at: plan.free_slots[0].ends_at });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('Scheduled');
    expect((await fixer.get(`/api/jobs/${third.uuid}/visit`)).json().data.visit).toMatchObject({ booked_by: 'tenant', label: 'Fri 27 Nov 2026, 12:00-17:00' });
    await dispatch();
    const told = await t.db.selectFrom('message_deliveries').select(['recipient_address']).where('template_key', '=', 'job.visit_booked_contractor').where('channel', '=', 'email').execute();
    expect(told).toEqual([{ recipient_address: fixerEmail }]);
    // The slot is no longer free for another job of the contractor.
    const fourth = await assignedJob({ title: 'Extractor fan' });
    const after = (await tenant.get(`/api/jobs/${fourth.uuid}/visit`)).json().data.free_slots.map((s: { label: string }) => s.label);
    expect(after).not.toContain('Fri 27 Nov 2026, 12:00-17:00');
    await t.db.updateTable('jobs').set({ status_id: 10 }).where('id', '=', fourth.id).execute();
  });

  it('reminds the tenant and the contractor the day before, once', async () => {
    t.clock.set(new Date('2026-11-26T18:00:00Z'));
    expect(await sendVisitReminders(t.deps)).toBe(2);
    expect(await sendVisitReminders(t.deps)).toBe(0);
    await dispatch();
    const rows = await t.db.selectFrom('message_deliveries').select(['template_key', 'recipient_address', 'subject'])
      .where('template_key', 'in', ['job.visit_reminder', 'job.visit_reminder_contractor']).where('channel', '=', 'email').orderBy('id').execute();
    expect(rows.map((r) => r.template_key).sort()).toEqual(['job.visit_reminder', 'job.visit_reminder', 'job.visit_reminder_contractor', 'job.visit_reminder_contractor']);
    expect(rows.find((r) => r.template_key === 'job.visit_reminder')?.subject).toContain('Reminder: visit tomorrow, Friday 27 November 2026');
    expect((await tenant.get(`/api/jobs/${job.uuid}/visit`)).json().data.visit.reminder_sent_at).toBe(at('2026-11-26T18:00:00Z'));
  });

  it('records a missed visit with who missed it: history, plan and scorecard', async () => {
    const early = await fixer.post(`/api/jobs/${job.uuid}/visit/missed`, { missed_by: 'tenant' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('The visit Fri 27 Nov 2026, 09:00-11:00 has not started yet');
    t.clock.set(new Date('2026-11-27T11:30:00Z'));
    expect((await fixer.post(`/api/jobs/${job.uuid}/visit/missed`, { missed_by: 'contractor' })).statusCode).toBe(403);
    expect((await tenant.post(`/api/jobs/${job.uuid}/visit/missed`, { missed_by: 'tenant' })).statusCode).toBe(403);
    const res = await fixer.post(`/api/jobs/${job.uuid}/visit/missed`, { missed_by: 'tenant', note: 'Rang twice, no answer' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Assigned', scheduled_for: null });
    const history = (await w.agentA1.client.get(`/api/jobs/${job.uuid}/history`)).json().data;
    expect(history.at(-1)).toMatchObject({ from_status: 'Scheduled', to_status: 'Assigned', note: 'Visit Fri 27 Nov 2026, 09:00-11:00 missed: the tenant was not in (no access). Rang twice, no answer' });
    const plan = (await tenant.get(`/api/jobs/${job.uuid}/visit`)).json().data;
    expect(plan.visit).toBeNull();
    expect(plan.missed).toEqual([expect.objectContaining({ label: 'Fri 27 Nov 2026, 09:00-11:00', missed_by: 'tenant', note: null })]);
    expect((await w.agentA1.client.get(`/api/jobs/${job.uuid}/visit`)).json().data.missed[0].note).toBe('Rang twice, no answer');
    // The tenant of the other booked job records the contractor's no-show after its start.
    const third = await t.db.selectFrom('jobs').select(['uuid']).where('title', '=', 'Shower leaks').executeTakeFirstOrThrow();
    t.clock.set(new Date('2026-11-27T17:30:00Z'));
    const noShow = await tenant.post(`/api/jobs/${third.uuid}/visit/missed`, { missed_by: 'contractor' });
    expect(noShow.statusCode, noShow.body).toBe(200);
    const again = await tenant.post(`/api/jobs/${third.uuid}/visit/missed`, { missed_by: 'contractor' });
    expect(again.statusCode).toBe(409);
    const card = (await w.adminA.client.get(`/api/contractors/${contractor.uuid}/scorecard`)).json().data;
    expect(card.attendance).toMatchObject({ no_shows: 1, tenant_no_access: 1 });
    expect(card.attendance.visits_due).toBeGreaterThanOrEqual(1);
    // The missed job can be booked again inside the tenant's windows.
    const rebook = await fixer.post(`/api/jobs/${job.uuid}/assignment/booking`, { starts_at: '2026-11-30T13:00:00Z', ends_at: '2026-11-30T15:00:00Z' });
    expect(rebook.statusCode, rebook.body).toBe(200);
  });

  it("a tenant without an account answers by a signed, single-use, expiring link sent on assignment", async () => {
    t.clock.set(new Date('2026-11-28T09:00:00Z'));
    const lodger = await insertTenant(t.db, w.agencyA.id, [house.id], 'Omar Lodger');
    await t.db.updateTable('tenants').set({ email: 'omar@example.test' }).where('id', '=', lodger.id).execute();
    const approved = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 3, tenant_id: lodger.id, address_id: house.id, title: 'Window stuck' }, t.clock.now());
    const assign = await w.agentA1.client.post(`/api/jobs/${approved.uuid}/assignment`, { contractor_uuid: contractor.uuid });
    expect(assign.statusCode, assign.body).toBe(200);
    await dispatch();
    // Emily got one already, after the contractor's no-show on her job above.
    const mail = await t.db.selectFrom('message_deliveries').select(['recipient_address', 'subject', 'content']).where('template_key', '=', 'visit.windows_requested').orderBy('id').execute();
    expect(mail.map((m) => m.recipient_address)).toEqual(['emily@example.test', 'omar@example.test']);
    mail.shift();
    const text = textOf(mail[0]!.content);
    const token = /\/visit\?token=([0-9a-f]{32}\.[A-Za-z0-9_-]{43})/.exec(text)![1]!;
    const view = await t.app.inject({ method: 'GET', url: `/api/visits/link/${token}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.headers['cache-control']).toBe('no-store');
    expect(view.json().data).toMatchObject({ tenant_name: 'Omar Lodger', plan: { title: 'Window stuck', status: 'Assigned', windows: [], contractor_name: 'Aire Heating' } });
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expect((await t.app.inject({ method: 'GET', url: `/api/visits/link/${tampered}` })).statusCode).toBe(400);
    // A refused action leaves the link usable.
    const bad = await t.app.inject({ method: 'POST', url: `/api/visits/link/${token}`, payload: { action: 'windows', windows: [{ starts_at: '2026-11-27T09:00:00Z', ends_at: '2026-11-27T12:00:00Z' }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('The window Fri 27 Nov 2026, 09:00-12:00 is not in the future');
    const res = await t.app.inject({ method: 'POST', url: `/api/visits/link/${token}`, payload: { action: 'windows', windows: [{ starts_at: '2026-12-02T08:00:00Z', ends_at: '2026-12-02T12:00:00Z' }] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan.windows).toEqual([expect.objectContaining({ label: 'Wed 2 Dec 2026, 08:00-12:00', given_by: 'link' })]);
    const again = await t.app.inject({ method: 'POST', url: `/api/visits/link/${token}`, payload: { action: 'windows', windows: [] } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, error: 'This visit link has been used: your answer is with the contractor' });
    // The contractor books inside the window.
    const booked = await fixer.post(`/api/jobs/${approved.uuid}/assignment/booking`, { starts_at: '2026-12-02T09:00:00Z', ends_at: '2026-12-02T11:00:00Z' });
    expect(booked.statusCode, booked.body).toBe(200);
    // The visit is missed by the contractor: the agent records it and the tenant gets a new link that expires after 14 days.
    t.clock.set(new Date('2026-12-02T12:00:00Z'));
    expect((await w.agentA1.client.post(`/api/jobs/${approved.uuid}/visit/missed`, { missed_by: 'contractor', note: 'Van broke down' })).statusCode).toBe(200);
    await dispatch();
    const second = await t.db.selectFrom('message_deliveries').select(['subject', 'content']).where('template_key', '=', 'visit.windows_requested').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(second.subject).toContain('Book the visit again');
    const token2 = /\/visit\?token=([0-9a-f]{32}\.[A-Za-z0-9_-]{43})/.exec(textOf(second.content))![1]!;
    t.clock.set(new Date('2026-12-16T12:00:01Z'));
    const expired = await t.app.inject({ method: 'GET', url: `/api/visits/link/${token2}` });
    expect(expired.statusCode).toBe(410);
    // Another tenant's link does not open this job: the signature names the job and the tenant.
    expect((await t.app.inject({ method: 'GET', url: `/api/visits/link/${token2.slice(0, 32)}.${token.slice(33)}` })).statusCode).toBe(400);
  });
});

/**
 * Free slots and reminders over Christmas and New Year (docs/tenant-reporting.md "Booking the
 * visit"): no slot on a bank holiday of the agency's UK region (the SLA calendar's, date-holidays),
 * Mon 4 Jan 2027 (Scotland's substitute for Sat 2 Jan) offered in England but not in Scotland, a
 * holiday slot refused to the tenant, and no reminder inside the SMS quiet hours (21:00-08:00).
 */
describe('visit booking around bank holidays', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: Client;
  let job: { id: number; uuid: string };
  // Monday 21 Dec 2026, 10:00 London: the 14 offered days run from Tue 22 Dec to Mon 4 Jan 2027.
  const NOW = new Date('2026-12-21T10:00:00Z');
  const days = async () => [...new Set<string>((await tenant.get(`/api/jobs/${job.uuid}/visit`)).json().data.free_slots.map((s: { label: string }) => s.label.split(',')[0]))];
  const region = (uk_region: string) => t.db.updateTable('agencies').set({ uk_region }).where('id', '=', w.agencyA.id).execute();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(NOW);
    const house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '3 Leith Walk', postcode: 'EH6 8LN' });
    const tenantRow = await insertTenant(t.db, w.agencyA.id, [house.id], 'Isla Murray');
    tenant = (await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId: tenantRow.id, name: 'Isla Murray' })).client;
    const contractor = await insertContractor(t.db, w.agencyA.id, 'Forth Plumbing');
    job = await insertJob(t.db, {
      agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 4, contractor_id: contractor.id, tenant_id: tenantRow.id, address_id: house.id,
      assigned_at: NOW, title: 'Kitchen tap leaks',
    }, NOW);
  });
  afterAll(async () => t?.close());

  it('England and Wales: no slot on Christmas Day, the Boxing Day substitute nor New Year\'s Day; Mon 4 Jan is offered', async () => {
    await region('england-and-wales');
    expect(await days()).toEqual([
      'Tue 22 Dec 2026', 'Wed 23 Dec 2026', 'Thu 24 Dec 2026', 'Tue 29 Dec 2026', 'Wed 30 Dec 2026', 'Thu 31 Dec 2026', 'Mon 4 Jan 2027',
    ]);
  });

  it('Scotland: Mon 4 Jan 2027 (the substitute for Sat 2 Jan) is a bank holiday too', async () => {
    await region('scotland');
    expect(await days()).toEqual(['Tue 22 Dec 2026', 'Wed 23 Dec 2026', 'Thu 24 Dec 2026', 'Tue 29 Dec 2026', 'Wed 30 Dec 2026', 'Thu 31 Dec 2026']);
    const res = await tenant.post(`/api/jobs/${job.uuid}/visit/choice`, { starts_at: '2027-01-04T08:00:00Z', ends_at: '2027-01-04T12:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("Mon 4 Jan 2027, 08:00-12:00 is not one of the contractor's free slots (GET /api/jobs/{uuid}/visit)");
    const xmas = await tenant.post(`/api/jobs/${job.uuid}/visit/choice`, { starts_at: '2026-12-25T08:00:00Z', ends_at: '2026-12-25T12:00:00Z' });
    expect(xmas.statusCode).toBe(400);
    await region('england-and-wales');
  });

  it('the day-before reminder waits for the end of the quiet hours', async () => {
    const res = await tenant.post(`/api/jobs/${job.uuid}/visit/choice`, { starts_at: '2026-12-23T08:00:00Z', ends_at: '2026-12-23T12:00:00Z' });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.set(new Date('2026-12-21T23:35:00Z'));
    expect(await sendVisitReminders(t.deps)).toBe(0);
    t.clock.set(new Date('2026-12-22T07:35:00Z'));
    expect(await sendVisitReminders(t.deps)).toBe(0);
    t.clock.set(new Date('2026-12-22T08:35:00Z'));
    expect(await sendVisitReminders(t.deps)).toBe(1);
    t.clock.set(new Date('2026-12-22T20:35:00Z'));
    expect(await sendVisitReminders(t.deps)).toBe(0);
  });
});
