/**
 * Planned maintenance (docs/compliance.md "Planned maintenance"): schedules with RFC 5545 rules,
 * validation and agency isolation; the scheduler raising exactly one job per occurrence lead_days
 * ahead, approved and assigned as the system, idempotent across runs and across two scans at once;
 * a missed raise date raising only the latest occurrence; a per-type schedule covering every
 * property with an item of the type; the first document uploaded on a raised job becoming the
 * compliance item's certificate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { duesToRaise, maintenanceTask, raiseDueMaintenance } from '../../../src/modules/jobs/compliance/index.ts';
import { pdfBytes } from '../../../src/seed/demo/sample-files.ts';
import { buildTestApp, Client, login, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertTenant } from '../../helpers/factories.ts';
import { form } from '../../helpers/upload-form.ts';

const SCHEDULES = '/api/compliance/schedules';

describe('planned maintenance', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let house: { id: number; uuid: string };
  let flat: { id: number; uuid: string };
  let contractor: { id: number; uuid: string };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(new Date('2026-11-26T10:00:00Z'));
    house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    flat = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a2.id, line1: 'Flat 3, 8 Kirkgate', postcode: 'LS1 6BY' });
    await insertTenant(t.db, w.agencyA.id, [house.id], 'Grace Hopper');
    contractor = await insertContractor(t.db, w.agencyA.id, 'Aire Gas Services');
  });
  afterAll(async () => t?.close());

  /** A new login (the clock moves by months, past the bearer tokens' 90 days). */
  const as = async (who: { user: { email: string } }) => new Client(t.app, await login(t.app, who.user.email));
  const jobsOf = (addressId: number) =>
    t.db.selectFrom('jobs').select(['id', 'uuid', 'title', 'status_id', 'contractor_id', 'tenant_id', 'job_type_id', 'reported_by_user_id', 'branch_id'])
      .where('address_id', '=', addressId).orderBy('id').execute();

  it('refuses bad rules, a schedule for nothing, and references outside the agency', async () => {
    const c = w.agentA1.client;
    const base = { title: 'Gas safety check', address_uuid: house.uuid, type: 'gas_safety', starts_on: '2027-03-15', lead_days: 28 };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ...base, rrule: 'FREQ=HOURLY' }, 400, 'rrule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY'],
      [{ ...base, rrule: 'FREQ=YEARLY;FOO=1' }, 400, 'rrule is not a valid RFC 5545 rule'],
      [{ ...base, rrule: 'DTSTART:20270315\nRRULE:FREQ=YEARLY' }, 400, 'rrule must be one RRULE line'],
      [{ ...base, rrule: 'FREQ=YEARLY;DTSTART=20270315' }, 400, 'rrule must not carry DTSTART'],
      [{ ...base, rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' }, 400, 'rrule has no occurrence in the 20 years from starts_on'],
      [{ ...base, rrule: 'FREQ=YEARLY', address_uuid: undefined, type: undefined }, 400, 'Invalid or missing required parameter: address_uuid'],
      [{ ...base, rrule: 'FREQ=YEARLY', type: 'no_such_type' }, 400, 'Invalid or missing required parameter: type'],
      [{ ...base, rrule: 'FREQ=YEARLY', lead_days: 400 }, 400, ''],
      [{ ...base, rrule: 'FREQ=YEARLY', starts_on: '2027-02-30' }, 400, ''],
      [{ ...base, rrule: 'FREQ=YEARLY', trade_id: 999999 }, 400, 'Invalid or missing required parameter: trade_id'],
    ];
    for (const [body, status, message] of cases) {
      const res = await c.post(SCHEDULES, JSON.parse(JSON.stringify(body)));
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().success).toBe(false);
      if (message) expect(res.json().error).toContain(message);
    }
    const other = await insertAddress(t.db, { agencyId: w.agencyB.id, branchId: w.b1.id, line1: '1 Other Street', postcode: 'M1 1AA' });
    const otherContractor = await insertContractor(t.db, w.agencyB.id, 'Elsewhere Ltd');
    expect((await c.post(SCHEDULES, { ...base, rrule: 'FREQ=YEARLY', address_uuid: other.uuid })).json().error).toBe('Property not found');
    expect((await c.post(SCHEDULES, { ...base, rrule: 'FREQ=YEARLY', contractor_uuid: otherContractor.uuid })).json().error).toBe('Contractor not found');
    expect((await w.sysops.client.post(SCHEDULES, { ...base, rrule: 'FREQ=YEARLY' })).statusCode).toBe(403);
    expect((await t.db.selectFrom('maintenance_schedules').select('id').execute()).length).toBe(0);
  });

  let gas: string;
  it('creates a schedule for one property\'s gas safety check, adding its item, with the next occurrences', async () => {
    const res = await w.agentA1.client.post(SCHEDULES, {
      title: 'Annual gas safety check', address_uuid: house.uuid, type: 'gas_safety', rrule: 'RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15',
      starts_on: '2027-03-15', lead_days: 28, contractor_uuid: contractor.uuid,
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json().data;
    gas = s.uuid;
    expect(s).toMatchObject({
      title: 'Annual gas safety check', address: '12 Harehills Lane, Leeds LS8 4AA', type: 'gas_safety', rrule: 'FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15',
      starts_on: '2027-03-15', lead_days: 28, contractor_name: 'Aire Gas Services', priority: 4, active_from: '2026-11-26', retired: false, raised: [],
    });
    expect(s.next.slice(0, 2)).toEqual([
      { due_on: '2027-03-15', due_on_text: 'Mon 15 Mar 2027', raise_on: '2027-02-15' },
      { due_on: '2028-03-15', due_on_text: 'Wed 15 Mar 2028', raise_on: '2028-02-16' },
    ]);
    expect(s.next).toHaveLength(5);
    // (the property's other items, derived from what it is, are beside it: docs/compliance.md "What a property needs")
    const reg = (await w.agentA1.client.get(`/api/compliance?address_uuid=${house.uuid}&type=gas_safety`)).json();
    expect(reg.data.map((r: { type_code: string; status: string; derived: boolean }) => [r.type_code, r.status, r.derived])).toEqual([['gas_safety', 'missing', false]]);
  });

  it('raises the job exactly once, lead_days before the due date, approved and assigned by the system', async () => {
    t.clock.set(new Date('2027-02-14T23:30:00Z')); // still 14 Feb in London
    expect(await raiseDueMaintenance(t.deps)).toBe(0);
    t.clock.set(new Date('2027-02-15T00:10:00Z'));
    const [a, b] = await Promise.all([raiseDueMaintenance(t.deps), raiseDueMaintenance(t.deps)]); // two scans at once
    expect(a + b).toBe(1);
    expect(await raiseDueMaintenance(t.deps)).toBe(0);
    await maintenanceTask.run(t.deps);
    const jobs = await jobsOf(house.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ title: 'Annual gas safety check (due Mon 15 Mar 2027)', status_id: 4, contractor_id: contractor.id, job_type_id: 5, reported_by_user_id: null, branch_id: w.a1.id });
    expect(jobs[0]!.tenant_id).not.toBeNull();
    const history = await t.db.selectFrom('job_status_history').select(['from_status_id', 'to_status_id', 'by_user_id', 'note']).where('job_id', '=', jobs[0]!.id).orderBy('id').execute();
    expect(history.map((h) => [h.from_status_id, h.to_status_id, h.by_user_id])).toEqual([[null, 1, null], [1, 3, null], [3, 4, null]]);
    expect(history[1]!.note).toBe('Approved by maintenance schedule "Annual gas safety check"');
    const events = await t.db.selectFrom('outbox').select('name').where('name', 'in', ['job.created', 'job.assigned']).execute();
    expect(events.map((e) => e.name).sort()).toEqual(['job.assigned', 'job.created']);
    const job = (await (await as(w.agentA1)).get(`/api/jobs/${jobs[0]!.uuid}`)).json().data;
    expect(job.description).toContain('due Mon 15 Mar 2027');
    expect(job.description).toContain('Gas Safe');
    const detail = (await (await as(w.agentA1)).get(`${SCHEDULES}/${gas}`)).json().data;
    expect(detail.raised).toEqual([expect.objectContaining({ due_on: '2027-03-15', job_uuid: jobs[0]!.uuid, job_status: 'Assigned', certificate_uuid: null })]);
    expect(detail.next[0].due_on).toBe('2027-03-15');
  });

  it('takes the first document uploaded on the raised job as the item\'s certificate', async () => {
    const [job] = await jobsOf(house.id);
    t.clock.set(new Date('2027-03-10T09:00:00Z'));
    const up = await (await as(w.agentA1)).post(`/api/jobs/${job!.uuid}/documents`, form(pdfBytes(), 'CP12-2027.pdf'));
    expect(up.statusCode, up.body).toBe(201);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const reg = (await (await as(w.agentA1)).get(`/api/compliance?address_uuid=${house.uuid}&type=gas_safety`)).json().data[0];
    expect(reg).toMatchObject({ status: 'valid', issued_on: '2027-03-10', expires_on: '2028-03-10', contractor_name: 'Aire Gas Services', file_uuid: up.json().data.uuid });
    // A second document adds nothing.
    await (await as(w.agentA1)).post(`/api/jobs/${job!.uuid}/documents`, form(pdfBytes(), 'invoice.pdf'));
    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const item = (await (await as(w.agentA1)).get(`/api/compliance/items/${reg.uuid}`)).json().data;
    expect(item.certificates).toHaveLength(1);
    expect(item.certificates[0].job_uuid).toBe(job!.uuid);
    const detail = (await (await as(w.agentA1)).get(`${SCHEDULES}/${gas}`)).json().data;
    expect(detail.raised[0].certificate_uuid).toBe(item.certificates[0].uuid);
  });

  it('a per-type schedule covers every property with an item of the type; a missed raise date raises only the latest occurrence', async () => {
    t.clock.set(new Date('2027-04-01T09:00:00Z'));
    for (const a of [house, flat]) await (await as(w.adminA)).post('/api/compliance/items', { address_uuid: a.uuid, type: 'legionella' });
    const res = await (await as(w.adminA)).post(SCHEDULES, { title: 'Legionella flush', type: 'legionella', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', starts_on: '2027-01-01', lead_days: 7 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ address_uuid: null, address: null, type: 'legionella' });
    expect(res.json().data.next[0]).toEqual({ due_on: '2027-04-01', due_on_text: 'Thu 1 Apr 2027', raise_on: '2027-03-25' });
    // Due today (1 Apr) is raised now, late; 1 May is 30 days off.
    expect(await raiseDueMaintenance(t.deps)).toBe(2);
    // The worker is down until 20 Jul: 1 May, 1 Jun and 1 Jul were missed; only 1 Jul is raised, with 1 Aug (within 7 days? no: 12 days).
    t.clock.set(new Date('2027-07-20T09:00:00Z'));
    expect(await raiseDueMaintenance(t.deps)).toBe(2);
    const due = (a: number) => t.db.selectFrom('maintenance_occurrences').select((eb) => eb.fn<string>('to_char', [eb.ref('due_on'), eb.val('YYYY-MM-DD')]).as('d')).where('address_id', '=', a).where('item_id', 'is not', null).orderBy('due_on').execute();
    expect((await due(flat.id)).map((r) => r.d)).toEqual(['2027-04-01', '2027-07-01']);
    expect((await jobsOf(flat.id)).map((j) => [j.title, j.status_id, j.job_type_id])).toEqual([
      ['Legionella flush (due Thu 1 Apr 2027)', 3, 5], ['Legionella flush (due Thu 1 Jul 2027)', 3, 5],
    ]);
    // A property given the item later joins at the next raise.
    const cottage = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '2 Mill Cottages', postcode: 'LS6 2AA' });
    await (await as(w.adminA)).post('/api/compliance/items', { address_uuid: cottage.uuid, type: 'legionella' });
    t.clock.set(new Date('2027-07-25T09:00:00Z'));
    expect(await raiseDueMaintenance(t.deps)).toBe(4); // 1 Aug for the three, and 1 Jul (missed) for the cottage
  });

  it('lists with filters and pagination, edits, retires, and hides other agencies\' schedules', async () => {
    const c = await as(w.agentA1);
    const all = (await c.get(`${SCHEDULES}?limit=1`)).json();
    expect(all).toMatchObject({ success: true, count: 2 });
    expect(all.data).toHaveLength(1);
    expect((await c.get(`${SCHEDULES}?type=gas_safety`)).json().data.map((s: { uuid: string }) => s.uuid)).toEqual([gas]);
    expect((await c.get(`${SCHEDULES}?contractor_uuid=${contractor.uuid}`)).json().count).toBe(1);
    expect((await c.get(`${SCHEDULES}?address_uuid=${flat.uuid}`)).json().count).toBe(0);
    expect((await c.get(`${SCHEDULES}?state=bogus`)).statusCode).toBe(400);
    expect((await c.get(`${SCHEDULES}?colour=red`)).statusCode).toBe(400);
    expect((await (await as(w.adminB)).get(`${SCHEDULES}/${gas}`)).statusCode).toBe(404);
    expect((await (await as(w.adminB)).get(SCHEDULES)).json().count).toBe(0);
    expect((await (await as(w.adminB)).put(`${SCHEDULES}/${gas}`, { lead_days: 3 })).statusCode).toBe(404);

    expect((await c.put(`${SCHEDULES}/${gas}`, {})).statusCode).toBe(400);
    expect((await c.put(`${SCHEDULES}/${gas}`, { rrule: 'FREQ=SECONDLY' })).statusCode).toBe(400);
    const put = await c.put(`${SCHEDULES}/${gas}`, { lead_days: 42, contractor_uuid: null, rrule: 'FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=1' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ lead_days: 42, contractor_uuid: null, active_from: '2027-07-25', next: expect.arrayContaining([expect.objectContaining({ due_on: '2027-09-01', raise_on: '2027-07-21' })]) });
    const del = await c.delete(`${SCHEDULES}/${gas}`);
    expect(del.json().data).toMatchObject({ retired: true, next: [] });
    expect((await c.put(`${SCHEDULES}/${gas}`, { lead_days: 1 })).statusCode).toBe(409);
    expect((await c.get(SCHEDULES)).json().count).toBe(1);
    expect((await c.get(`${SCHEDULES}?state=retired`)).json().data.map((s: { uuid: string }) => s.uuid)).toEqual([gas]);
    t.clock.set(new Date('2027-08-25T09:00:00Z'));
    const before = (await jobsOf(house.id)).length;
    await raiseDueMaintenance(t.deps);
    expect((await jobsOf(house.id)).filter((j) => j.title.startsWith('Annual gas')).length).toBe(1);
    expect((await jobsOf(house.id)).length).toBeGreaterThanOrEqual(before);
  });

  it('duesToRaise counts from the later of starts_on and active_from', () => {
    const s = { rrule: 'FREQ=WEEKLY;BYDAY=MO', starts_on: '2026-01-05', active_from: '2026-11-26', lead_days: 3 };
    expect(duesToRaise(s, '2026-11-27')).toEqual(['2026-11-30']);
    expect(duesToRaise(s, '2026-12-10')).toEqual(['2026-12-07']);
    expect(duesToRaise({ ...s, lead_days: 4 }, '2026-12-10')).toEqual(['2026-12-07', '2026-12-14']);
    expect(duesToRaise({ ...s, starts_on: '2027-01-04' }, '2026-12-10')).toEqual([]);
  });
});
