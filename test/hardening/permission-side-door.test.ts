/**
 * docs/security.md promise 25: nobody creates or changes a user or a role that holds a permission key
 * the actor lacks; platform-wide keys live only in platform roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, login, standardWorld, userClient, type TestApp } from '../helpers/app.ts';

describe('no side door to a permission', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  const denials = (reason: string) =>
    t.db.selectFrom('activity_log').select('details').where('action', 'in', ['user.escalation_denied', 'role.deny']).execute()
      .then((rows) => rows.filter((r) => JSON.stringify(r.details).includes(reason)));

  it('the built-in API role no longer holds the platform metrics key, so an admin-made API user cannot read metrics', async () => {
    const res = await w.adminA.client.post('/api/users', { name: 'Integration', email: 'integration@example.test', role: 'api', password: 'a-long-password-1' });
    expect(res.statusCode, res.body).toBe(201);
    const token = await login(t.app, 'integration@example.test', 'a-long-password-1');
    const metrics = await t.app.inject({ method: 'GET', url: '/api/system/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(metrics.statusCode).toBe(403);
  });

  it('an admin cannot create a user with a role holding a key the admin lacks (logged)', async () => {
    const role = await w.sysops.client.post('/api/admin/roles', { name: 'Scraper', level: 30, permissions: ['api.system.metrics.view'] });
    expect(role.statusCode, role.body).toBe(201);
    const before = await t.db.selectFrom('users').select('id').execute();
    const res = await w.adminA.client.post('/api/users', { name: 'Side door', email: 'side@example.test', role: role.json().data.code, password: 'a-long-password-1' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: 'You cannot assign a role holding permission keys you do not hold: api.system.metrics.view' });
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
    expect((await denials('unheld_keys')).length).toBeGreaterThan(0);
  });

  it('an admin cannot move an existing user onto such a role either', async () => {
    const scraper = await t.db.selectFrom('roles').select(['id', 'code']).where('name', '=', 'Scraper').executeTakeFirstOrThrow();
    const agent = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    const res = await w.adminA.client.put(`/api/users/${agent.user.uuid}`, { role: scraper.code });
    expect(res.statusCode).toBe(403);
    const row = await t.db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').select('r.code').where('u.id', '=', agent.user.id).executeTakeFirstOrThrow();
    expect(row.code).toBe('agent');
  });

  it('platform keys cannot be put in an agency role, even by SysOps', async () => {
    const res = await w.sysops.client.post('/api/admin/roles', { name: 'Agency scraper', level: 30, agency_uuid: w.agencyA.uuid, permissions: ['api.system.metrics.view'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Platform-wide permission keys belong only to platform roles: api.system.metrics.view');
    const api = await t.db.selectFrom('roles').select('id').where('code', '=', 'api').executeTakeFirstOrThrow();
    const put = await w.sysops.client.put(`/api/admin/roles/${api.id}/permissions`, { permissions: ['api.system.metrics.view'] });
    expect(put.statusCode).toBe(403);
  });

  it('an admin cannot edit a role that holds a key the admin lacks', async () => {
    const admin = await t.db.selectFrom('roles').select('id').where('name', '=', 'Scraper').executeTakeFirstOrThrow();
    const res = await w.adminA.client.put(`/api/admin/roles/${admin.id}`, { description: 'mine now' });
    expect([403, 404]).toContain(res.statusCode);
    const role = await w.adminA.client.post('/api/admin/roles', { name: 'Helpers', level: 30, permissions: ['api.jobs.manage.manage'] });
    expect(role.statusCode, role.body).toBe(201);
    await t.db.insertInto('role_permissions').values({ role_id: role.json().data.id, permission_key: 'api.admin.rate-limits.manage' }).execute();
    const edit = await w.adminA.client.put(`/api/admin/roles/${role.json().data.id}`, { description: 'changed' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error).toBe('You cannot change a role holding permission keys you do not hold: api.admin.rate-limits.manage');
  });
});
