/**
 * Compliance by the letter of each regulation (docs/compliance.md "What a property needs" and "The
 * rules"): worked examples of the gas safety 12-month cap and 2-month rule (reg. 36(3)) with a leap
 * year and a BST change, MEES, the EICR's remedial works and tenant copy, alarms per storey and per
 * room checked on the day a tenancy begins, an imported portfolio with nothing recorded showing
 * every required item missing, and the bulk action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../../src/lib/crypto.ts';
import { londonDate } from '../../../src/lib/london-time.ts';
import { belowMees, findings, gasDeadline, latestExpiry } from '../../../src/modules/jobs/compliance/regulations.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress } from '../../helpers/factories.ts';

describe('the rules as pure functions', () => {
  it('gas: 12 months, or the kept anniversary for a check in the 2 months before the deadline (reg. 36(3))', () => {
    expect(gasDeadline('2026-11-20', '2027-01-15')).toBe('2028-01-15');
    expect(gasDeadline('2026-11-15', '2027-01-15')).toBe('2028-01-15'); // the window's first day
    expect(gasDeadline('2026-11-14', '2027-01-15')).toBe('2027-11-14'); // a day earlier: a new anniversary
    expect(gasDeadline('2027-01-15', '2027-01-15')).toBe('2028-01-15'); // on the deadline
    expect(gasDeadline('2027-01-20', '2027-01-15')).toBe('2028-01-20'); // late: 12 months from the check
    expect(gasDeadline('2026-03-10', null)).toBe('2027-03-10');
    // Leap years: the window of a 29 February deadline opens on 29 December; a deadline of 30 April
    // 2028 opens its window on 29 February 2028.
    expect(gasDeadline('2027-12-29', '2028-02-29')).toBe('2029-02-28');
    expect(gasDeadline('2027-12-28', '2028-02-29')).toBe('2028-12-28');
    expect(gasDeadline('2028-02-29', '2028-04-30')).toBe('2029-04-30');
    expect(gasDeadline('2028-02-28', '2028-04-30')).toBe('2029-02-28');
    expect(latestExpiry('eicr', '2026-11-20', null)).toBe('2031-11-20');
    expect(latestExpiry('epc', '2026-11-20', null)).toBeNull();
  });

  it('a check on the day the clocks go forward is dated by London, not UTC', () => {
    // BST began at 01:00 UTC on Sun 28 Mar 2027. 22:30 UTC on the 28th is 23:30 BST, still the 28th;
    // 23:30 UTC is 00:30 BST on Mon 29 Mar: the check is dated the 29th and its anniversary kept.
    expect(londonDate(new Date('2027-03-28T22:30:00Z'))).toBe('2027-03-28');
    const day = londonDate(new Date('2027-03-28T23:30:00Z'));
    expect(day).toBe('2027-03-29');
    expect(gasDeadline(day, null)).toBe('2028-03-29');
    // GMT came back at 01:00 UTC on Sun 25 Oct 2026: 00:30 UTC was 01:30 BST, the 25th.
    expect(londonDate(new Date('2026-10-24T23:30:00Z'))).toBe('2026-10-25');
    expect(gasDeadline('2026-10-25', '2026-12-25')).toBe('2027-12-25');
  });

  it('MEES: below E is F and G', () => {
    expect(['A', 'B', 'C', 'D', 'E', 'F', 'G'].map(belowMees)).toEqual([false, false, false, false, false, true, true]);
    expect(belowMees(null)).toBe(false);
  });

  it('findings read the owed copy, remedial works and alarms in London dates', () => {
    const base = {
      type_code: 'eicr', today: '2026-11-26', has_certificate: true, epc_rating: null, exemption_until: null, outcome: 'unsatisfactory',
      remedial_due_on: '2026-12-18', remedial_completed_on: null, tenant_copy_due_on: '2026-11-25', tenant_copy_served_on: null,
      storeys: 3, combustion_rooms: ['Living room'], smoke_alarm_storeys: null, co_alarm_rooms: null,
    };
    expect(findings(base)).toEqual(['Remedial works due by Fri 18 Dec 2026', 'Copy to the tenant overdue since Wed 25 Nov 2026']);
    expect(findings({ ...base, type_code: 'smoke_co_alarms', outcome: null, remedial_due_on: null, tenant_copy_due_on: null, smoke_alarm_storeys: 2, co_alarm_rooms: [] }))
      .toEqual(['Smoke alarm working on 2 of 3 storeys', 'No working CO alarm recorded in: Living room']);
  });
});

describe('the register by regulation, through the API', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const item = async (client: typeof w.adminA.client, address: string, type: string) => {
    const res = await client.get(`/api/compliance?address_uuid=${address}&type=${type}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { uuid: string; status: string; findings: string[]; regulation: string; derived: boolean };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(new Date('2026-11-26T10:00:00Z')); // Thu 26 Nov 2026
  });
  afterAll(async () => t?.close());

  it('an imported portfolio with nothing recorded shows every required item missing, each row citing its regulation', async () => {
    const now = t.clock.now();
    const building = await t.db
      .insertInto('buildings')
      .values({ uuid: newUuid(), agency_id: w.agencyB.id, branch_id: null, building_name: 'Kirkgate House', town: 'Leeds', postcode: 'LS1 6BY', created_at: now, updated_at: now })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    const house = await insertAddress(t.db, { agencyId: w.agencyB.id, branchId: null, line1: '4 Aire Street', postcode: 'LS1 4PR' });
    const flat = await insertAddress(t.db, { agencyId: w.agencyB.id, branchId: null, line1: 'Flat 2, Kirkgate House', postcode: 'LS1 6BY' });
    const communal = await insertAddress(t.db, { agencyId: w.agencyB.id, branchId: null, line1: 'Common parts, Kirkgate House', postcode: 'LS1 6BY' });
    await t.db.updateTable('addresses').set({ building_id: building.id }).where('id', 'in', [flat.id, communal.id]).execute();
    await t.db.updateTable('addresses').set({ is_communal: true }).where('id', '=', communal.id).execute();

    const reg = (await w.adminB.client.get('/api/compliance?limit=200')).json();
    // Each of the two dwellings: gas (supply not recorded), EICR, EPC, alarms, legionella; the
    // common parts: fire risk assessment, communal electrics, communal legionella.
    expect(reg.totals).toEqual({ valid: 0, due_soon: 0, expired: 0, missing: 13, non_compliant: 0 });
    expect(reg.data.every((r: { status: string; derived: boolean; regulation: string }) => r.status === 'missing' && r.derived && r.regulation !== '')).toBe(true);
    expect((await item(w.adminB.client, house.uuid, 'gas_safety')).regulation).toContain('Gas Safety (Installation and Use) Regulations 1998, reg. 36(3)');
    expect((await w.adminB.client.get('/api/dashboard')).json().data.compliance).toMatchObject({ missing: 13, valid: 0 });

    // The building has a lift: its common parts need LOLER. The house has no gas: its gas item goes.
    const lift = await w.adminB.client.put(`/api/compliance/buildings/${building.uuid}/profile`, { has_lift: true });
    expect(lift.statusCode, lift.body).toBe(200);
    expect((await item(w.adminB.client, communal.uuid, 'loler')).status).toBe('missing');
    const profile = await w.adminB.client.put(`/api/compliance/properties/${house.uuid}/profile`, { gas_supply: false, storeys: 2, combustion_rooms: ['Living room', ' '] });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().data).toMatchObject({ gas_supply: false, storeys: 2, combustion_rooms: ['Living room'] });
    expect(profile.json().data.items.map((r: { type_code: string }) => r.type_code).sort()).toEqual(['eicr', 'epc', 'legionella', 'smoke_co_alarms']);
    expect((await w.adminB.client.get('/api/compliance')).json().totals.missing).toBe(13);
    expect((await w.adminA.client.put(`/api/compliance/properties/${house.uuid}/profile`, { storeys: 1 })).statusCode).toBe(404);
    expect((await w.adminB.client.put(`/api/compliance/properties/${house.uuid}/profile`, {})).statusCode).toBe(400);
    expect((await w.adminB.client.put(`/api/compliance/properties/${house.uuid}/profile`, { storeys: 0 })).statusCode).toBe(400);

    // Bulk: a custom type for the whole portfolio, then for the building (already there).
    expect((await w.adminB.client.post('/api/compliance/types', { code: 'pat_testing', name: 'PAT testing', interval_months: 12, required_document: 'PAT record' })).statusCode).toBe(201);
    const bulk = await w.adminB.client.post('/api/compliance/items/bulk', { type: 'pat_testing', all: true });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().data).toEqual({ type: 'pat_testing', properties: 3, created: 3, existing: 0 });
    expect((await w.adminB.client.post('/api/compliance/items/bulk', { type: 'pat_testing', building_uuid: building.uuid })).json().data)
      .toEqual({ type: 'pat_testing', properties: 2, created: 0, existing: 2 });
    expect((await w.adminB.client.post('/api/compliance/items/bulk', { type: 'pat_testing', address_uuids: [house.uuid], all: true })).statusCode).toBe(400);
    const foreign = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '1 Other Road', postcode: 'LS2 1AA' });
    expect((await w.adminB.client.post('/api/compliance/items/bulk', { type: 'pat_testing', address_uuids: [house.uuid, foreign.uuid] })).json())
      .toEqual({ success: false, error: 'Property not found' });
  });

  it('gas safety: 24 months ahead is refused; the 2-month rule keeps the anniversary (reg. 36(3))', async () => {
    const a = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    const b = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '14 Harehills Lane', postcode: 'LS8 4AA' });
    const gasA = await item(w.adminA.client, a.uuid, 'gas_safety');
    const gasB = await item(w.adminA.client, b.uuid, 'gas_safety');
    const long = await w.adminA.client.post(`/api/compliance/items/${gasA.uuid}/certificates`, { issued_on: '2026-01-15', expires_on: '2028-01-15' });
    expect(long.statusCode).toBe(422);
    expect(long.json().error).toBe('A gas safety record issued on Thu 15 Jan 2026 may expire on Fri 15 Jan 2027 at the latest (Gas Safety (Installation and Use) Regulations 1998 reg. 36(3): at intervals of not more than 12 months)');
    expect((await w.adminA.client.get(`/api/compliance/items/${gasA.uuid}`)).json().data.certificates).toEqual([]);
    for (const g of [gasA, gasB]) {
      const first = await w.adminA.client.post(`/api/compliance/items/${g.uuid}/certificates`, { issued_on: '2026-01-15' });
      expect(first.json().data).toMatchObject({ expires_on: '2027-01-15', tenant_copy_due_on: '2026-02-12' });
    }
    const kept = await w.adminA.client.post(`/api/compliance/items/${gasA.uuid}/certificates`, { issued_on: '2026-11-20', tenant_copy_served_on: '2026-11-20', tenant_copy_method: 'email' });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json().data).toMatchObject({ status: 'valid', expires_on: '2028-01-15', expires_on_text: 'Sat 15 Jan 2028', findings: [] });
    const reset = await w.adminA.client.post(`/api/compliance/items/${gasB.uuid}/certificates`, { issued_on: '2026-11-14' });
    expect(reset.json().data).toMatchObject({ expires_on: '2027-11-14', tenant_copy_due_on: '2026-12-12', findings: ['Copy to the tenant due by Sat 12 Dec 2026'] });
    expect((await w.adminA.client.post(`/api/compliance/items/${gasB.uuid}/certificates`, { issued_on: '2026-11-14', epc_rating: 'C' })).statusCode).toBe(422);
  });

  it('EPC below E is non-compliant until an exemption is registered (MEES)', async () => {
    const a = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '9 Cold Row', postcode: 'LS7 2BB' });
    const epc = await item(w.adminA.client, a.uuid, 'epc');
    const f = await w.adminA.client.post(`/api/compliance/items/${epc.uuid}/certificates`, { issued_on: '2024-02-14', epc_rating: 'F' });
    expect(f.json().data).toMatchObject({ status: 'non_compliant', epc_rating: 'F', expires_on: '2034-02-14', findings: ['Rated F, below E: may not be let (MEES) without a registered exemption'] });
    const cert = f.json().data.certificates[0].uuid;
    expect((await w.adminA.client.put(`/api/compliance/items/${epc.uuid}/certificates/${cert}`, { exemption_reference: 'PRSE-1234' })).statusCode).toBe(422);
    const ex = await w.adminA.client.put(`/api/compliance/items/${epc.uuid}/certificates/${cert}`, { exemption_reference: 'PRSE-1234', exemption_until: '2029-02-14' });
    expect(ex.statusCode, ex.body).toBe(200);
    expect(ex.json().data).toMatchObject({ status: 'valid', exemption_until: '2029-02-14', findings: ['Rated F, below E: exempt until Wed 14 Feb 2029 (PRS Exemptions Register)'] });
    expect((await w.adminA.client.get('/api/compliance?status=non_compliant')).json().count).toBe(0);
  });

  it('EICR: unsatisfactory has remedial works due in 28 days (or sooner), then non-compliant until done', async () => {
    const a = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '5 Spark Street', postcode: 'LS9 3CC' });
    const eicr = await item(w.adminA.client, a.uuid, 'eicr');
    const late = await w.adminA.client.post(`/api/compliance/items/${eicr.uuid}/certificates`, { issued_on: '2026-10-20', outcome: 'unsatisfactory', remedial_due_on: '2026-11-18' });
    expect(late.statusCode).toBe(422);
    expect(late.json().error).toContain('due by Tue 17 Nov 2026 at the latest');
    const res = await w.adminA.client.post(`/api/compliance/items/${eicr.uuid}/certificates`, { issued_on: '2026-10-20', outcome: 'unsatisfactory' });
    expect(res.json().data).toMatchObject({
      status: 'non_compliant', outcome: 'unsatisfactory', remedial_due_on: '2026-11-17', expires_on: '2031-10-20', tenant_copy_due_on: '2026-11-17',
      findings: ['Remedial works overdue since Tue 17 Nov 2026', 'Copy to the tenant overdue since Tue 17 Nov 2026'],
    });
    const cert = res.json().data.certificates[0].uuid;
    expect((await w.adminA.client.put(`/api/compliance/items/${eicr.uuid}/certificates/${cert}`, { remedial_completed_on: '2026-11-27' })).statusCode).toBe(422);
    const done = await w.adminA.client.put(`/api/compliance/items/${eicr.uuid}/certificates/${cert}`, { remedial_completed_on: '2026-11-16', tenant_copy_served_on: '2026-11-01', tenant_copy_method: 'post' });
    expect(done.json().data).toMatchObject({ status: 'valid', findings: [] });
    expect((await w.adminA.client.post(`/api/compliance/items/${eicr.uuid}/certificates`, { issued_on: '2026-11-20', outcome: 'unsatisfactory', remedial_due_on: '2026-12-04' })).json().data)
      .toMatchObject({ status: 'due_soon', remedial_due_on: '2026-12-04', findings: ['Remedial works due by Fri 4 Dec 2026', 'Copy to the tenant due by Fri 18 Dec 2026'] });
  });

  it('alarms: a smoke alarm per storey and a CO alarm per combustion room, checked on the day the tenancy begins', async () => {
    const a = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '7 Stair Road', postcode: 'LS10 4DD' });
    await w.adminA.client.put(`/api/compliance/properties/${a.uuid}/profile`, { storeys: 3, combustion_rooms: ['Living room', 'Bedroom 1'] });
    const alarms = await item(w.adminA.client, a.uuid, 'smoke_co_alarms');
    const wrongDay = await w.adminA.client.post(`/api/compliance/items/${alarms.uuid}/certificates`, { issued_on: '2026-11-02', tenancy_start_on: '2026-11-01', smoke_alarm_storeys: 3 });
    expect(wrongDay.statusCode).toBe(422);
    expect(wrongDay.json().error).toContain('on the day the tenancy begins (Sun 1 Nov 2026)');
    const short = await w.adminA.client.post(`/api/compliance/items/${alarms.uuid}/certificates`, {
      issued_on: '2026-11-01', tenancy_start_on: '2026-11-01', smoke_alarm_storeys: 2, co_alarm_rooms: ['Living room'],
    });
    expect(short.json().data).toMatchObject({ status: 'non_compliant', findings: ['Smoke alarm working on 2 of 3 storeys', 'No working CO alarm recorded in: Bedroom 1'] });
    const full = await w.adminA.client.post(`/api/compliance/items/${alarms.uuid}/certificates`, {
      issued_on: '2026-11-02', tenancy_start_on: '2026-11-02', smoke_alarm_storeys: 3, co_alarm_rooms: ['Living room', 'Bedroom 1'],
    });
    expect(full.json().data).toMatchObject({ status: 'valid', expires_on: null, findings: [] });
  });
});
