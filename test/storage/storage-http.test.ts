/**
 * File storage through the API on both backends: streamed downloads with Content-Length, ETag,
 * Range (206, 416) and If-None-Match (304); the integrity-scan and orphan-cleanup periodic tasks;
 * and on S3: presigned 302 downloads, a store that is down answering 503 with no row written,
 * and `storage migrate` from local to S3 verified by hash.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodicTasks } from '../../src/main/background.ts';
import { migrateFiles, removeOrphans } from '../../src/modules/platform/storage/index.ts';
import { pngBytes } from '../../src/seed/demo/sample-files.ts';
import { hashStream, S3FileStore } from '../../src/storage/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { attachedRecordsWorld } from '../helpers/attached-records-world.ts';
import { s3TestEnv } from '../helpers/s3-server.ts';
import { form } from '../helpers/upload-form.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const task = (name: string) => periodicTasks().find((p) => p.name === name)!;

describe.each(['local', 's3'] as const)('file storage through the API on %s', (driver) => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  let photos: string;
  const png = pngBytes(40, 30);

  beforeAll(async () => {
    t = await buildTestApp(driver === 's3' ? await s3TestEnv() : { STORAGE_DRIVER: 'local' });
    w = await attachedRecordsWorld(t);
    photos = `/api/jobs/${w.job.uuid}/photos`;
  });
  afterAll(async () => t?.close());

  it('streams a download with Content-Length and ETag, answers ranges with 206 and 416, and If-None-Match with 304', async () => {
    expect(t.deps.files.driver).toBe(driver);
    const up = await w.agentA1.client.post(photos, form(png, 'hall.png'));
    expect(up.statusCode).toBe(201);
    const url = `${photos}/${up.json().data.uuid}`;
    const whole = await w.agentA1.client.get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(png.length));
    expect(whole.headers.etag).toBe(`"${sha(png)}"`);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(png)).toBe(true);

    const part = await w.agentA1.client.get(url, { range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${png.length}`);
    expect(part.headers['content-length']).toBe('10');
    expect(part.rawPayload.equals(png.subarray(10, 20))).toBe(true);

    const tail = await w.agentA1.client.get(url, { range: 'bytes=-5' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(png.subarray(png.length - 5))).toBe(true);

    const beyond = await w.agentA1.client.get(url, { range: `bytes=${png.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${png.length}`);
    expect(beyond.json()).toEqual({ success: false, error: 'Range not satisfiable' });

    const cached = await w.agentA1.client.get(url, { 'if-none-match': `"${sha(png)}"` });
    expect(cached.statusCode).toBe(304);
  });

  it('integrity scan task reports altered and missing objects on this backend', async () => {
    const a = (await w.agentA1.client.post(photos, form(pngBytes(5, 5), 'a.png'))).json().data;
    const b = (await w.agentA1.client.post(photos, form(pngBytes(6, 6), 'b.png'))).json().data;
    const keyOf = async (uuid: string) => (await t.db.selectFrom('job_files').select('storage_key').where('uuid', '=', uuid).executeTakeFirstOrThrow()).storage_key;
    await t.deps.files.putAt(await keyOf(a.uuid), Readable.from([Buffer.from('tampered')]));
    await t.deps.files.delete(await keyOf(b.uuid));
    await task('storage.file_integrity_scan').run(t.deps);
    const rows = await t.db.selectFrom('job_files').select(['uuid', 'integrity']).execute();
    const by = Object.fromEntries(rows.map((r) => [r.uuid, r.integrity]));
    expect(by[a.uuid]).toBe('mismatch');
    expect(by[b.uuid]).toBe('missing');
    expect(Object.values(by).filter((s) => s === 'ok').length).toBeGreaterThan(0);
    const entry = await t.db.selectFrom('activity_log').select(['user_name', 'details']).where('action', '=', 'file_integrity.scan').executeTakeFirstOrThrow();
    expect(entry.user_name).toBe('system');
  });

  it('orphan cleanup removes old objects no record refers to and keeps recorded and young ones', async () => {
    const orphan = await t.deps.files.put(Buffer.from('left by a failed transaction'), 'txt');
    expect(await t.deps.files.stat(orphan.key)).toBeGreaterThan(0);
    const young = await removeOrphans(t.deps);
    expect(young.removed).not.toContain(orphan.key);
    t.clock.advance(25 * 3600 * 1000);
    await task('storage.orphan_cleanup').run(t.deps);
    expect(await t.deps.files.stat(orphan.key)).toBeUndefined();
    const rows = await t.db.selectFrom('job_files').select('storage_key').where('integrity', 'is distinct from', 'missing').execute();
    for (const r of rows) expect(await t.deps.files.stat(r.storage_key)).toBeGreaterThan(0);
  });
});

describe('file storage on S3 only', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = await s3TestEnv();
    t = await buildTestApp({ ...env, S3_PRESIGN_TTL_S: '300' });
    w = await attachedRecordsWorld(t);
  });
  afterAll(async () => t?.close());

  it('answers a download with 302 to a presigned URL that serves the bytes', async () => {
    const png = pngBytes(8, 8);
    const up = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/photos`, form(png, 'porch.png'));
    const res = await w.agentA1.client.get(`/api/jobs/${w.job.uuid}/photos/${up.json().data.uuid}`);
    expect(res.statusCode).toBe(302);
    const location = res.headers.location as string;
    expect(location).toContain('X-Amz-Signature=');
    expect(location).toContain('X-Amz-Expires=300');
    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(png)).toBe(true);
  });

  it('a store that is down answers 503 in the envelope and writes no row', async () => {
    const down = await buildTestApp({ ...env, S3_ENDPOINT: 'http://127.0.0.1:9' });
    try {
      const dw = await attachedRecordsWorld(down);
      const res = await dw.agentA1.client.post(`/api/jobs/${dw.job.uuid}/photos`, form(pngBytes(4, 4), 'x.png'));
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, error: 'File storage is temporarily unavailable. Please try again.' });
      const n = await down.db.selectFrom('job_files').select(down.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(0);
      const logged = await down.db.selectFrom('activity_log').select('id').where('action', '=', 'job_photo.upload').execute();
      expect(logged).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it('storage migrate copies local files to S3, verifies each hash, and is safe to re-run', async () => {
    const lt = await buildTestApp({ STORAGE_DRIVER: 'local' });
    try {
      const lw = await attachedRecordsWorld(lt);
      // The source is this app's own local folder (a temp dir).
      const source = lt.deps.files;
      const uploads = [pngBytes(3, 3), pngBytes(9, 4), pngBytes(2, 7)];
      for (const [i, png] of uploads.entries()) {
        expect((await lw.agentA1.client.post(`/api/jobs/${lw.job.uuid}/photos`, form(png, `p${i}.png`))).statusCode).toBe(201);
      }
      const target = new S3FileStore({ bucket: env.S3_BUCKET!, region: 'us-east-1', endpoint: env.S3_ENDPOINT, forcePathStyle: true, presignTtlS: 0 });
      const lines: string[] = [];
      const first = await migrateFiles(lt.db, source, target, (l) => lines.push(l));
      expect(first).toMatchObject({ total: 3, copied: 3, skipped: 0, failed: [] });
      expect(lines.filter((l) => l.includes('copied, hash verified'))).toHaveLength(3);
      expect(lines.at(-2)).toMatch(/^\[#{20}\] 3\/3 100% /);
      const rows = await lt.db.selectFrom('job_files').select(['storage_key', 'sha256']).execute();
      for (const r of rows) expect((await hashStream(await target.open(r.storage_key))).sha256).toBe(r.sha256.trim());

      // Re-run: nothing copied again; a damaged copy is copied again.
      await target.putAt(rows[0]!.storage_key, Readable.from([Buffer.from('damaged')]));
      const second = await migrateFiles(lt.db, source, target, () => undefined);
      expect(second).toMatchObject({ total: 3, copied: 1, skipped: 2, failed: [] });
      expect((await hashStream(await target.open(rows[0]!.storage_key))).sha256).toBe(rows[0]!.sha256.trim());

      // A file missing from the source is reported, not hidden.
      await source.delete(rows[1]!.storage_key);
      await target.delete(rows[1]!.storage_key);
      const third = await migrateFiles(lt.db, source, target, () => undefined);
      expect(third.failed).toEqual([{ key: rows[1]!.storage_key, reason: 'missing in the source' }]);
      target.close();
    } finally {
      await lt.close();
    }
  });
});
