import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { multipartFile, tinyJpeg, tinyPng, tinyWebp } from './images.ts';

const PATH = '/api/users/appearance';
const BANNER = `${PATH}/banner`;

describe('appearance (spec 4.14, 2.5a)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const upload = (client: typeof w.adminA.client, data: Buffer, name = 'banner.png', type = 'image/png', field = 'file', csrf = true) => {
    const form = multipartFile(field, name, type, data);
    return client.post(BANNER, form.payload, { headers: form.headers, csrf });
  };
  const row = (userId: number) => t.db.selectFrom('user_appearance').selectAll().where('user_id', '=', userId).executeTakeFirst();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('reads the defaults at the top level (no data) before anything is set', async () => {
    const res = await w.agentA1.client.get(PATH);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true, message: 'Appearance retrieved', dashboard_bg_custom: 'default', dashboard_banner_path: null, banner: null,
    });
    const none = await w.agentA1.client.get(`${PATH}?action=banner`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ success: false, error: 'Banner not found' });
  });

  it('sets the background to a #RRGGBB colour (lower-cased) or a preset, and null resets it', async () => {
    const res = await w.adminA.client.put(PATH, { dashboard_bg_custom: '#1A2B3C' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Appearance updated', dashboard_bg_custom: '#1a2b3c' });
    expect((await w.adminA.client.get(PATH)).json().dashboard_bg_custom).toBe('#1a2b3c');
    expect((await w.adminA.client.put(PATH, { dashboard_bg_custom: 'ocean' })).json().dashboard_bg_custom).toBe('ocean');
    expect((await w.adminB.client.get(PATH)).json().dashboard_bg_custom).toBe('default');
    expect((await w.adminA.client.put(PATH, { dashboard_bg_custom: null })).json().dashboard_bg_custom).toBe('default');
    const log = await t.db.selectFrom('activity_log').select('action').where('action', '=', 'appearance.update').execute();
    expect(log).toHaveLength(3);
  });

  it('rejects a bad background with 400 and changes nothing', async () => {
    await w.agentA1.client.put(PATH, { dashboard_bg_custom: 'dark' });
    for (const bad of ['#12345', '#GGGGGG', 'red', 'url(javascript:alert(1))', '', 12, '#1234567']) {
      const res = await w.agentA1.client.put(PATH, { dashboard_bg_custom: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: dashboard_bg_custom' });
    }
    expect((await w.agentA1.client.put(PATH, {})).statusCode).toBe(400);
    expect((await row(w.agentA1.user.id))?.dashboard_bg_custom).toBe('dark');
    expect((await w.agentA1.client.get(`${PATH}?action=thumbnail`)).json().error).toBe('Invalid or missing required parameter: action');
  });

  it.each([
    ['PNG', tinyPng(), 'image/png'],
    ['JPEG', tinyJpeg(), 'image/jpeg'],
    ['WebP', tinyWebp(), 'image/webp'],
  ])('uploads a %s banner decided by content and serves it back with its type', async (_name, image, mime) => {
    const res = await upload(w.agentA1.client, image, 'picture.bin', 'application/octet-stream');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Banner uploaded', dashboard_banner_path: '/api/users/appearance?action=banner' });
    expect(body.banner).toMatchObject({ mime, size_bytes: image.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await w.agentA1.client.get(PATH)).json().dashboard_banner_path).toBe('/api/users/appearance?action=banner');
    const got = await w.agentA1.client.get(`${PATH}?action=banner`);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe(mime);
    expect(got.headers.etag).toBe(`"${body.banner.sha256}"`);
    expect(got.rawPayload.equals(image)).toBe(true);
    const stored = await row(w.agentA1.user.id);
    expect(stored).toMatchObject({ banner_mime: mime, banner_size: image.length, banner_sha256: body.banner.sha256 });
  });

  it('keeps only the latest banner file', async () => {
    const dirFiles = async () => {
      const root = (t.deps.files as unknown as { root: string }).root;
      const out: string[] = [];
      for (const y of await readdir(root).catch(() => [])) for (const m of await readdir(`${root}/${y}`)) out.push(...(await readdir(`${root}/${y}/${m}`)));
      return out;
    };
    const first = await upload(w.adminB.client, tinyPng([1, 2, 3]));
    const before = await dirFiles();
    await upload(w.adminB.client, tinyPng([4, 5, 6]));
    const after = await dirFiles();
    expect(after.length).toBe(before.length);
    expect(first.json().banner.sha256).not.toBe((await w.adminB.client.get(PATH)).json().banner.sha256);
  });

  it('rejects a text file named .png and a missing file field with 400 and a non-multipart body with 415, storing nothing', async () => {
    const before = await row(w.sysops.user.id);
    const text = await upload(w.sysops.client, Buffer.from('just some text pretending to be an image\n'), 'banner.png', 'image/png');
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ success: false, error: 'The banner must be a PNG, JPEG or WebP image' });
    const gif = await upload(w.sysops.client, Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'), 'banner.gif', 'image/gif');
    expect(gif.statusCode).toBe(400);
    const wrongField = await upload(w.sysops.client, tinyPng(), 'banner.png', 'image/png', 'image');
    expect(wrongField.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: file' });
    // JSON where the upload takes multipart/form-data only (docs/api.md "Errors")
    const json = await w.sysops.client.post(BANNER, { file: 'iVBORw0KGgo=' });
    expect(json.statusCode).toBe(415);
    expect(await row(w.sysops.user.id)).toEqual(before);
  });

  it('answers 413 for a banner above 2 MB and keeps the earlier one', async () => {
    await upload(w.adminA.client, tinyPng());
    const before = await row(w.adminA.user.id);
    const big = Buffer.concat([tinyPng(), Buffer.alloc(t.config.uploads.bannerMaxBytes)]);
    const res = await upload(w.adminA.client, big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, error: `The banner must be at most ${2 * 1_048_576} bytes` });
    expect(await row(w.adminA.user.id)).toEqual(before);
  });

  it('removes the banner; a second removal is 404', async () => {
    await upload(w.adminA.client, tinyWebp());
    const res = await w.adminA.client.delete(BANNER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Banner removed', dashboard_banner_path: null, banner: null });
    expect((await w.adminA.client.get(`${PATH}?action=banner`)).statusCode).toBe(404);
    expect((await w.adminA.client.delete(BANNER)).json()).toEqual({ success: false, error: 'Banner not found' });
  });

  it("shows each user only their own banner", async () => {
    await upload(w.adminA.client, tinyJpeg());
    const other = await userClient(t, { role: 'admin', agencyId: w.agencyA.id });
    expect((await other.client.get(`${PATH}?action=banner`)).statusCode).toBe(404);
    expect((await w.adminB.client.get(`${PATH}?action=banner`)).headers['content-type']).toBe('image/png');
  });

  it('needs authentication, the permission and a CSRF token', async () => {
    expect((await t.app.inject({ method: 'GET', url: PATH })).statusCode).toBe(401);
    const u = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id });
    const role = await t.db.selectFrom('roles').select('id').where('code', '=', 'contractor').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_permissions').where('role_id', '=', role.id).where('permission_key', '=', 'api.users.appearance.manage').execute();
    expect((await u.client.get(PATH)).statusCode).toBe(403);
    expect((await u.client.put(PATH, { dashboard_bg_custom: 'dark' })).statusCode).toBe(403);
    expect((await upload(u.client, tinyPng())).statusCode).toBe(403);
    expect((await u.client.delete(BANNER)).statusCode).toBe(403);
    const before = await row(w.agentA1.user.id);
    const put = await w.agentA1.client.put(PATH, { dashboard_bg_custom: 'forest' }, { csrf: false });
    expect(put.statusCode).toBe(403);
    expect(put.json().error).toBe('Invalid or missing CSRF token');
    expect((await upload(w.agentA1.client, tinyPng(), 'b.png', 'image/png', 'file', false)).statusCode).toBe(403);
    expect((await w.agentA1.client.delete(BANNER, undefined, { csrf: false })).statusCode).toBe(403);
    expect(await row(w.agentA1.user.id)).toEqual(before);
  });
});
