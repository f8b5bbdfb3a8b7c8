import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A multipart/form-data body with one file field. */
function multipart(data: Buffer, filename: string, type: string) {
  const boundary = '----caretakertest7d1f';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  return { payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('contractor certificates: records, documents, expiring list', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let acme: { uuid: string };
  let bolt: { uuid: string };
  let gasCert: { uuid: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    acme = (await w.adminA.client.post('/api/contractors', { company_name: 'Acme Gas' })).json().data;
    bolt = (await w.adminA.client.post('/api/contractors', { company_name: 'Bolt Electrical' })).json().data;
  });
  afterAll(async () => t?.close());

  it('adds a certificate (201) with status and days left computed for today', async () => {
    const res = await w.agentA1.client.post(`/api/contractors/${acme.uuid}/certifications`, { cert_type: 'gas_safe', reference: 'GS-123456', issued_on: '2025-12-01', expires_on: '2026-12-01' });
    expect(res.statusCode).toBe(201);
    gasCert = res.json().data;
    expect(gasCert).toMatchObject({ cert_type: 'gas_safe', cert_name: 'Gas Safe', reference: 'GS-123456', issued_on: '2025-12-01', expires_on: '2026-12-01', status: 'expiring', days_left: 10, has_document: false, contractor_uuid: acme.uuid });
    const row = await t.db.selectFrom('contractor_certifications').select(['agency_id']).where('uuid', '=', gasCert.uuid).executeTakeFirstOrThrow();
    expect(row.agency_id).toBe(w.agencyA.id);
    const list = await w.agentA1.client.get(`/api/contractors/${acme.uuid}/certifications`);
    expect(list.json()).toMatchObject({ count: 1, data: [{ uuid: gasCert.uuid }] });
    expect((await w.agentA1.client.get(`/api/contractors/${acme.uuid}`)).json().data.certifications).toHaveLength(1);
  });

  it('refuses bad certificates without writing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ cert_type: 'corgi', reference: 'x', expires_on: '2027-01-01' }, 'cert_type'],
      [{ cert_type: 'niceic', expires_on: '2027-01-01' }, 'reference'],
      [{ cert_type: 'niceic', reference: 'N1' }, 'expires_on'],
      [{ cert_type: 'niceic', reference: 'N1', expires_on: '01/02/2027' }, 'expires_on'],
      [{ cert_type: 'niceic', reference: 'N1', issued_on: '2027-02-01', expires_on: '2027-01-01' }, 'expires_on'],
    ];
    for (const [body, name] of cases) {
      const res = await w.agentA1.client.post(`/api/contractors/${bolt.uuid}/certifications`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe(`Invalid or missing required parameter: ${name}`);
    }
    expect((await w.agentA1.client.get(`/api/contractors/${bolt.uuid}/certifications`)).json().count).toBe(0);
    expect((await w.adminB.client.post(`/api/contractors/${bolt.uuid}/certifications`, { cert_type: 'niceic', reference: 'N1', expires_on: '2027-01-01' })).statusCode).toBe(404);
    expect((await w.adminB.client.get(`/api/contractors/${bolt.uuid}/certifications`)).statusCode).toBe(404);
  });

  it('uploads a PDF or PNG document (type sniffed from the content) and downloads it; other types are 400', async () => {
    const url = `/api/contractors/${acme.uuid}/certifications/${gasCert.uuid}/document`;
    const bad = multipart(Buffer.from('just text, claiming to be a PDF'), 'cert.pdf', 'application/pdf');
    const refused = await w.agentA1.client.post(url, bad.payload, { headers: bad.headers });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('The document must be a PDF, JPEG or PNG file');
    const png = multipart(PNG, 'scan.pdf', 'application/pdf');
    const first = await w.agentA1.client.post(url, png.payload, { headers: png.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ has_document: true, document_mime: 'image/png' });
    const pdf = multipart(PDF, 'scan.png', 'image/png');
    const res = await w.agentA1.client.post(url, pdf.payload, { headers: pdf.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.document_mime).toBe('application/pdf');
    const dl = await w.agentA1.client.get(url);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="gas_safe-GS-123456\.pdf"$/);
    expect(dl.rawPayload.equals(PDF)).toBe(true);
    const row = await t.db.selectFrom('contractor_certifications').select(['file_sha256', 'file_size']).where('uuid', '=', gasCert.uuid).executeTakeFirstOrThrow();
    expect(row.file_size).toBe(PDF.length);
    expect(row.file_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await w.agentA1.client.post(url, pdf.payload, { headers: pdf.headers, csrf: false })).statusCode).toBe(403);
    expect((await w.adminB.client.post(url, pdf.payload, { headers: pdf.headers })).statusCode).toBe(404);
    expect((await w.adminB.client.get(url)).statusCode).toBe(404);
    const none = (await w.agentA1.client.post(`/api/contractors/${bolt.uuid}/certifications`, { cert_type: 'napit', reference: 'NP-1', expires_on: '2027-05-01' })).json().data;
    const missing = await w.agentA1.client.get(`/api/contractors/${bolt.uuid}/certifications/${none.uuid}/document`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Document not found');
  });

  it('lists certificates expiring within the window (default 30 days), moving with the clock', async () => {
    await w.agentA1.client.post(`/api/contractors/${bolt.uuid}/certifications`, { cert_type: 'niceic', reference: 'NC-OLD', expires_on: '2026-10-31' });
    await w.agentA1.client.post(`/api/contractors/${bolt.uuid}/certifications`, { cert_type: 'chas', reference: 'CH-TODAY', expires_on: '2026-11-21' });
    await w.agentA1.client.post(`/api/contractors/${bolt.uuid}/certifications`, { cert_type: 'fensa', reference: 'FE-20', expires_on: '2026-12-21' });
    const otherAgency = (await w.adminB.client.post('/api/contractors', { company_name: 'Southbank Gas' })).json().data;
    await w.adminB.client.post(`/api/contractors/${otherAgency.uuid}/certifications`, { cert_type: 'gas_safe', reference: 'B-GS', expires_on: '2026-11-25' });

    const res = await w.agentA1.client.get('/api/contractors/certifications/expiring');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { reference: string }) => c.reference)).toEqual(['CH-TODAY', 'GS-123456', 'FE-20']);
    expect(res.json().data.map((c: { days_left: number }) => c.days_left)).toEqual([0, 10, 30]);
    expect((await w.agentA1.client.get('/api/contractors/certifications/expiring?days=5')).json().count).toBe(1);
    expect((await w.agentA1.client.get('/api/contractors/certifications/expiring?days=365')).json().count).toBe(4);
    expect((await w.agentA1.client.get('/api/contractors/certifications/expiring?days=0')).statusCode).toBe(400);
    expect((await w.agentA1.client.get('/api/contractors/certifications/expiring?days=366')).statusCode).toBe(400);
    expect((await w.adminB.client.get('/api/contractors/certifications/expiring')).json().data.map((c: { reference: string }) => c.reference)).toEqual(['B-GS']);

    t.clock.advance(15 * 86_400);
    const later = await w.agentA1.client.get('/api/contractors/certifications/expiring');
    expect(later.json().data.map((c: { reference: string }) => c.reference)).toEqual(['FE-20']);
    const status = (await w.agentA1.client.get(`/api/contractors/${acme.uuid}/certifications`)).json().data[0];
    expect(status).toMatchObject({ reference: 'GS-123456', status: 'expired', days_left: -5 });
    t.clock.advance(-15 * 86_400);
  });

  it('removes a certificate (soft) and logs it; 404 for another agency or unknown', async () => {
    const url = `/api/contractors/${acme.uuid}/certifications/${gasCert.uuid}`;
    expect((await w.adminB.client.delete(url)).statusCode).toBe(404);
    expect((await w.agentA1.client.delete(url, undefined, { csrf: false })).statusCode).toBe(403);
    const res = await w.agentA1.client.delete(url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Certification removed' });
    const again = await w.agentA1.client.delete(url);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('Certification not found');
    const row = await t.db.selectFrom('contractor_certifications').select('deleted_at').where('uuid', '=', gasCert.uuid).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await w.agentA1.client.get(`/api/contractors/${acme.uuid}/certifications`)).json().count).toBe(0);
    const actions = (await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'contractor').orderBy('id').execute()).map((r) => r.action);
    expect(actions).toContain('contractor.add_certification');
    expect(actions).toContain('contractor.upload_certificate');
    expect(actions).toContain('contractor.remove_certification');
  });

  it('needs the permissions', async () => {
    const contractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id });
    expect((await contractor.client.get('/api/contractors/certifications/expiring')).statusCode).toBe(403);
    expect((await contractor.client.get(`/api/contractors/${acme.uuid}/certifications`)).statusCode).toBe(403);
    expect((await contractor.client.post(`/api/contractors/${acme.uuid}/certifications`, { cert_type: 'chas', reference: 'x', expires_on: '2027-01-01' })).statusCode).toBe(403);
    expect((await w.agentA1.client.post(`/api/contractors/${acme.uuid}/certifications`, { cert_type: 'chas', reference: 'x', expires_on: '2027-01-01' }, { csrf: false })).statusCode).toBe(403);
    const cert = (await w.agentA1.client.post(`/api/contractors/${acme.uuid}/certifications`, { cert_type: 'chas', reference: 'CH-P', expires_on: '2027-01-01' })).json().data;
    expect((await contractor.client.delete(`/api/contractors/${acme.uuid}/certifications/${cert.uuid}`)).statusCode).toBe(403);
    expect((await contractor.client.get(`/api/contractors/${acme.uuid}/certifications/${cert.uuid}/document`)).statusCode).toBe(403);
    const pdf = multipart(PDF, 'c.pdf', 'application/pdf');
    expect((await contractor.client.post(`/api/contractors/${acme.uuid}/certifications/${cert.uuid}/document`, pdf.payload, { headers: pdf.headers })).statusCode).toBe(403);
    expect((await w.agentA1.client.get(`/api/contractors/${acme.uuid}/certifications`)).json().data.map((c: { uuid: string }) => c.uuid)).toContain(cert.uuid);
  });
});
