/**
 * Custom compliance types per agency (docs/compliance.md "Custom types") and the hazard works
 * period set through the settings API (docs/compliance.md "Hazards and statutory clocks"): create,
 * edit and retire a type with its legal interval and document; items, certificates and schedules
 * use it; the UK types are not editable; another agency does not see it; the agency's works period
 * is the default of hazards set afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertJob } from '../../helpers/factories.ts';

describe('custom compliance types and hazard settings', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let house: { id: number; uuid: string };
  let pat: { uuid: string };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(new Date('2026-11-26T10:00:00Z'));
    house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
  });
  afterAll(async () => t?.close());

  it('creates a custom type and refuses a taken code or a bad body', async () => {
    const c = w.adminA.client;
    const body = { code: 'pat_testing', name: 'Portable appliance testing', interval_months: 12, required_document: 'PAT test record of every appliance supplied' };
    const res = await c.post('/api/compliance/types', body);
    expect(res.statusCode, res.body).toBe(201);
    pat = res.json().data;
    expect(pat).toMatchObject({ ...body, custom: true, hmo_only: false, at_tenancy_start: false, due_soon_days: 30, retired_at: null });
    expect((await c.post('/api/compliance/types', body)).statusCode).toBe(409);
    expect((await c.post('/api/compliance/types', { ...body, code: 'gas_safety' })).json().error).toBe('The agency already has a compliance type gas_safety');
    expect((await c.post('/api/compliance/types', { ...body, code: 'Bad Code' })).statusCode).toBe(400);
    expect((await c.post('/api/compliance/types', { ...body, code: 'x', interval_months: 0 })).statusCode).toBe(400);
    expect((await c.post('/api/compliance/types', { ...body, code: 'y', required_document: '' })).statusCode).toBe(400);
    expect((await w.sysops.client.post('/api/compliance/types', { ...body, code: 'z' })).statusCode).toBe(403);
    const types = (await w.agentA1.client.get('/api/compliance/types')).json().data;
    expect(types.filter((x: { custom: boolean }) => x.custom).map((x: { code: string }) => x.code)).toEqual(['pat_testing']);
    expect(types).toHaveLength(12); // the 11 UK types (four of them for communal areas) and the custom one
    expect((await w.adminB.client.get('/api/compliance/types')).json().data.map((x: { code: string }) => x.code)).not.toContain('pat_testing');
  });

  it('items, certificates and schedules use it like a UK type', async () => {
    const c = w.agentA1.client;
    const item = await c.post('/api/compliance/items', { address_uuid: house.uuid, type: 'pat_testing' });
    expect(item.statusCode, item.body).toBe(201);
    const cert = await c.post(`/api/compliance/items/${item.json().data.uuid}/certificates`, { issued_on: '2026-06-01' });
    expect(cert.json().data).toMatchObject({ type_code: 'pat_testing', status: 'valid', expires_on: '2027-06-01' });
    const s = await c.post('/api/compliance/schedules', { title: 'PAT testing', type: 'pat_testing', rrule: 'FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=20', starts_on: '2027-05-20', lead_days: 14 });
    expect(s.statusCode, s.body).toBe(201);
    expect(s.json().data).toMatchObject({ type: 'pat_testing', type_name: 'Portable appliance testing' });
    expect((await c.get('/api/compliance?type=pat_testing')).json().count).toBe(1);
  });

  it('edits a custom type but not a UK one; retires it once its schedules are retired', async () => {
    const c = w.adminA.client;
    const put = await c.put(`/api/compliance/types/${pat.uuid}`, { interval_months: 24, due_soon_days: 45, name: 'PAT testing' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ interval_months: 24, due_soon_days: 45, name: 'PAT testing', code: 'pat_testing' });
    expect((await c.put(`/api/compliance/types/${pat.uuid}`, {})).statusCode).toBe(400);
    expect((await c.put(`/api/compliance/types/${pat.uuid}`, { code: 'other' })).statusCode).toBe(400);
    const gas = (await c.get('/api/compliance/types')).json().data.find((x: { code: string }) => x.code === 'gas_safety');
    expect((await c.put(`/api/compliance/types/${gas.uuid}`, { interval_months: 24 })).statusCode).toBe(409);
    expect((await c.delete(`/api/compliance/types/${gas.uuid}`)).statusCode).toBe(409);
    expect((await w.adminB.client.put(`/api/compliance/types/${pat.uuid}`, { name: 'Mine' })).statusCode).toBe(404);

    const blocked = await c.delete(`/api/compliance/types/${pat.uuid}`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error).toBe('1 live maintenance schedule(s) use the type pat_testing; retire them first');
    const [schedule] = (await c.get('/api/compliance/schedules?type=pat_testing')).json().data;
    await c.delete(`/api/compliance/schedules/${schedule.uuid}`);
    const del = await c.delete(`/api/compliance/types/${pat.uuid}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().data.retired_at).toBe('2026-11-26T10:00:00.000Z');
    expect((await c.delete(`/api/compliance/types/${pat.uuid}`)).statusCode).toBe(200);
    expect((await c.put(`/api/compliance/types/${pat.uuid}`, { name: 'Again' })).statusCode).toBe(409);

    // Retired: not listed unless asked, no new items or schedules; the register keeps its item.
    expect((await c.get('/api/compliance/types')).json().data.map((x: { code: string }) => x.code)).not.toContain('pat_testing');
    expect((await c.get('/api/compliance/types?include_retired=true')).json().data.map((x: { code: string }) => x.code)).toContain('pat_testing');
    const flat = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: 'Flat 3, 8 Kirkgate', postcode: 'LS1 6BY' });
    expect((await c.post('/api/compliance/items', { address_uuid: flat.uuid, type: 'pat_testing' })).json().error).toBe('The compliance type pat_testing is retired');
    expect((await c.post('/api/compliance/schedules', { title: 'PAT', type: 'pat_testing', rrule: 'FREQ=YEARLY', starts_on: '2027-01-01', lead_days: 1 })).statusCode).toBe(409);
    expect((await c.get('/api/compliance?type=pat_testing')).json().count).toBe(1);
  });

  it('the agency\'s hazard works period is read and set through the settings API and used by new hazards', async () => {
    expect((await w.agentA1.client.get('/api/hazards/settings')).json().data).toEqual({ works_working_days: 60, private_rented_policy: false });
    expect((await w.agentA1.client.put('/api/hazards/settings', { works_working_days: 40 })).statusCode).toBe(403);
    expect((await w.adminA.client.put('/api/hazards/settings', { works_working_days: 0 })).statusCode).toBe(400);
    expect((await w.adminA.client.put('/api/hazards/settings', { works_working_days: 261 })).statusCode).toBe(400);
    expect((await w.sysops.client.get('/api/hazards/settings')).statusCode).toBe(403);
    const put = await w.adminA.client.put('/api/hazards/settings', { works_working_days: 40 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ works_working_days: 40, private_rented_policy: false });
    expect((await w.agentA1.client.get('/api/hazards/settings')).json().data).toEqual({ works_working_days: 40, private_rented_policy: false });
    expect((await w.adminB.client.get('/api/hazards/settings')).json().data).toEqual({ works_working_days: 60, private_rented_policy: false });
    const job = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, title: 'Black mould in the bedroom', address_id: house.id });
    const hazard = await w.agentA1.client.put(`/api/jobs/${job.uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' });
    expect(hazard.statusCode, hazard.body).toBe(201);
    expect(hazard.json().data.works_working_days).toBe(40);
  });
});
