/**
 * The compliance register (docs/compliance.md): seeded UK types, items per property, certificates
 * with default expiry and the issuing contractor and job file, statuses valid / due_soon / expired /
 * missing on the London date, filters and totals, the dashboard tile, the CSV report, and agency
 * isolation.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfBytes } from '../../../src/seed/demo/sample-files.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob } from '../../helpers/factories.ts';
import { form } from '../../helpers/upload-form.ts';

describe('compliance register', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let house: { id: number; uuid: string };
  let flat: { id: number; uuid: string };
  let contractor: { id: number; uuid: string };
  const items: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    // Thu 26 Nov 2026, 23:30 GMT: still the 26th in London.
    t.clock.set(new Date('2026-11-26T23:30:00Z'));
    house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    flat = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a2.id, line1: 'Flat 3, 8 Kirkgate', postcode: 'LS1 6BY' });
    contractor = await insertContractor(t.db, w.agencyA.id, 'Aire Gas Services');
  });
  afterAll(async () => t?.close());

  it('seeds the UK types with their legal intervals on first use', async () => {
    const res = await w.adminA.client.get('/api/compliance/types');
    expect(res.statusCode).toBe(200);
    const byCode = Object.fromEntries(res.json().data.map((x: { code: string }) => [x.code, x]));
    expect(Object.keys(byCode).sort()).toEqual([
      'communal_eicr', 'communal_fire_risk', 'communal_legionella', 'eicr', 'epc', 'gas_safety', 'hmo_fire_risk', 'hmo_licence', 'legionella', 'loler', 'smoke_co_alarms',
    ]);
    expect(byCode.gas_safety).toMatchObject({ interval_months: 12, required_document: expect.stringContaining('Gas Safe') });
    expect(byCode.eicr.interval_months).toBe(60);
    expect(byCode.epc.interval_months).toBe(120);
    expect(byCode.smoke_co_alarms).toMatchObject({ interval_months: null, at_tenancy_start: true });
    expect(byCode.hmo_licence.hmo_only).toBe(true);
  });

  it('an item without a certificate is missing; adding it twice keeps one', async () => {
    for (const [key, address, type] of [['gas', house, 'gas_safety'], ['eicr', house, 'eicr'], ['epc', house, 'epc'], ['flat_gas', flat, 'gas_safety']] as const) {
      const res = await w.agentA1.client.post('/api/compliance/items', { address_uuid: address.uuid, type });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ status: 'missing', type_code: type, certificate_uuid: null, certificates: [] });
      items[key] = res.json().data.uuid;
    }
    const again = await w.agentA1.client.post('/api/compliance/items', { address_uuid: house.uuid, type: 'gas_safety' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.uuid).toBe(items.gas);
    expect((await w.agentA1.client.post('/api/compliance/items', { address_uuid: house.uuid, type: 'boiler' })).json())
      .toMatchObject({ success: false, error: 'Invalid or missing required parameter: type' });
    expect((await w.adminB.client.post('/api/compliance/items', { address_uuid: house.uuid, type: 'gas_safety' })).json())
      .toEqual({ success: false, error: 'Property not found' });
  });

  it('a certificate expires after the legal interval by default and carries its issuer and file', async () => {
    const job = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, title: 'Annual gas safety check' });
    const up = await w.agentA1.client.post(`/api/jobs/${job.uuid}/documents`, form(pdfBytes(), 'CP12-2026.pdf'));
    expect(up.statusCode, up.body).toBe(201);
    const res = await w.agentA1.client.post(`/api/compliance/items/${items.gas}/certificates`, {
      issued_on: '2026-03-10', contractor_uuid: contractor.uuid, job_file_uuid: up.json().data.uuid, reference: 'CP12-88231',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      status: 'valid', issued_on: '2026-03-10', expires_on: '2027-03-10', expires_on_text: 'Wed 10 Mar 2027',
      contractor_name: 'Aire Gas Services', file_uuid: up.json().data.uuid,
      certificates: [{ reference: 'CP12-88231', job_uuid: job.uuid, file_name: 'CP12-2026.pdf' }],
    });
  });

  it('due soon within 30 days, expired before today (London), and bad dates change nothing', async () => {
    // EICR issued 2021-12-20: expires 2026-12-20, 24 days on: due soon.
    expect((await w.agentA1.client.post(`/api/compliance/items/${items.eicr}/certificates`, { issued_on: '2021-12-20' })).json().data.status).toBe('due_soon');
    // Flat gas: expired on the 25th, the day before today (23:30 GMT is still the 26th in London).
    expect((await w.agentA1.client.post(`/api/compliance/items/${items.flat_gas}/certificates`, { issued_on: '2025-11-25' })).json().data)
      .toMatchObject({ status: 'expired', expires_on: '2026-11-25' });
    expect((await w.agentA1.client.post(`/api/compliance/items/${items.epc}/certificates`, { issued_on: '2026-11-27' })).json().error)
      .toBe('Invalid or missing required parameter: issued_on');
    expect((await w.agentA1.client.post(`/api/compliance/items/${items.epc}/certificates`, { issued_on: '2026-01-05', expires_on: '2025-01-05' })).json().error)
      .toBe('Invalid or missing required parameter: expires_on');
    expect((await w.agentA1.client.post(`/api/compliance/items/${items.epc}/certificates`, { issued_on: '2026-01-05', contractor_uuid: crypto.randomUUID() })).json().error)
      .toBe('Contractor not found');
    expect((await w.agentA1.client.get(`/api/compliance/items/${items.epc}`)).json().data).toMatchObject({ status: 'missing', certificates: [] });
  });

  it('GET /api/compliance filters by status, branch, type and property, with totals per status', async () => {
    // The four items added by hand, and the ones each property needs by what it is (docs/compliance.md
    // "What a property needs"): the house its smoke and CO alarms and legionella assessment, the
    // flat its EICR, EPC, alarms and legionella assessment, all missing.
    const all = (await w.adminA.client.get('/api/compliance')).json();
    expect(all).toMatchObject({ success: true, count: 10, totals: { valid: 1, due_soon: 1, expired: 1, missing: 7, non_compliant: 0 }, message: 'Compliance register retrieved' });
    expect(all.data.map((r: { status: string }) => r.status)).toEqual(['expired', ...Array(7).fill('missing'), 'due_soon', 'valid']);
    const expired = (await w.adminA.client.get('/api/compliance?status=expired')).json();
    expect(expired).toMatchObject({ count: 1, totals: { valid: 1, due_soon: 1, expired: 1, missing: 7 } });
    expect(expired.data[0]).toMatchObject({ uuid: items.flat_gas, address: 'Flat 3, 8 Kirkgate, Leeds LS1 6BY', branch_name: 'A2' });
    expect((await w.adminA.client.get(`/api/compliance?branch_uuid=${w.a1.uuid}`)).json().totals).toEqual({ valid: 1, due_soon: 1, expired: 0, missing: 3, non_compliant: 0 });
    expect((await w.adminA.client.get('/api/compliance?type=gas_safety')).json().count).toBe(2);
    expect((await w.adminA.client.get(`/api/compliance?address_uuid=${flat.uuid}`)).json().count).toBe(5);
    expect((await w.adminA.client.get('/api/compliance?status=late')).statusCode).toBe(400);
    expect((await w.adminB.client.get(`/api/compliance?address_uuid=${flat.uuid}`)).json()).toEqual({ success: false, error: 'Property not found' });
    expect((await w.adminB.client.get('/api/compliance')).json().count).toBe(0);
    expect((await w.adminB.client.get(`/api/compliance/items/${items.gas}`)).statusCode).toBe(404);
  });

  it('GET /api/compliance sorts by sort and order across pages (id breaks ties, no expiry or contractor last); a bad value is a 400', async () => {
    const names: Record<string, string> = Object.fromEntries(Object.entries(items).map(([k, uuid]) => [uuid, k]));
    const keys = async (qs: string) => {
      const res = await w.adminA.client.get(`/api/compliance?${qs}`);
      expect(res.statusCode, qs).toBe(200);
      // the four items added by hand, in the order they come among the derived ones
      return res.json().data.map((r: { uuid: string }) => names[r.uuid]).filter((k: string | undefined) => k !== undefined) as string[];
    };
    // By urgency (the order without sort), and the other way round.
    expect(await keys('')).toEqual(['flat_gas', 'epc', 'eicr', 'gas']);
    expect(await keys('sort=status&order=asc')).toEqual(['flat_gas', 'epc', 'eicr', 'gas']);
    expect(await keys('sort=status&order=desc')).toEqual(['gas', 'eicr', 'epc', 'flat_gas']);
    // The EPC has no certificate, so no expiry: last either way.
    expect(await keys('sort=expires_on&order=asc')).toEqual(['flat_gas', 'eicr', 'gas', 'epc']);
    expect(await keys('sort=expires_on&order=desc')).toEqual(['gas', 'eicr', 'flat_gas', 'epc']);
    // Only the gas certificate names a contractor; the rest tie (no contractor, last), broken by the id.
    expect(await keys('sort=contractor_name&order=asc')).toEqual(['gas', 'eicr', 'epc', 'flat_gas']);
    expect(await keys('sort=contractor_name&order=desc')).toEqual(['gas', 'flat_gas', 'epc', 'eicr']);
    // 12 Harehills Lane before Flat 3, 8 Kirkgate; the house's three items by id.
    expect(await keys('sort=address&order=asc')).toEqual(['gas', 'eicr', 'epc', 'flat_gas']);
    expect(await keys('sort=address&order=desc')).toEqual(['flat_gas', 'epc', 'eicr', 'gas']);
    const byType = await keys('sort=type_name&order=asc');
    expect(byType.indexOf('flat_gas')).toBe(byType.indexOf('gas') + 1);
    expect(await keys('sort=type_name&order=desc')).toEqual([...byType].reverse());
    const paged = [];
    for (let offset = 0; offset < 10; offset++) paged.push(...(await keys(`sort=contractor_name&order=desc&limit=1&offset=${offset}`)));
    expect(paged).toEqual(['gas', 'flat_gas', 'epc', 'eicr']);
    for (const qs of ['sort=postcode', 'order=sideways']) {
      const res = await w.adminA.client.get(`/api/compliance?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${qs.split('=')[0]}` });
    }
  });

  it('the expired certificate shows on the dashboard and in the CSV report', async () => {
    const dash = (await w.adminA.client.get('/api/dashboard')).json().data;
    expect(dash.compliance).toEqual({ valid: 1, due_soon: 1, expired: 1, missing: 7, non_compliant: 0 });
    const csv = await w.adminA.client.get('/api/reports/compliance-register?format=csv&status=expired');
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('status');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('expired');
    expect(lines[1]).toContain('Kirkgate');
  });

  it('a read of a seeded register writes no type (no sequence value taken); a UK type missing or left without its regulation is seeded on the next read', async () => {
    const seq = async () => Number((await sql<{ n: string }>`select last_value as n from compliance_item_types_id_seq`.execute(t.db)).rows[0]!.n);
    const typesOfB = () => t.db.selectFrom('compliance_item_types').select(['code', 'regulation']).where('agency_id', '=', w.agencyB.id).orderBy('code').execute();
    expect((await w.adminB.client.get('/api/compliance')).statusCode).toBe(200);
    const seeded = await typesOfB();
    expect(seeded).toHaveLength(11);
    const before = await seq();
    expect((await w.adminB.client.get('/api/compliance')).json().count).toBe(0);
    expect(await seq()).toBe(before);
    await t.db.updateTable('compliance_item_types').set({ regulation: '' }).where('agency_id', '=', w.agencyB.id).where('code', '=', 'gas_safety').execute();
    await t.db.deleteFrom('compliance_item_types').where('agency_id', '=', w.agencyB.id).where('code', '=', 'loler').execute();
    expect((await w.adminB.client.get('/api/compliance')).statusCode).toBe(200);
    expect(await typesOfB()).toEqual(seeded);
  });
});
