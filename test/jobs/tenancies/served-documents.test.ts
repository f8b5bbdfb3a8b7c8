/**
 * Tenancies and the documents served on them (docs/compliance.md "Tenancies and served
 * documents"): worked examples of each rule as pure functions (gas record before the start, a
 * service after the start flagged late, a superseded version owed, a new record during the
 * tenancy within 28 days, a Welsh property without How to Rent, a leap-day start), then through
 * the API: a tenancy with its tenants, services recorded with their proof, what is owed, the
 * validation and agency scoping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allObligations, obligations, type TenancyFacts } from '../../../src/modules/jobs/tenancies/served-rules.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertTenant } from '../../helpers/factories.ts';

const ENGLAND: TenancyFacts = { starts_on: '2026-03-01', ends_on: null, kind: 'assured_shorthold', nation: 'england', gas_supply: true };
const GAS = [{ id: 1, uuid: 'g1', issued_on: '2026-02-10' }];
const pick = (o: ReturnType<typeof obligations>) => o.map(({ certificate_uuid, due_by, status, served_on }) => ({ certificate_uuid, due_by, status, served_on }));

describe('the rules as pure functions', () => {
  it('gas: the record in force is owed before the start; overdue once the tenancy began unserved (reg. 36(6)(b))', () => {
    expect(pick(obligations('gas_safety', ENGLAND, GAS, [], '2026-02-20'))).toEqual([{ certificate_uuid: 'g1', due_by: '2026-03-01', status: 'owed', served_on: null }]);
    expect(pick(obligations('gas_safety', ENGLAND, GAS, [], '2026-03-02'))).toEqual([{ certificate_uuid: 'g1', due_by: '2026-03-01', status: 'overdue', served_on: null }]);
  });

  it('gas: served on the first day is on time, served after the start is flagged late', () => {
    const served = (on: string) => [{ document: 'gas_safety' as const, certificate_id: 1, guide_edition: null, served_on: on }];
    expect(obligations('gas_safety', ENGLAND, GAS, served('2026-03-01'), '2026-04-01')[0]!.status).toBe('served');
    expect(obligations('gas_safety', ENGLAND, GAS, served('2026-03-05'), '2026-04-01')[0]).toMatchObject({ status: 'served_late', served_on: '2026-03-05', due_by: '2026-03-01' });
  });

  it('a superseded version served leaves the one in force owed; a new record during the tenancy is owed within 28 days (reg. 36(6)(a))', () => {
    const certs = [{ id: 1, uuid: 'old', issued_on: '2025-02-01' }, { id: 2, uuid: 'new', issued_on: '2026-02-10' }, { id: 3, uuid: 'renewal', issued_on: '2027-02-05' }];
    const services = [{ document: 'gas_safety' as const, certificate_id: 1, guide_edition: null, served_on: '2026-02-20' }];
    const o = obligations('gas_safety', ENGLAND, certs, services, '2027-03-10');
    expect(pick(o)).toEqual([
      { certificate_uuid: 'new', due_by: '2026-03-01', status: 'overdue', served_on: null },
      { certificate_uuid: 'renewal', due_by: '2027-03-05', status: 'overdue', served_on: null },
    ]);
    expect(o[0]!.reason).toBe('A superseded certificate was served; the one issued 2026-02-10 is owed');
  });

  it('no gas record at all: owed; no gas supply: not required', () => {
    expect(obligations('gas_safety', ENGLAND, [], [], '2026-02-01')[0]).toMatchObject({ status: 'owed', certificate_uuid: null, reason: 'No certificate recorded on or before the start' });
    expect(obligations('gas_safety', { ...ENGLAND, gas_supply: false }, GAS, [], '2026-02-01')[0]).toMatchObject({ status: 'not_required', due_by: null });
  });

  it('a Welsh property: no How to Rent and no EICR under the English regulations; gas and EPC still owed', () => {
    const wales = { ...ENGLAND, nation: 'wales' as const };
    const o = allObligations(wales, { gas_safety: GAS, eicr: [], epc: [{ id: 9, uuid: 'e1', issued_on: '2020-01-01' }] }, [], '2026-02-01');
    expect(o.map((x) => [x.document, x.status])).toEqual([['gas_safety', 'owed'], ['eicr', 'not_required'], ['epc', 'owed'], ['how_to_rent', 'not_required']]);
    expect(o.find((x) => x.document === 'how_to_rent')!.reason).toBe('The How to Rent guide is required in England only');
    expect(obligations('how_to_rent', { ...ENGLAND, kind: 'other' }, [], [], '2026-02-01')[0]!.status).toBe('not_required');
  });

  it('a leap-day start: due on 29 February 2028; a record made then is owed by 28 March', () => {
    const leap = { ...ENGLAND, starts_on: '2028-02-29' };
    const certs = [{ id: 1, uuid: 'g1', issued_on: '2028-02-28' }, { id: 2, uuid: 'g2', issued_on: '2028-02-29' }];
    const services = [{ document: 'gas_safety' as const, certificate_id: 2, guide_edition: null, served_on: '2028-02-29' }];
    // The record of the 29th is in force on the first day (issued on it): served on time; none owed within 28 days.
    expect(pick(obligations('gas_safety', leap, certs, services, '2028-03-01'))).toEqual([{ certificate_uuid: 'g2', due_by: '2028-02-29', status: 'served', served_on: '2028-02-29' }]);
    const later = obligations('gas_safety', { ...ENGLAND, starts_on: '2028-02-01' }, [{ id: 2, uuid: 'g2', issued_on: '2028-02-29' }], [], '2028-03-28');
    // No record before the start; the first one made after it, on the leap day, is owed 28 days on.
    expect(pick(later)).toEqual([{ certificate_uuid: 'g2', due_by: '2028-03-28', status: 'owed', served_on: null }]);
  });

  it('How to Rent: an edition dated after the start is not the version in force', () => {
    const h = (edition: string) => [{ document: 'how_to_rent' as const, certificate_id: null, guide_edition: edition, served_on: '2026-02-25' }];
    expect(obligations('how_to_rent', ENGLAND, [], h('2025-10-01'), '2026-03-10')[0]).toMatchObject({ status: 'served', reason: 'Edition of 2025-10-01 served' });
    expect(obligations('how_to_rent', ENGLAND, [], h('2026-04-01'), '2026-03-10')[0]).toMatchObject({ status: 'overdue' });
  });
});

describe('through the API', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let property: { id: number; uuid: string };
  let tenant: { uuid: string; name: string };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    t.clock.set(new Date('2026-03-10T10:00:00Z'));
    property = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Hyde Park Road', postcode: 'LS6 1AB' });
    tenant = await insertTenant(t.db, w.agencyA.id, [property.id], 'Priya Shah');
  });
  afterAll(async () => t?.close());

  const gasItem = async () => {
    const reg = (await w.adminA.client.get(`/api/compliance?address_uuid=${property.uuid}&type=gas_safety`)).json();
    return reg.data[0].uuid as string;
  };

  it('a tenancy starting before the gas record was served owes it; served after the start it is flagged late', async () => {
    const cert = await w.adminA.client.post(`/api/compliance/items/${await gasItem()}/certificates`, { issued_on: '2026-02-10', reference: 'GS-1' });
    expect(cert.statusCode, cert.body).toBe(201);
    const certUuid = (await t.db.selectFrom('compliance_certificates').select('uuid').where('reference', '=', 'GS-1').executeTakeFirstOrThrow()).uuid;

    const created = await w.adminA.client.post(`/api/properties/${property.uuid}/tenancies`, { starts_on: '2026-03-01', tenant_uuids: [tenant.uuid] });
    expect(created.statusCode, created.body).toBe(201);
    const tenancy = created.json().data;
    expect(tenancy).toMatchObject({ starts_on: '2026-03-01', ends_on: null, kind: 'assured_shorthold', nation: 'england', tenants: [{ uuid: tenant.uuid, name: 'Priya Shah' }], served: [] });
    const gas = tenancy.documents.find((d: { document: string }) => d.document === 'gas_safety');
    expect(gas).toMatchObject({ certificate_uuid: certUuid, due_by: '2026-03-01', status: 'overdue' });
    expect(gas.rule).toContain('reg. 36(6)');
    expect(tenancy.owed).toBe(4); // gas, EICR and EPC (none recorded), How to Rent

    const base = `/api/properties/${property.uuid}/tenancies/${tenancy.uuid}/served-documents`;
    const served = await w.adminA.client.post(base, { document: 'gas_safety', certificate_uuid: certUuid, served_on: '2026-03-05', method: 'email', proof_note: 'Sent to priya@example.test at 09:12' });
    expect(served.statusCode, served.body).toBe(201);
    const after = served.json().data;
    expect(after.documents.find((d: { document: string }) => d.document === 'gas_safety')).toMatchObject({ status: 'served_late', served_on: '2026-03-05' });
    expect(after.served).toMatchObject([{ document: 'gas_safety', certificate_uuid: certUuid, certificate_issued_on: '2026-02-10', served_on: '2026-03-05', method: 'email', proof_note: 'Sent to priya@example.test at 09:12', proof_file: null }]);
    const guide = await w.adminA.client.post(base, { document: 'how_to_rent', guide_edition: '2025-10-01', served_on: '2026-02-27', method: 'hand', proof_note: 'Signed receipt' });
    expect(guide.json().data.owed).toBe(2);

    // The proof as a file.
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
    const servedUuid = after.served[0].uuid as string;
    const boundary = 'proof-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="receipt.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), pdf, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await w.adminA.client.post(`${base}/${servedUuid}/proof`, payload, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data.proof_file).toMatchObject({ mime: 'application/pdf', size: pdf.length });
    const down = await w.adminA.client.get(`${base}/${servedUuid}/proof`);
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(pdf)).toBe(true);

    const list = await w.adminA.client.get(`/api/properties/${property.uuid}/tenancies?limit=10`);
    expect(list.json()).toMatchObject({ success: true, count: 1, data: [{ uuid: tenancy.uuid, owed: 2 }] });
  });

  it('validates its input and keeps to the agency', async () => {
    const url = `/api/properties/${property.uuid}/tenancies`;
    expect((await w.adminA.client.post(url, { starts_on: '2026-03-01', ends_on: '2026-02-01', tenant_uuids: [tenant.uuid] })).statusCode).toBe(400);
    expect((await w.adminA.client.post(url, { starts_on: '2026-03-01', tenant_uuids: [] })).statusCode).toBe(400);
    const other = await insertTenant(t.db, w.agencyB.id, [], 'Other Agency Tenant');
    expect((await w.adminA.client.post(url, { starts_on: '2026-03-01', tenant_uuids: [other.uuid] })).statusCode).toBe(400);
    expect((await w.adminB.client.get(url)).statusCode).toBe(404);
    expect((await w.adminB.client.post(url, { starts_on: '2026-03-01', tenant_uuids: [other.uuid] })).statusCode).toBe(404);
    const tenancyUuid = (await w.adminA.client.get(url)).json().data[0].uuid as string;
    const serve = `${url}/${tenancyUuid}/served-documents`;
    expect((await w.adminA.client.post(serve, { document: 'gas_safety', served_on: '2026-03-05', method: 'post' })).statusCode).toBe(400);
    expect((await w.adminA.client.post(serve, { document: 'how_to_rent', served_on: '2026-03-05', method: 'post' })).statusCode).toBe(400);
    expect((await w.adminA.client.post(serve, { document: 'how_to_rent', guide_edition: '2025-10-01', served_on: '2026-12-05', method: 'post' })).statusCode).toBe(400);
    expect((await w.adminA.client.post(serve, { document: 'how_to_rent', guide_edition: '2025-10-01', served_on: '2026-03-05', method: 'pigeon' })).statusCode).toBe(400);
    expect((await w.adminA.client.post(serve, { document: 'how_to_rent', guide_edition: '2025-10-01', served_on: '2026-03-05', method: 'post' }, { csrf: false })).statusCode).toBe(403);
  });
});
