import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';

const PATH = '/api/system/device-tokens';

describe('device tokens (spec 4.12, 2.4)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const rows = () => t.db.selectFrom('device_tokens').select(['user_id', 'device_token', 'platform']).orderBy('id').execute();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('registers a token (201) and lists it as a 2.4 record with ID upper-case', async () => {
    const res = await w.agentA1.client.post(PATH, { device_token: 'apns-token-1', platform: 'ios' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: 'Device token registered' });
    const listed = await w.agentA1.client.get(PATH);
    expect(listed.statusCode).toBe(200);
    const body = listed.json();
    expect(body).toMatchObject({ success: true, count: 1, message: 'Device tokens retrieved' });
    expect(body.data).toEqual([
      { ID: res.json().data.ID, user_id: w.agentA1.user.id, device_token: 'apns-token-1', platform: 'ios', registered_at: '2026-11-21T09:00:00.000Z' },
    ]);
    expect(Object.keys(body.data[0])).toEqual(['ID', 'user_id', 'device_token', 'platform', 'registered_at']);
  });

  it('refreshes a token registered again (200, new registered_at) and moves it to the new caller, never duplicating', async () => {
    await w.adminA.client.post(PATH, { device_token: 'fcm-shared', platform: 'android' });
    t.clock.advance(3600);
    const again = await w.adminA.client.post(PATH, { device_token: 'fcm-shared', platform: 'android' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: 'Device token refreshed', data: { registered_at: '2026-11-21T10:00:00.000Z' } });
    const moved = await w.adminB.client.post(PATH, { device_token: 'fcm-shared', platform: 'web' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ user_id: w.adminB.user.id, platform: 'web', ID: again.json().data.ID });
    expect((await rows()).filter((r) => r.device_token === 'fcm-shared')).toEqual([{ user_id: w.adminB.user.id, device_token: 'fcm-shared', platform: 'web' }]);
    expect((await w.adminA.client.get(PATH)).json().count).toBe(0);
  });

  it('accepts a 4096-character token and rejects bad input with 400, writing nothing', async () => {
    const long = 'x'.repeat(4096);
    expect((await w.sysops.client.post(PATH, { device_token: long, platform: 'web' })).statusCode).toBe(201);
    const before = await rows();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ device_token: 'y'.repeat(4097), platform: 'web' }, 'device_token'],
      [{ device_token: '', platform: 'web' }, 'device_token'],
      [{ platform: 'web' }, 'device_token'],
      [{ device_token: 'abc', platform: 'symbian' }, 'platform'],
      [{ device_token: 'abc' }, 'platform'],
      [{ device_token: 42, platform: 'ios' }, 'device_token'],
    ];
    for (const [body, name] of cases) {
      const res = await w.sysops.client.post(PATH, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json()).toEqual({ success: false, error: `Invalid or missing required parameter: ${name}` });
    }
    expect(await rows()).toEqual(before);
    expect((await w.sysops.client.get(`${PATH}?limit=201`)).statusCode).toBe(400);
  });

  it("removes the caller's token; another user's or an unknown token is 404", async () => {
    await w.agentA1.client.post(PATH, { device_token: 'to-remove', platform: 'android' });
    await w.adminB.client.post(PATH, { device_token: 'b-only', platform: 'ios' });
    const other = await w.agentA1.client.delete(PATH, { device_token: 'b-only' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, error: 'Device token not found' });
    expect((await w.agentA1.client.delete(PATH, { device_token: 'never-registered' })).statusCode).toBe(404);
    const res = await w.agentA1.client.delete(PATH, { device_token: 'to-remove' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Device token removed' });
    expect((await rows()).map((r) => r.device_token)).toContain('b-only');
    expect((await rows()).map((r) => r.device_token)).not.toContain('to-remove');
    expect((await w.agentA1.client.delete(PATH, {})).statusCode).toBe(400);
    const log = await t.db.selectFrom('activity_log').select('action').where('resource_type', '=', 'device_token').execute();
    expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['device_token.register', 'device_token.refresh', 'device_token.delete']));
  });

  it('needs authentication, the permission and a CSRF token', async () => {
    expect((await t.app.inject({ method: 'GET', url: PATH })).statusCode).toBe(401);
    const noKey = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    const tenantRole = await t.db.selectFrom('roles').select('id').where('code', '=', 'tenant').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_permissions').where('role_id', '=', tenantRole.id).where('permission_key', '=', 'api.system.device-tokens.manage').execute();
    expect((await noKey.client.get(PATH)).statusCode).toBe(403);
    expect((await noKey.client.post(PATH, { device_token: 'z', platform: 'ios' })).statusCode).toBe(403);
    expect((await noKey.client.delete(PATH, { device_token: 'z' })).statusCode).toBe(403);
    const before = await rows();
    const noCsrf = await w.agentA1.client.post(PATH, { device_token: 'csrf-less', platform: 'ios' }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    await w.agentA1.client.post(PATH, { device_token: 'keep', platform: 'ios' });
    expect((await w.agentA1.client.delete(PATH, { device_token: 'keep' }, { csrf: false })).statusCode).toBe(403);
    expect((await rows()).length).toBe(before.length + 1);
  });
});
