import { createHash } from 'node:crypto';
import { ZipArchive } from 'archiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cfbBytes, heicBytes, jpegBytes, pdfBytes, pngBytes } from '../../../src/seed/demo/sample-files.ts';
import { buildTestApp, csrf, type TestApp } from '../../helpers/app.ts';
import { attachedRecordsWorld } from '../../helpers/attached-records-world.ts';
import { form } from '../../helpers/upload-form.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function docx(): Promise<Buffer> {
  const a = new ZipArchive();
  const chunks: Buffer[] = [];
  a.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => a.on('end', r));
  a.append(
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    { name: '[Content_Types].xml' },
  );
  a.append('<w:document/>', { name: 'word/document.xml' });
  await a.finalize();
  await ended;
  return Buffer.concat(chunks);
}

describe('job documents and photos', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  let docs: string;
  let photos: string;
  const count = async () => Number((await t.db.selectFrom('job_files').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_UPLOAD_PHOTO_MAX_BYTES: '4096', CARETAKER_UPLOAD_DOCUMENT_MAX_BYTES: '8192' });
    w = await attachedRecordsWorld(t);
    docs = `/api/jobs/${w.job.uuid}/documents`;
    photos = `/api/jobs/${w.job.uuid}/photos`;
  });
  afterAll(async () => t?.close());

  it('uploads a PNG photo and downloads identical bytes with the stored type and a safe name', async () => {
    const png = pngBytes(3, 3);
    const up = await w.agentA1.client.post(photos, form(png, '..\\evil\\Kitchen <ceiling>.png', { description: 'Water stain above the light' }));
    expect(up.statusCode).toBe(201);
    const file = up.json().data;
    expect(file).toMatchObject({
      kind: 'photo', mime: 'image/png', size_bytes: png.length, sha256: sha(png), filename: 'Kitchen ceiling.png',
      description: 'Water stain above the light', internal: false, job_uuid: w.job.uuid,
    });
    const down = await w.agentA1.client.get(`${photos}/${file.uuid}`);
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toBe('image/png');
    expect(down.headers['content-disposition']).toBe(`inline; filename="Kitchen ceiling.png"; filename*=UTF-8''Kitchen%20ceiling.png`);
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    expect(down.headers.etag).toBe(`"${sha(png)}"`);
    expect(down.rawPayload.equals(png)).toBe(true);
    expect(sha(down.rawPayload)).toBe(file.sha256);
    const row = await t.db.selectFrom('job_files').selectAll().where('uuid', '=', file.uuid).executeTakeFirstOrThrow();
    expect(row.storage_key).not.toContain('Kitchen');
    expect(row.storage_key).toMatch(/\.png$/);
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'job_photo.upload').execute();
    expect(log).toHaveLength(1);
  });

  it('keeps a Unicode file name for display and gives an ASCII fallback in Content-Disposition', async () => {
    const up = await w.agentA1.client.post(photos, form(pngBytes(), 'Küche – Decke'));
    expect(up.statusCode).toBe(201);
    expect(up.json().data.filename).toBe('Küche – Decke');
    const down = await w.agentA1.client.get(up.json().data.download_url);
    expect(down.headers['content-disposition']).toBe(`inline; filename="K_che _ Decke.png"; filename*=UTF-8''K%C3%BCche%20%E2%80%93%20Decke.png`);
  });

  it('accepts JPEG and HEIC photos and PDF, docx, legacy doc and plain-text documents', async () => {
    const cases: Array<[string, Buffer, string, string]> = [
      [photos, jpegBytes(), 'boiler.jpeg', 'image/jpeg'],
      [photos, heicBytes(), 'IMG_0001.HEIC', 'image/heic'],
      [docs, pdfBytes(), 'Gas safety certificate.pdf', 'application/pdf'],
      [docs, await docx(), 'quote.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [docs, cfbBytes(), 'old quote.doc', 'application/msword'],
      [docs, Buffer.from('Key safe code is with the agent.\nCall before visiting.\n'), 'access.txt', 'text/plain; charset=utf-8'],
    ];
    for (const [url, data, name, mime] of cases) {
      const res = await w.adminA.client.post(url, form(data, name));
      expect(res.statusCode, name).toBe(201);
      expect(res.json().data.mime).toBe(mime);
      const down = await w.adminA.client.get(res.json().data.download_url);
      expect(down.rawPayload.equals(data)).toBe(true);
    }
  });

  it('decides the type from the content: text named .jpg, a PDF as a photo, an unknown binary: 400, nothing stored', async () => {
    const before = await count();
    const bad: Array<[string, Buffer, string]> = [
      [photos, Buffer.from('definitely not a picture'), 'holiday.jpg'],
      [photos, pdfBytes(), 'scan.png'],
      [docs, pngBytes(), 'report.pdf'],
      [docs, cfbBytes(), 'mail.msg'],
      [docs, Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), 'blob.txt'],
    ];
    for (const [url, data, name] of bad) {
      const res = await w.agentA1.client.post(url, form(data, name));
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error).toMatch(/^Unsupported file type/);
    }
    expect(await count()).toBe(before);
  });

  it('over the size limit: 413 and nothing stored', async () => {
    const before = await count();
    const big = Buffer.concat([pngBytes(), Buffer.alloc(5000)]);
    const res = await w.agentA1.client.post(photos, form(big, 'big.png'));
    expect(res.statusCode).toBe(413);
    expect(res.json().success).toBe(false);
    const bigDoc = Buffer.concat([pdfBytes(), Buffer.alloc(9000, 0x20)]);
    expect((await w.agentA1.client.post(docs, form(bigDoc, 'big.pdf'))).statusCode).toBe(413);
    // the same file fits the document limit: limits are per kind
    expect((await w.agentA1.client.post(docs, form(Buffer.concat([pdfBytes(), Buffer.alloc(5000, 0x20)]), 'ok.pdf'))).statusCode).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('bad requests: no file, another field name, empty file, JSON body, unknown field, bad internal flag', async () => {
    const before = await count();
    const f = new FormData();
    f.append('description', 'no file');
    expect((await w.agentA1.client.post(photos, f)).statusCode).toBe(400);
    expect((await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', {}, 'upload'))).statusCode).toBe(400);
    expect((await w.agentA1.client.post(photos, form(Buffer.alloc(0), 'a.png'))).statusCode).toBe(400);
    // JSON where the upload takes multipart/form-data only: 415 (docs/api.md "Errors")
    expect((await w.agentA1.client.post(photos, { file: 'x' })).statusCode).toBe(415);
    expect((await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', { owner: 'me' }))).statusCode).toBe(400);
    expect((await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', { internal: 'maybe' }))).statusCode).toBe(400);
    expect((await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', { description: 'x'.repeat(501) }))).statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('uploads need a CSRF token (X-CSRF-Token or the form field csrf_token, spec 5.3) and the permission', async () => {
    const before = await count();
    const res = await w.agentA1.client.post(photos, form(pngBytes(), 'a.png'), { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Invalid or missing CSRF token');
    const token = await csrf(t.app, w.agentA1.token);
    // a wrong token in the form field: 403, nothing stored
    const wrong = await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', { csrf_token: 'f'.repeat(64) }), { csrf: false });
    expect(wrong.statusCode).toBe(403);
    expect(await count()).toBe(before);
    // the token as a form field is accepted once and is not one of the file's fields
    const viaForm = await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', { csrf_token: token, description: 'boiler' }), { csrf: false });
    expect(viaForm.statusCode, viaForm.body).toBe(201);
    expect(viaForm.json().data.description).toBe('boiler');
    const again = await w.agentA1.client.post(photos, form(pngBytes(), 'a.png', { csrf_token: token }), { csrf: false });
    expect(again.statusCode).toBe(403);
    expect(await count()).toBe(before + 1);
    const role = await t.db.selectFrom('roles').select('id').where('code', '=', 'agent').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_permissions').where('role_id', '=', role.id).where('permission_key', '=', 'api.jobs.photos.manage').execute();
    // A write behind the services' back: move the auth epoch on as changeIdentity does (docs/security.md "Token lookup cache").
    await t.deps.authEpoch.bump();
    try {
      expect((await w.agentA1.client.get(photos)).statusCode).toBe(403);
      expect((await w.agentA1.client.post(photos, form(pngBytes(), 'a.png'))).statusCode).toBe(403);
      // documents are a separate key
      expect((await w.agentA1.client.get(docs)).statusCode).toBe(200);
    } finally {
      await t.db.insertInto('role_permissions').values({ role_id: role.id, permission_key: 'api.jobs.photos.manage' }).execute();
      await t.deps.authEpoch.bump();
    }
  });

  it('visibility: tenant and contractor of the job see shared files, not internal ones; others get 404', async () => {
    const shared = (await w.agentA1.client.post(docs, form(pdfBytes('Quote'), 'quote.pdf'))).json().data;
    const internal = (await w.agentA1.client.post(docs, form(pdfBytes('Landlord notes'), 'landlord.pdf', { internal: 'true' }))).json().data;
    expect(internal.internal).toBe(true);
    for (const c of [w.tenant, w.contractor]) {
      const list = await c.client.get(docs);
      expect(list.statusCode).toBe(200);
      const uuids = list.json().data.map((f: { uuid: string }) => f.uuid);
      expect(uuids).toContain(shared.uuid);
      expect(uuids).not.toContain(internal.uuid);
      expect((await c.client.get(`${docs}/${shared.uuid}`)).statusCode).toBe(200);
      const hidden = await c.client.get(`${docs}/${internal.uuid}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error).toBe('Document not found');
    }
    for (const c of [w.agentA1, w.adminA, w.sysops]) {
      const uuids = (await c.client.get(docs)).json().data.map((f: { uuid: string }) => f.uuid);
      expect(uuids).toEqual(expect.arrayContaining([shared.uuid, internal.uuid]));
    }
    for (const c of [w.adminB, w.otherTenant, w.otherContractor, w.agentA2]) {
      expect((await c.client.get(docs)).json()).toEqual({ success: false, error: 'Job not found' });
      expect((await c.client.get(`${docs}/${shared.uuid}`)).statusCode).toBe(404);
      expect((await c.client.post(docs, form(pdfBytes(), 'x.pdf'))).statusCode).toBe(404);
      expect((await c.client.delete(`${docs}/${shared.uuid}`)).statusCode).toBe(404);
    }
    // a photo uuid under documents, or another job's path: 404
    expect((await w.adminA.client.get(`${photos}/${shared.uuid}`)).statusCode).toBe(404);
    expect((await w.adminB.client.get(`/api/jobs/${w.jobB.uuid}/documents/${shared.uuid}`)).statusCode).toBe(404);
  });

  it('tenant and contractor upload (never internal); delete by staff or the uploader only, soft', async () => {
    const tenantPhoto = await w.tenant.client.post(photos, form(jpegBytes(), 'leak.jpg'));
    expect(tenantPhoto.statusCode).toBe(201);
    expect((await w.tenant.client.post(photos, form(jpegBytes(), 'leak.jpg', { internal: 'true' }))).statusCode).toBe(400);
    const contractorPhoto = (await w.contractor.client.post(photos, form(pngBytes(), 'after.png'))).json().data;
    const tp = tenantPhoto.json().data;
    // the contractor cannot delete the tenant's photo, nor the tenant the contractor's
    const denied = await w.contractor.client.delete(`${photos}/${tp.uuid}`);
    expect(denied.statusCode).toBe(403);
    expect((await w.tenant.client.delete(`${photos}/${contractorPhoto.uuid}`)).statusCode).toBe(403);
    // no CSRF
    expect((await w.tenant.client.delete(`${photos}/${tp.uuid}`, undefined, { csrf: false })).statusCode).toBe(403);
    // the uploader may
    const del = await w.tenant.client.delete(`${photos}/${tp.uuid}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, message: 'Photo deleted' });
    expect((await w.tenant.client.get(`${photos}/${tp.uuid}`)).statusCode).toBe(404);
    expect((await w.tenant.client.delete(`${photos}/${tp.uuid}`)).statusCode).toBe(404);
    // staff may delete anyone's
    expect((await w.agentA1.client.delete(`${photos}/${contractorPhoto.uuid}`)).statusCode).toBe(200);
    const row = await t.db.selectFrom('job_files').selectAll().where('uuid', '=', tp.uuid).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'job_photo.delete').execute();
    expect(log).toHaveLength(2);
  });

  it('lists paginate, newest first', async () => {
    const all = await w.adminA.client.get(`${docs}?limit=200`);
    const page = await w.adminA.client.get(`${docs}?limit=2&offset=1`);
    expect(page.json().count).toBe(all.json().count);
    expect(page.json().data.map((f: { uuid: string }) => f.uuid)).toEqual(all.json().data.slice(1, 3).map((f: { uuid: string }) => f.uuid));
    expect((await w.adminA.client.get(`${docs}?limit=500`)).statusCode).toBe(400);
  });
});

