import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { activity, roleId } from '../../helpers/roles-branches.ts';

describe('PUT /api/admin/user-management-policy (spec 4.10)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let customA: number;
  let highA: number;
  let customB: number;
  const level = async (id: number) => (await t.db.selectFrom('roles').select('level').where('id', '=', id).executeTakeFirstOrThrow()).level;
  const denials = async () => (await activity(t.db, 'role.deny')).filter((e) => (e.details as { operation: string }).operation === 'set_level');
  const put = (c: typeof w.adminA.client, body: object, options?: { csrf?: boolean }) => c.put('/api/admin/user-management-policy', body, options);

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    customA = (await w.adminA.client.post('/api/admin/roles', { name: 'Senior agent', level: 60 })).json().data.id;
    customB = (await w.adminB.client.post('/api/admin/roles', { name: 'Senior agent', level: 60 })).json().data.id;
    highA = (await w.sysops.client.post('/api/admin/roles', { name: 'Regional director', level: 90, agency_uuid: w.agencyA.uuid })).json().data.id;
  });
  afterAll(async () => t?.close());

  it('sets the level of a custom role of the admin\'s agency below the admin\'s own level', async () => {
    const res = await put(w.adminA.client, { id: customA, level: 79 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Management level of role Senior agent set to 79' });
    expect(await level(customA)).toBe(79);
    expect((await activity(t.db, 'role.level_set')).at(-1)).toMatchObject({ resource_id: customA, agency_id: w.agencyA.id, user_id: w.adminA.user.id, details: { from: 60, to: 79 } });
  });

  it('refuses raising a role to the caller\'s own level or above (403, logged, unchanged)', async () => {
    const before = (await denials()).length;
    for (const target of [80, 95]) {
      const res = await put(w.adminA.client, { id: customA, level: target });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('You can only manage roles below your own management level');
    }
    expect(await level(customA)).toBe(79);
    const log = await denials();
    expect(log.length).toBe(before + 2);
    expect(log.at(-1)).toMatchObject({ user_id: w.adminA.user.id, resource_id: customA, details: { reason: 'level', requested_level: 95, own_level: 80 } });
  });

  it('refuses changing a role whose current level is at or above the caller\'s, even downwards', async () => {
    const res = await put(w.adminA.client, { id: highA, level: 10 });
    expect(res.statusCode).toBe(403);
    expect(await level(highA)).toBe(90);
    expect((await denials()).at(-1)!.details).toMatchObject({ reason: 'level', role_level: 90 });
  });

  it('refuses an agency admin changing built-in roles, which every agency shares (403, logged)', async () => {
    const agent = await roleId(t.db, 'agent');
    const res = await put(w.adminA.client, { id: agent, level: 40 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Built-in and global roles are shared by every agency; only SysOps may change them');
    expect(await level(agent)).toBe(50);
    expect((await denials()).at(-1)!.details).toMatchObject({ reason: 'shared_role' });
  });

  it('refuses self-promotion: nobody changes their own role (403, logged)', async () => {
    const sysopsRole = await roleId(t.db, 'sysops');
    const res = await put(w.sysops.client, { id: sysopsRole, level: 99 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('You cannot change your own role');
    expect(await level(sysopsRole)).toBe(100);
    expect((await denials()).at(-1)).toMatchObject({ user_id: w.sysops.user.id, details: { reason: 'own_role' } });
  });

  it('lets SysOps change any role below their level, built-in ones included, but not to 100', async () => {
    const agent = await roleId(t.db, 'agent');
    expect((await put(w.sysops.client, { id: agent, level: 55 })).statusCode).toBe(200);
    expect(await level(agent)).toBe(55);
    expect((await put(w.sysops.client, { id: highA, level: 85 })).statusCode).toBe(200);
    expect((await put(w.sysops.client, { id: await roleId(t.db, 'admin'), level: 100 })).statusCode).toBe(403);
    expect(await level(await roleId(t.db, 'admin'))).toBe(80);
    await put(w.sysops.client, { id: agent, level: 50 });
  });

  it('answers 404 for an unknown role and for another agency\'s role', async () => {
    const unknown = await put(w.adminA.client, { id: 999999, level: 10 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, error: 'Role not found' });
    expect((await put(w.adminA.client, { id: customB, level: 10 })).statusCode).toBe(404);
    expect(await level(customB)).toBe(60);
  });

  it('validates id and level (0 to 1000)', async () => {
    for (const [body, name] of [
      [{ id: customA, level: 1001 }, 'level'],
      [{ id: customA, level: -1 }, 'level'],
      [{ id: customA, level: 'high' }, 'level'],
      [{ level: 10 }, 'id'],
      [{ id: 0, level: 10 }, 'id'],
    ] as const) {
      const res = await put(w.adminA.client, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(`Invalid or missing required parameter: ${name}`);
    }
    expect(await level(customA)).toBe(79);
  });

  it('needs authentication, the permission and a CSRF token', async () => {
    const anon = await t.app.inject({ method: 'PUT', url: '/api/admin/user-management-policy', payload: { id: customA, level: 1 } });
    expect(anon.statusCode).toBe(401);
    expect((await put(w.agentA1.client, { id: customA, level: 1 })).statusCode).toBe(403);
    const noCsrf = await put(w.adminA.client, { id: customA, level: 1 }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
    expect(await level(customA)).toBe(79);
  });
});
