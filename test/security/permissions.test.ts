/**
 * Spec 5.3a and docs/security.md promises 7, 8, 9: every route declares a permission key, a caller
 * without it gets 403 before any body is read (and the refusal is logged), another agency's
 * record is the same 404 as a missing one, and bodies cannot assign protected fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.ts';
import { PERMISSIONS } from '../../src/permissions/catalogue.ts';
import { buildTestApp, Client, createUser, csrf, login, standardWorld, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof standardWorld>>;
beforeAll(async () => {
  t = await buildTestApp();
  w = await standardWorld(t);
});
afterAll(async () => t?.close());

/** A user whose custom role holds no permission key at all. */
async function powerlessClient() {
  const now = new Date();
  const suffix = Math.random().toString(36).slice(2, 8);
  const role = await t.db
    .insertInto('roles')
    .values({ name: `Viewer ${suffix}`, code: `viewer_${suffix}`, level: 5, agency_id: w.agencyA.id, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const roleCode = (await t.db.selectFrom('roles').select('code').where('id', '=', role.id).executeTakeFirstOrThrow()).code;
  const user = await createUser(t.db, { role: roleCode, agencyId: w.agencyA.id, branchId: w.a1.id });
  const token = await login(t.app, user.email);
  return { user, token, client: new Client(t.app, token) };
}

describe('route permissions', () => {
  it('every registered route names a catalogued key or a route marker', () => {
    const keys = new Set(PERMISSIONS.map((p) => p.key));
    expect(keys.size).toBe(PERMISSIONS.length);
    for (const p of PERMISSIONS) {
      expect(p.key).toMatch(/^[a-z]+(\.[a-z0-9_-]+)+$/);
      expect(p.description.length).toBeGreaterThan(5);
    }
  });

  it('the server refuses to start when a route lacks a permission key', async () => {
    const app = await buildApp(t.deps, { logger: false });
    app.get('/api/unguarded', async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow(/without a valid permission key: GET \/api\/unguarded/);
    await app.close().catch(() => undefined);
  });

  it('the server refuses to start when a route names an unknown key', async () => {
    const app = await buildApp(t.deps, { logger: false });
    app.get('/api/typo', { config: { permission: 'api.jobs.manage.mange' } }, async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow(/api\.jobs\.manage\.mange/);
    await app.close().catch(() => undefined);
  });
});

describe('authorisation', () => {
  it('a caller without the key gets 403 with the spec message', async () => {
    const res = await w.agentA1.client.get('/api/admin/activity-log');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: 'You do not have permission to perform this action' });
  });

  it('403 comes before body validation and parsing: malformed JSON, no CSRF token, anything', async () => {
    const p = await powerlessClient();
    for (const payload of ['{"title": ', '{"priority": "high"}', '']) {
      const res = await t.app.inject({
        method: 'POST', url: '/api/jobs/manage',
        headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('You do not have permission to perform this action');
    }
  });

  it('every refused authorisation is in the activity log', async () => {
    const p = await powerlessClient();
    await p.client.get('/api/jobs/manage');
    const row = await t.db.selectFrom('activity_log').selectAll().where('user_id', '=', p.user.id).where('action', '=', 'authorization.deny').executeTakeFirst();
    expect(row).toMatchObject({ resource_type: 'route', ip_address: '127.0.0.1', agency_id: w.agencyA.id });
    expect(row?.created_at).toBeInstanceOf(Date);
  });

  it('GET /api/users/permissions returns role, level and sorted keys', async () => {
    const res = await w.agentA1.client.get('/api/users/permissions');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ user_uuid: w.agentA1.user.uuid, role: 'Agent', level: 50 });
    expect(data.permissions).toContain('api.jobs.manage.manage');
    expect(data.permissions).toEqual([...data.permissions].sort());
    expect(data.permissions).not.toContain('api.admin.activity-log.manage');
  });
});

describe('agencies are isolated', () => {
  it("another agency's branch is the same 404 as a branch that does not exist", async () => {
    const foreign = await w.agentA1.client.post('/api/jobs/manage', { title: 'Probe', priority: 3, branch_uuid: w.b1.uuid });
    const missing = await w.agentA1.client.post('/api/jobs/manage', { title: 'Probe', priority: 3, branch_uuid: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect(foreign.json()).toEqual({ success: false, error: 'Branch not found' });
  });

  it("an admin never lists another agency's jobs", async () => {
    await w.adminB.client.post('/api/jobs/manage', { title: 'Southbank only', priority: 3 });
    const res = await w.adminA.client.get('/api/jobs/manage?limit=200');
    expect(res.json().data.map((j: { title: string }) => j.title)).not.toContain('Southbank only');
  });
});

describe('no mass assignment, no secrets in responses', () => {
  it('protected fields in a body are ignored', async () => {
    const res = await w.agentA1.client.post('/api/jobs/manage', {
      title: 'Mass assignment attempt', priority: 2, agency_id: w.agencyB.id, status_id: 9, reference: 'JOB-999999', deleted_at: '2020-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    const job = await t.db.selectFrom('jobs').selectAll().where('uuid', '=', res.json().data.uuid).executeTakeFirstOrThrow();
    expect(job.agency_id).toBe(w.agencyA.id);
    expect(job.status_id).toBe(1);
    expect(job.reference).not.toBe('JOB-999999');
    expect(job.deleted_at).toBeNull();
  });

  it('no response carries a hash or a secret', async () => {
    const bodies = [
      (await w.adminA.client.get('/api/auth/me')).body,
      (await w.adminA.client.get('/api/users/permissions')).body,
      (await w.adminA.client.get('/api/admin/activity-log?limit=200')).body,
      (await w.adminA.client.get('/api/jobs/manage?limit=200')).body,
    ];
    for (const body of bodies) {
      expect(body).not.toMatch(/password|\$argon2|token_hash/i);
    }
    expect(await csrf(t.app, w.adminA.token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
