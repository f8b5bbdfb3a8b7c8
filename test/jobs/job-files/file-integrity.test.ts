import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStoredFile } from '../../../src/modules/jobs/job-files/file-integrity.service.ts';
import { jpegBytes, pdfBytes, pngBytes } from '../../../src/seed/demo/sample-files.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { insertJob, attachedRecordsWorld } from '../../helpers/attached-records-world.ts';
import { form } from '../../helpers/upload-form.ts';

describe('file integrity: verifyStoredFile and POST /api/security/file-integrity/scan', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  const scan = '/api/security/file-integrity/scan';
  const uploaded: Array<{ uuid: string; id: number; key: string }> = [];

  beforeAll(async () => {
    t = await buildTestApp();
    w = await attachedRecordsWorld(t);
    const files: Array<[string, Buffer, string]> = [
      ['photos', pngBytes(), 'a.png'],
      ['photos', jpegBytes(), 'b.jpg'],
      ['documents', pdfBytes(), 'c.pdf'],
    ];
    for (const [kind, data, name] of files) {
      const res = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/${kind}`, form(data, name));
      expect(res.statusCode).toBe(201);
      const row = await t.db.selectFrom('job_files').select(['id', 'storage_key']).where('uuid', '=', res.json().data.uuid).executeTakeFirstOrThrow();
      uploaded.push({ uuid: res.json().data.uuid, id: row.id, key: row.storage_key });
    }
    const jobB = await insertJob(t.db, { agencyId: w.agencyB.id, branchId: w.b1.id });
    expect((await w.adminB.client.post(`/api/jobs/${jobB.uuid}/photos`, form(pngBytes(), 'b.png'))).statusCode).toBe(201);
  });
  afterAll(async () => t?.close());

  it('a clean store verifies: every file ok, recorded on the rows', async () => {
    const res = await w.adminA.client.post(scan, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 3, scanned: 3, ok: 3, mismatched: 0, missing: 0, problems: [], next_offset: null });
    expect(res.json().message).toBe('3 files verified');
    const rows = await t.db.selectFrom('job_files').select(['integrity', 'verified_at']).where('agency_id', '=', w.agencyA.id).execute();
    expect(rows.every((r) => r.integrity === 'ok' && r.verified_at !== null)).toBe(true);
  });

  it('detects a file tampered with in the store (local folder or S3), and one that went missing', async () => {
    const original = await t.deps.files.get(uploaded[0]!.key);
    await t.deps.files.putAt(uploaded[0]!.key, Readable.from([original, Buffer.from('tampered')]));
    await t.deps.files.delete(uploaded[2]!.key);
    const direct = await verifyStoredFile(t.deps, uploaded[0]!.id);
    expect(direct?.status).toBe('mismatch');
    expect(direct?.actual).not.toBe(direct?.expected);

    const res = await w.adminA.client.post(scan);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ scanned: 3, ok: 1, mismatched: 1, missing: 1 });
    expect(res.json().message).toBe('2 of 3 files failed verification');
    const byUuid = Object.fromEntries(data.problems.map((p: { file_uuid: string }) => [p.file_uuid, p]));
    expect(byUuid[uploaded[0]!.uuid]).toMatchObject({ status: 'mismatch', kind: 'photo', job_uuid: w.job.uuid });
    expect(byUuid[uploaded[2]!.uuid]).toMatchObject({ status: 'missing', actual_sha256: null, kind: 'document' });
    const row = await t.db.selectFrom('job_files').select('integrity').where('id', '=', uploaded[0]!.id).executeTakeFirstOrThrow();
    expect(row.integrity).toBe('mismatch');
    const log = await t.db.selectFrom('activity_log').select(['action', 'details']).where('action', '=', 'file_integrity.scan').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.details).toMatchObject({ scanned: 3, mismatched: 1, missing: 1 });
  });

  it('scans one page at a time with limit and offset', async () => {
    const first = await w.adminA.client.post(scan, { limit: 2 });
    expect(first.json().data).toMatchObject({ total: 3, scanned: 2, next_offset: 2 });
    const second = await w.adminA.client.post(scan, { limit: 2, offset: 2 });
    expect(second.json().data).toMatchObject({ scanned: 1, next_offset: null });
    expect((await w.adminA.client.post(scan, { limit: 0 })).statusCode).toBe(400);
    expect((await w.adminA.client.post(scan, { limit: 'ten' })).statusCode).toBe(400);
  });

  it('an admin scans only the agency; SysOps all agencies', async () => {
    const b = await w.adminB.client.post(scan);
    expect(b.json().data).toMatchObject({ total: 1, scanned: 1, ok: 1 });
    const all = await w.sysops.client.post(scan);
    expect(all.json().data).toMatchObject({ total: 4, scanned: 4 });
  });

  it('needs the permission (not agents, tenants) and a CSRF token', async () => {
    for (const c of [w.agentA1, w.tenant, w.contractor]) expect((await c.client.post(scan)).statusCode).toBe(403);
    const res = await w.adminA.client.post(scan, {}, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Invalid or missing CSRF token');
  });
});
