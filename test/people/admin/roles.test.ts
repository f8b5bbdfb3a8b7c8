import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/permissions/catalogue.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { activity, roleId } from '../../helpers/roles-branches.ts';

describe('roles and permissions', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const rolesNamed = (name: string) => t.db.selectFrom('roles').selectAll().where('name', '=', name).execute();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  describe('POST /api/admin/roles', () => {
    it('creates a custom role of the caller\'s agency with keys the caller holds', async () => {
      const res = await w.adminA.client.post('/api/admin/roles', {
        name: 'Senior agent',
        level: 60,
        permissions: ['api.jobs.manage.manage', 'api.agents.view', 'api.agents.view'],
        description: 'Agents who also assign jobs',
      });
      expect(res.statusCode).toBe(201);
      const role = res.json().data;
      expect(role).toMatchObject({
        name: 'Senior agent',
        code: `custom_${w.agencyA.id}_senior_agent`,
        level: 60,
        is_builtin: false,
        agency_uuid: w.agencyA.uuid,
        permissions: ['api.agents.view', 'api.jobs.manage.manage'],
        users_count: 0,
      });
      const log = await activity(t.db, 'role.create');
      expect(log.at(-1)).toMatchObject({ resource_id: role.id, agency_id: w.agencyA.id, user_id: w.adminA.user.id });
    });

    it('allows the same name in another agency with a distinct code, refuses it twice in one agency (409)', async () => {
      const other = await w.adminB.client.post('/api/admin/roles', { name: 'Senior agent', level: 60 });
      expect(other.statusCode).toBe(201);
      expect(other.json().data.code).toBe(`custom_${w.agencyB.id}_senior_agent`);
      const again = await w.adminA.client.post('/api/admin/roles', { name: 'senior AGENT', level: 10 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ success: false, error: 'A role named senior AGENT already exists' });
      const builtinName = await w.adminA.client.post('/api/admin/roles', { name: 'Agent', level: 10 });
      expect(builtinName.statusCode).toBe(409);
    });

    it('refuses a level at or above the caller\'s own (403) and logs the attempt', async () => {
      const before = (await activity(t.db, 'role.deny')).length;
      const res = await w.adminA.client.post('/api/admin/roles', { name: 'Super admin', level: 80 });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('You can only manage roles below your own management level');
      const log = await activity(t.db, 'role.deny');
      expect(log.length).toBe(before + 1);
      expect(log.at(-1)!.details).toMatchObject({ operation: 'create', reason: 'level', requested_level: 80, own_level: 80 });
      expect(await rolesNamed('Super admin')).toHaveLength(0);
    });

    it('refuses to grant a key the caller does not hold (403, logged, naming the key)', async () => {
      const res = await w.adminA.client.post('/api/admin/roles', { name: 'Limiter', level: 10, permissions: ['api.admin.rate-limits.manage'] });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('You cannot grant permission keys you do not hold: api.admin.rate-limits.manage');
      expect((await activity(t.db, 'role.deny')).at(-1)!.details).toMatchObject({ reason: 'unheld_keys', keys: ['api.admin.rate-limits.manage'] });
      expect(await rolesNamed('Limiter')).toHaveLength(0);
    });

    it('refuses an unknown key with 400 naming it, writing nothing', async () => {
      const res = await w.adminA.client.post('/api/admin/roles', { name: 'Typo', level: 10, permissions: ['api.jobs.manage.manage', 'api.jobs.mange'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Invalid or missing required parameter: permissions (unknown key: api.jobs.mange)');
      expect(await rolesNamed('Typo')).toHaveLength(0);
    });

    it('validates the body: blank name, level out of range', async () => {
      expect((await w.adminA.client.post('/api/admin/roles', { name: '   ', level: 10 })).statusCode).toBe(400);
      const high = await w.adminA.client.post('/api/admin/roles', { name: 'X', level: 1001 });
      expect(high.statusCode).toBe(400);
      expect(high.json().error).toBe('Invalid or missing required parameter: level');
      expect((await w.adminA.client.post('/api/admin/roles', { name: 'X' })).statusCode).toBe(400);
    });

    it('lets SysOps create global roles and roles of a named agency; an admin naming another agency gets 404', async () => {
      const global = await w.sysops.client.post('/api/admin/roles', { name: 'Auditor', level: 30, permissions: ['api.admin.activity-log.manage'] });
      expect(global.statusCode).toBe(201);
      expect(global.json().data).toMatchObject({ agency_uuid: null, code: 'custom_global_auditor' });
      const forB = await w.sysops.client.post('/api/admin/roles', { name: 'Clerk', level: 20, agency_uuid: w.agencyB.uuid });
      expect(forB.json().data.agency_uuid).toBe(w.agencyB.uuid);
      const cross = await w.adminA.client.post('/api/admin/roles', { name: 'Sneaky', level: 10, agency_uuid: w.agencyB.uuid });
      expect(cross.statusCode).toBe(404);
      expect(cross.json().error).toBe('Agency not found');
    });

    it('needs the permission and a CSRF token', async () => {
      const noKey = await w.agentA1.client.post('/api/admin/roles', { name: 'Mine', level: 10 });
      expect(noKey.statusCode).toBe(403);
      expect(noKey.json().error).toBe('You do not have permission to perform this action');
      const noCsrf = await w.adminA.client.post('/api/admin/roles', { name: 'Mine', level: 10 }, { csrf: false });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
      expect(await rolesNamed('Mine')).toHaveLength(0);
    });
  });

  describe('GET /api/admin/roles', () => {
    it('shows an admin the built-in, global and own agency roles, highest level first', async () => {
      const res = await w.adminA.client.get('/api/admin/roles?limit=200');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const names = body.data.map((r: { name: string }) => r.name);
      expect(names).toEqual(['SysOps', 'Admin', 'Senior agent', 'Agent', 'API', 'Auditor', 'Contractor', 'Landlord', 'Tenant']);
      expect(body.count).toBe(9);
      const admin = body.data.find((r: { code: string }) => r.code === 'admin');
      expect(admin).toMatchObject({ is_builtin: true, level: 80, agency_uuid: null, users_count: 1 });
      expect(admin.permissions).toContain('api.admin.roles.manage');
      expect(body.data.every((r: { agency_uuid: string | null }) => r.agency_uuid === null || r.agency_uuid === w.agencyA.uuid)).toBe(true);
    });

    it('paginates and filters; SysOps see every agency\'s roles', async () => {
      const page = await w.adminA.client.get('/api/admin/roles?limit=2&offset=1');
      expect(page.json().data.map((r: { code: string }) => r.code)).toEqual(['admin', `custom_${w.agencyA.id}_senior_agent`]);
      expect(page.json().count).toBe(9);
      const q = await w.adminA.client.get('/api/admin/roles?q=senior');
      expect(q.json().count).toBe(1);
      const all = await w.sysops.client.get('/api/admin/roles?q=senior');
      expect(all.json().count).toBe(2);
      expect((await w.adminA.client.get('/api/admin/roles?limit=0')).statusCode).toBe(400);
      expect((await w.agentA1.client.get('/api/admin/roles')).statusCode).toBe(403);
    });
  });

  describe('PUT /api/admin/roles/{id} and /permissions', () => {
    let seniorId: number;
    beforeAll(async () => {
      seniorId = (await rolesNamed('Senior agent')).find((r) => r.agency_id === w.agencyA.id)!.id;
    });

    it('renames and changes the level and keys of a role below the caller', async () => {
      const res = await w.adminA.client.put(`/api/admin/roles/${seniorId}`, { name: 'Lead agent', level: 65, description: 'Leads' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: seniorId, name: 'Lead agent', level: 65, description: 'Leads', code: `custom_${w.agencyA.id}_senior_agent` });
      expect((await activity(t.db, 'role.update')).at(-1)).toMatchObject({ resource_id: seniorId });
    });

    it('refuses an empty change (400), a taken name (409), another agency\'s role (404)', async () => {
      expect((await w.adminA.client.put(`/api/admin/roles/${seniorId}`, {})).statusCode).toBe(400);
      const taken = await w.adminA.client.put(`/api/admin/roles/${seniorId}`, { name: 'Auditor' });
      expect(taken.statusCode).toBe(409);
      const cross = await w.adminB.client.put(`/api/admin/roles/${seniorId}`, { name: 'Hijack' });
      expect(cross.statusCode).toBe(404);
      expect(cross.json().error).toBe('Role not found');
      expect((await w.adminA.client.put('/api/admin/roles/999999', { name: 'Ghost' })).statusCode).toBe(404);
      expect((await w.adminA.client.put(`/api/admin/roles/${seniorId}`, { name: 'X' }, { csrf: false })).statusCode).toBe(403);
    });

    it('refuses an admin changing a built-in or global role (403, logged)', async () => {
      const agent = await roleId(t.db, 'agent');
      const res = await w.adminA.client.put(`/api/admin/roles/${agent}/permissions`, { permissions: [] });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Built-in and global roles are shared by every agency; only SysOps may change them');
      expect((await activity(t.db, 'role.deny')).at(-1)).toMatchObject({ resource_id: agent });
      const stillHas = await t.db.selectFrom('role_permissions').select('permission_key').where('role_id', '=', agent).execute();
      expect(stillHas.length).toBeGreaterThan(0);
    });

    it('replaces the keys with the full list; platform keys never enter an agency role; the holder sees the change', async () => {
      // Not even SysOps may put a platform-wide key into an agency's role (docs/security.md promise 25).
      const sys = await w.sysops.client.put(`/api/admin/roles/${seniorId}/permissions`, { permissions: ['api.jobs.manage.manage', 'api.admin.rate-limits.manage'] });
      expect(sys.statusCode).toBe(403);
      const res = await w.adminA.client.put(`/api/admin/roles/${seniorId}/permissions`, {
        permissions: ['api.agents.view', 'api.agents.job-assignment.manage', 'api.jobs.manage.manage'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.permissions).toEqual(['api.agents.job-assignment.manage', 'api.agents.view', 'api.jobs.manage.manage']);
      expect((await activity(t.db, 'role.permissions_set')).at(-1)!.details).toMatchObject({
        added: expect.arrayContaining(['api.agents.job-assignment.manage']),
      });
      const holder = await userClient(t, { role: `custom_${w.agencyA.id}_senior_agent`, agencyId: w.agencyA.id, branchId: w.a1.id });
      const perms = await holder.client.get('/api/users/permissions');
      expect(perms.json().data).toMatchObject({ role: 'Lead agent', level: 65 });
      expect(perms.json().data.permissions).toContain('api.agents.job-assignment.manage');
      // Removing the key takes effect on the holder's next request.
      await w.adminA.client.put(`/api/admin/roles/${seniorId}/permissions`, { permissions: ['api.jobs.manage.manage'] });
      expect((await holder.client.get('/api/agents')).statusCode).toBe(403);
    });

    it('refuses unknown keys (400) and granting unheld keys (403, logged) when setting permissions', async () => {
      const unknown = await w.adminA.client.put(`/api/admin/roles/${seniorId}/permissions`, { permissions: ['nope'] });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toContain('unknown key: nope');
      const before = (await activity(t.db, 'role.deny')).length;
      const res = await w.adminA.client.put(`/api/admin/roles/${seniorId}/permissions`, { permissions: ['api.admin.rate-limits.manage'] });
      expect(res.statusCode).toBe(403);
      expect((await activity(t.db, 'role.deny')).length).toBe(before + 1);
      const keys = await t.db.selectFrom('role_permissions').select('permission_key').where('role_id', '=', seniorId).execute();
      expect(keys.map((k) => k.permission_key)).toEqual(['api.jobs.manage.manage']);
    });

    it('stops a role manager below admin at its own role and at its own level', async () => {
      const mgr = await w.adminA.client.post('/api/admin/roles', {
        name: 'Office manager',
        level: 70,
        permissions: ['api.admin.roles.manage', 'api.admin.roles.view', 'api.jobs.manage.manage'],
      });
      const peer = await w.adminA.client.post('/api/admin/roles', { name: 'Peer', level: 70 });
      const manager = await userClient(t, { role: mgr.json().data.code, agencyId: w.agencyA.id });
      const own = await manager.client.put(`/api/admin/roles/${mgr.json().data.id}`, { permissions: ['api.admin.roles.manage', 'api.admin.roles.view', 'api.jobs.manage.manage', 'api.agents.view'] });
      expect(own.statusCode).toBe(403);
      expect(own.json().error).toBe('You cannot change your own role');
      const level = await manager.client.put(`/api/admin/roles/${peer.json().data.id}`, { name: 'Peer 2' });
      expect(level.statusCode).toBe(403);
      const below = await manager.client.put(`/api/admin/roles/${seniorId}`, { level: 69 });
      expect(below.statusCode).toBe(200);
      const up = await manager.client.put(`/api/admin/roles/${seniorId}`, { level: 70 });
      expect(up.statusCode).toBe(403);
      const denied = (await activity(t.db, 'role.deny')).filter((e) => e.user_id === manager.user.id);
      expect(denied.map((e) => (e.details as { reason: string }).reason)).toEqual(['own_role', 'level', 'level']);
    });
  });

  describe('DELETE /api/admin/roles/{id}', () => {
    it('refuses built-in roles (409) and roles still held (409)', async () => {
      const builtin = await w.sysops.client.delete(`/api/admin/roles/${await roleId(t.db, 'tenant')}`);
      expect(builtin.statusCode).toBe(409);
      expect(builtin.json().error).toBe('Built-in roles cannot be deleted');
      const held = (await rolesNamed('Lead agent'))[0]!;
      const res = await w.adminA.client.delete(`/api/admin/roles/${held.id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toContain('is held by 1 account(s)');
      expect(await rolesNamed('Lead agent')).toHaveLength(1);
    });

    it('deletes an unused custom role below the caller; other agency 404; level rule 403', async () => {
      const role = await w.adminA.client.post('/api/admin/roles', { name: 'Temp', level: 5, permissions: ['api.jobs.manage.manage'] });
      const id = role.json().data.id as number;
      expect((await w.adminB.client.delete(`/api/admin/roles/${id}`)).statusCode).toBe(404);
      expect((await w.adminA.client.delete(`/api/admin/roles/${id}`, undefined, { csrf: false })).statusCode).toBe(403);
      const high = (await rolesNamed('Peer'))[0]!;
      const manager = (await rolesNamed('Office manager'))[0]!;
      const mgr = await userClient(t, { role: manager.code, agencyId: w.agencyA.id });
      expect((await mgr.client.delete(`/api/admin/roles/${high.id}`)).statusCode).toBe(403);
      const res = await w.adminA.client.delete(`/api/admin/roles/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Role Temp deleted' });
      expect(await rolesNamed('Temp')).toHaveLength(0);
      expect(await t.db.selectFrom('role_permissions').select('role_id').where('role_id', '=', id).execute()).toHaveLength(0);
      expect((await activity(t.db, 'role.delete')).at(-1)).toMatchObject({ resource_id: id });
    });
  });

  describe('GET /api/admin/permissions', () => {
    it('lists the catalogue with default roles, sorted, paginated and filtered', async () => {
      const res = await w.adminA.client.get('/api/admin/permissions?limit=200');
      expect(res.statusCode).toBe(200);
      expect(res.json().count).toBe(PERMISSIONS.length);
      const keys = res.json().data.map((p: { key: string }) => p.key);
      expect(keys).toEqual([...keys].sort());
      expect(res.json().data.find((p: { key: string }) => p.key === 'api.admin.rate-limits.manage')).toEqual({
        key: 'api.admin.rate-limits.manage',
        description: 'Read and change the rate-limit settings of every route',
        default_roles: ['sysops'],
      });
      const q = await w.adminA.client.get('/api/admin/permissions?q=branch&limit=1');
      expect(q.json().data).toHaveLength(1);
      expect(q.json().count).toBeGreaterThanOrEqual(3);
      expect((await w.agentA1.client.get('/api/admin/permissions')).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/permissions' })).statusCode).toBe(401);
    });
  });
});
