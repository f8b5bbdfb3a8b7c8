/**
 * docs/security.md "Uploads" and "Request ids": an image whose header declares more than 50
 * megapixels is refused (job photos, banners, certificate scans), measured from the header only;
 * bidirectional control characters never stay in a stored file name nor reach Content-Disposition;
 * every request id is the server's own, one per request: a client's X-Request-Id is logged apart
 * (client_request_id) and never becomes the id, so no client can reuse another request's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.ts';
import { MAX_IMAGE_PIXELS } from '../../src/http/image-limits.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { buildTestApp, logLines, type TestApp } from '../helpers/app.ts';
import { attachedRecordsWorld } from '../helpers/attached-records-world.ts';
import { form } from '../helpers/upload-form.ts';
import { pngDeclaring } from '../platform/appearance/images.ts';

/** Every bidirectional control the service strips. */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

let t: TestApp;
let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
beforeAll(async () => {
  t = await buildTestApp();
  w = await attachedRecordsWorld(t);
});
afterAll(async () => t?.close());

describe('image dimensions', () => {
  it('refuses a 30000 x 30000 PNG (900 megapixels in a few kilobytes) as a job photo and as a banner; 50 megapixels pass', async () => {
    const bomb = pngDeclaring(30_000, 30_000);
    expect(bomb.length).toBeLessThan(100_000);
    const photos = `/api/jobs/${w.job.uuid}/photos`;
    const before = await t.db.selectFrom('job_files').select('id').execute();
    const refused = await w.agentA1.client.post(photos, form(bomb, 'bomb.png'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, error: 'The image is too large: 30000 x 30000 pixels (at most 50 megapixels)' });
    expect(await t.db.selectFrom('job_files').select('id').execute()).toEqual(before);
    const banner = await w.adminA.client.post('/api/users/appearance/banner', form(pngDeclaring(10_000, 5_001), 'wide.png'));
    expect(banner.json()).toEqual({ success: false, error: 'The image is too large: 10000 x 5001 pixels (at most 50 megapixels)' });
    expect(7_071 * 7_071).toBeLessThanOrEqual(MAX_IMAGE_PIXELS);
    expect((await w.agentA1.client.post(photos, form(pngDeclaring(7_071, 7_071), 'big-but-fine.png'))).statusCode).toBe(201);
  });
});

describe('bidirectional controls in file names', () => {
  it('are stripped from the stored name and from Content-Disposition (also for names stored before)', async () => {
    const docs = `/api/jobs/${w.job.uuid}/documents`;
    const up = await w.agentA1.client.post(docs, form(Buffer.from('Meter reading 0412\n'), `invoice${BIDI.join('')}\u202efdp.exe.txt`));
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json().data.filename).toBe('invoicefdp.exe.txt');
    const down = await w.agentA1.client.get(up.json().data.download_url);
    expect(down.headers['content-disposition']).toBe(`attachment; filename="invoicefdp.exe.txt"; filename*=UTF-8''invoicefdp.exe.txt`);
    // A row stored before names were cleaned is served without the controls too.
    const uuid = up.json().data.uuid as string;
    await t.db.updateTable('job_files').set({ original_filename: 'report\u202egpj.exe' }).where('uuid', '=', uuid).execute();
    const old = await w.agentA1.client.get(up.json().data.download_url);
    expect(decodeURIComponent(String(old.headers['content-disposition']))).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    expect(old.headers['content-disposition']).toBe(`attachment; filename="reportgpj.exe.txt"; filename*=UTF-8''reportgpj.exe.txt`);
  });
});

describe('X-Request-Id', () => {
  it('makes every request id itself: a client X-Request-Id, safe or not, is logged apart and never reused as the id', async () => {
    const { lines, stream } = logLines();
    const app = await buildApp(t.deps, { logger: { level: 'info', stream } });
    await app.ready();
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const idsOf = async (value: string) => {
      const from = lines.length;
      const res = await app.inject({ method: 'GET', url: '/livez', headers: { 'x-request-id': value } });
      return { got: lines.slice(from), answered: String(res.headers['x-request-id']) };
    };
    // Two requests with the same client id (one reusing another's): two ids, each the server's.
    const safe = `trace.${newUuid()}:span-1_a`;
    const first = await idsOf(safe);
    const second = await idsOf(safe);
    for (const { got, answered } of [first, second]) {
      expect(new Set(got.map((l) => l.reqId))).toEqual(new Set([answered]));
      expect(answered).toMatch(uuid);
      expect(got.find((l) => 'client_request_id' in l)).toMatchObject({ level: 30, reqId: answered, client_request_id: safe, client_request_id_length: safe.length });
    }
    expect(first.answered).not.toBe(second.answered);
    // A client reusing the id the server gave another request gets its own.
    const reused = await idsOf(first.answered);
    expect(reused.answered).not.toBe(first.answered);
    for (const bad of ['x'.repeat(8_000), 'a b', 'id\u202eevil', '', 'x'.repeat(129), '<script>']) {
      const { got } = await idsOf(bad);
      const ids = new Set(got.map((l) => l.reqId));
      expect(ids.size, JSON.stringify(bad.slice(0, 20))).toBe(1);
      expect([...ids][0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const apart = got.find((l) => 'client_request_id' in l);
      expect(apart).toMatchObject({ level: 30, client_request_id: bad.slice(0, 200), client_request_id_length: bad.length });
    }
    await app.close();
  });
});
