/**
 * User administration (docs/users.md): create, read, update, list, disable, enable; agency scope,
 * privilege rules with their activity entries, no mass assignment, no hash in any response.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../../src/lib/crypto.ts';
import { buildTestApp, Client, createUser, login, standardWorld, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

/** Fails when a response carries a password hash, a token hash or a hash field. */
function expectNoSecrets(res: LightMyRequestResponse) {
  expect(res.body).not.toMatch(/\$argon2|password_hash|token_hash/);
}

describe('users: administration', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const activity = (action: string) => t.db.selectFrom('activity_log').selectAll().where('action', '=', action).orderBy('id').execute();
  const userCount = async () => (await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  describe('POST /api/users', () => {
    it('creates an agent with a password who can then log in', async () => {
      const res = await w.adminA.client.post('/api/users', {
        name: 'Rita Agent',
        email: 'Rita.Agent@Example.test',
        role: 'agent',
        branch_uuid: w.a1.uuid,
        password: 'a-long-enough-password',
      });
      expect(res.statusCode).toBe(201);
      expectNoSecrets(res);
      const body = res.json();
      expect(body).toMatchObject({ success: true, message: 'User created' });
      expect(body.data).toMatchObject({
        name: 'Rita Agent',
        email: 'rita.agent@example.test',
        role: 'Agent',
        role_code: 'agent',
        level: 50,
        status: 'active',
        agency_uuid: w.agencyA.uuid,
        branch_uuid: w.a1.uuid,
        branch_name: 'A1',
        tenant_uuid: null,
        invited_at: null,
      });
      const entries = await activity('user.create');
      expect(entries.at(-1)).toMatchObject({ user_id: w.adminA.user.id, agency_id: w.agencyA.id, resource_type: 'user' });
      const token = await login(t.app, 'rita.agent@example.test', 'a-long-enough-password');
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      const stored = await t.db.selectFrom('users').select('password_hash').where('email', '=', 'rita.agent@example.test').executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('ignores mass-assigned fields (agency_id, level, password_hash, status)', async () => {
      const res = await w.adminA.client.post('/api/users', {
        name: 'Mass Assign',
        email: 'mass@example.test',
        role: 'api',
        password: 'another-password-1',
        agency_id: w.agencyB.id,
        level: 100,
        password_hash: '$argon2id$v=19$m=1,t=1,p=1$AAAA$AAAA',
        status: 'disabled',
      });
      expect(res.statusCode).toBe(201);
      expectNoSecrets(res);
      expect(res.json().data).toMatchObject({ agency_uuid: w.agencyA.uuid, level: 40, status: 'active', role_code: 'api' });
      await login(t.app, 'mass@example.test', 'another-password-1');
    });

    it('409 for an e-mail already in use (case-insensitive)', async () => {
      const res = await w.adminA.client.post('/api/users', { name: 'Dup', email: 'RITA.agent@example.test', role: 'api', password: 'password-123' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, error: 'A user with this e-mail address already exists' });
    });

    it('400 for bad input, and nothing is written', async () => {
      const before = await userCount();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ email: 'x1@example.test', role: 'api', password: 'password-123' }, 'name'],
        [{ name: 'X', email: 'not-an-email', role: 'api', password: 'password-123' }, 'email'],
        [{ name: 'X', email: 'x2@example.test', role: 'api', password: 'short' }, 'password'],
        [{ name: 'X', email: 'x3@example.test', role: 'api', password: 'x'.repeat(129) }, 'password'],
        [{ name: 'X', email: 'x4@example.test', role: 'api' }, 'password'],
        [{ name: 'X', email: 'x5@example.test', role: 'api', password: 'password-123', invite: true }, 'invite'],
        [{ name: 'X', email: 'x6@example.test', password: 'password-123' }, 'role'],
        [{ name: 'X', email: 'x7@example.test', role: 'agent', password: 'password-123' }, 'branch_uuid'],
        [{ name: 'X', email: 'x8@example.test', role: 'tenant', password: 'password-123' }, 'tenant_uuid'],
        [{ name: 'X', email: 'x9@example.test', role: 'api', password: 'password-123', branch_uuid: 'nope' }, 'branch_uuid'],
      ];
      for (const [body, param] of cases) {
        const res = await w.adminA.client.post('/api/users', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error).toBe(`Invalid or missing required parameter: ${param}`);
      }
      expect(await userCount()).toBe(before);
    });

    it('404 for a branch, role or agency of another agency', async () => {
      const base = { name: 'X', email: 'cross@example.test', password: 'password-123' };
      expect((await w.adminA.client.post('/api/users', { ...base, role: 'agent', branch_uuid: w.b1.uuid })).json().error).toBe('Branch not found');
      expect((await w.adminA.client.post('/api/users', { ...base, role: 'agent', branch_uuid: newUuid() })).statusCode).toBe(404);
      const role = await w.adminA.client.post('/api/users', { ...base, role: 'no_such_role' });
      expect(role.statusCode).toBe(404);
      expect(role.json().error).toBe('Role not found');
      const agency = await w.adminA.client.post('/api/users', { ...base, role: 'api', agency_uuid: w.agencyB.uuid });
      expect(agency.statusCode).toBe(404);
      expect(agency.json().error).toBe('Agency not found');
    });

    it('refuses an Admin or SysOps role for an admin (403) and logs each attempt', async () => {
      const before = (await activity('user.escalation_denied')).length;
      for (const role of ['admin', 'sysops']) {
        const res = await w.adminA.client.post('/api/users', { name: 'Boss', email: `boss-${role}@example.test`, role, password: 'password-123' });
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe('You cannot assign a role at or above your own level');
      }
      const role = await t.db.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
      expect((await w.adminA.client.post('/api/users', { name: 'Boss', email: 'boss-id@example.test', role: role.id, password: 'password-123' })).statusCode).toBe(403);
      const entries = await activity('user.escalation_denied');
      expect(entries.length).toBe(before + 3);
      expect(entries.at(-1)).toMatchObject({ user_id: w.adminA.user.id, agency_id: w.agencyA.id });
      expect(entries.at(-1)!.details).toMatchObject({ reason: 'role_level', operation: 'create', role: 'admin', role_level: 80, own_level: 80 });
      expect(await t.db.selectFrom('users').select('id').where('email', 'like', 'boss-%').execute()).toEqual([]);
    });

    it('SysOps create users in any agency (agency_uuid or through the branch), but not SysOps', async () => {
      const res = await w.sysops.client.post('/api/users', { name: 'B Admin Two', email: 'b-admin2@example.test', role: 'admin', agency_uuid: w.agencyB.uuid, password: 'password-123' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ agency_uuid: w.agencyB.uuid, role_code: 'admin' });
      const viaBranch = await w.sysops.client.post('/api/users', { name: 'B Agent', email: 'b-agent@example.test', role: 'agent', branch_uuid: w.b1.uuid, password: 'password-123' });
      expect(viaBranch.json().data.agency_uuid).toBe(w.agencyB.uuid);
      const mismatch = await w.sysops.client.post('/api/users', { name: 'X', email: 'mm@example.test', role: 'agent', agency_uuid: w.agencyA.uuid, branch_uuid: w.b1.uuid, password: 'password-123' });
      expect(mismatch.statusCode).toBe(404);
      const none = await w.sysops.client.post('/api/users', { name: 'X', email: 'none@example.test', role: 'api', password: 'password-123' });
      expect(none.json().error).toBe('Invalid or missing required parameter: agency_uuid');
      const sys = await w.sysops.client.post('/api/users', { name: 'X', email: 'sys2@example.test', role: 'sysops', agency_uuid: w.agencyA.uuid, password: 'password-123' });
      expect(sys.statusCode).toBe(403);
    });

    it('links a login account to a tenant or contractor of the same agency', async () => {
      const now = new Date();
      const tenant = await t.db.insertInto('tenants').values({ uuid: newUuid(), agency_id: w.agencyA.id, name: 'Tina Tenant', created_at: now, updated_at: now }).returning(['id', 'uuid']).executeTakeFirstOrThrow();
      const foreign = await t.db.insertInto('tenants').values({ uuid: newUuid(), agency_id: w.agencyB.id, name: 'Other', created_at: now, updated_at: now }).returning(['uuid']).executeTakeFirstOrThrow();
      const contractor = await t.db.insertInto('contractors').values({ uuid: newUuid(), agency_id: w.agencyA.id, company_name: 'Fix-It Ltd', created_at: now, updated_at: now }).returning(['id', 'uuid']).executeTakeFirstOrThrow();

      const wrongRole = await w.adminA.client.post('/api/users', { name: 'Tina', email: 'tina@example.test', role: 'agent', branch_uuid: w.a1.uuid, tenant_uuid: tenant.uuid, password: 'password-123' });
      expect(wrongRole.json().error).toBe('Invalid or missing required parameter: role');
      const both = await w.adminA.client.post('/api/users', { name: 'Tina', email: 'tina@example.test', tenant_uuid: tenant.uuid, contractor_uuid: contractor.uuid, password: 'password-123' });
      expect(both.statusCode).toBe(400);
      expect((await w.adminA.client.post('/api/users', { name: 'O', email: 'o@example.test', tenant_uuid: foreign.uuid, password: 'password-123' })).json().error).toBe('Tenant not found');

      const res = await w.adminA.client.post('/api/users', { name: 'Tina', email: 'tina@example.test', tenant_uuid: tenant.uuid, password: 'password-123' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ role_code: 'tenant', tenant_uuid: tenant.uuid, contractor_uuid: null });
      const row = await t.db.selectFrom('users').select(['tenant_id']).where('email', '=', 'tina@example.test').executeTakeFirstOrThrow();
      expect(row.tenant_id).toBe(tenant.id);
      const again = await w.adminA.client.post('/api/users', { name: 'Tina 2', email: 'tina2@example.test', tenant_uuid: tenant.uuid, password: 'password-123' });
      expect(again.statusCode).toBe(409);

      const c = await w.adminA.client.post('/api/users', { name: 'Frank', email: 'frank@fixit.test', contractor_uuid: contractor.uuid, password: 'password-123' });
      expect(c.json().data).toMatchObject({ role_code: 'contractor', contractor_uuid: contractor.uuid });
      // The tenant's own login sees the tenant's permissions.
      const tinaToken = await login(t.app, 'tina@example.test', 'password-123');
      const me = await new Client(t.app, tinaToken).get('/api/users/permissions');
      expect(me.json().data.role).toBe('Tenant');
    });

    it('403 for an agent, 403 without CSRF token, 401 without credentials', async () => {
      const body = { name: 'X', email: 'agentmade@example.test', role: 'tenant', password: 'password-123' };
      const agent = await w.agentA1.client.post('/api/users', body);
      expect(agent.statusCode).toBe(403);
      expect(agent.json().error).toBe('You do not have permission to perform this action');
      const noCsrf = await w.adminA.client.post('/api/users', { ...body, role: 'api' }, { csrf: false });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json().error).toBe('Invalid or missing CSRF token');
      const anon = await t.app.inject({ method: 'POST', url: '/api/users', payload: body });
      expect(anon.statusCode).toBe(401);
      expect(await t.db.selectFrom('users').select('id').where('email', '=', 'agentmade@example.test').execute()).toEqual([]);
    });
  });

  describe('GET /api/users and /api/users/{uuid}', () => {
    it('reads a user of the own agency; another agency\'s user is 404; SysOps read any', async () => {
      const own = await w.adminA.client.get(`/api/users/${w.agentA1.user.uuid}`);
      expect(own.statusCode).toBe(200);
      expectNoSecrets(own);
      expect(own.json().data).toMatchObject({ uuid: w.agentA1.user.uuid, role_code: 'agent', branch_name: 'A1', status: 'active' });
      expect(own.json().data.last_login_at).not.toBeNull();
      const foreign = await w.adminA.client.get(`/api/users/${w.adminB.user.uuid}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toBe('User not found');
      expect((await w.adminA.client.get(`/api/users/${newUuid()}`)).statusCode).toBe(404);
      expect((await w.adminA.client.get('/api/users/not-a-uuid')).statusCode).toBe(400);
      expect((await w.sysops.client.get(`/api/users/${w.adminB.user.uuid}`)).statusCode).toBe(200);
      expect((await w.agentA1.client.get(`/api/users/${w.agentA1.user.uuid}`)).statusCode).toBe(403);
    });

    it('lists the own agency with q, role, branch_uuid, status and pagination', async () => {
      const all = await w.adminA.client.get('/api/users?limit=200');
      expect(all.statusCode).toBe(200);
      expectNoSecrets(all);
      const body = all.json();
      expect(body.count).toBe(body.data.length);
      expect(body.data.every((u: { agency_uuid: string }) => u.agency_uuid === w.agencyA.uuid)).toBe(true);

      const q = await w.adminA.client.get('/api/users?q=RITA');
      expect(q.json().data.map((u: { email: string }) => u.email)).toEqual(['rita.agent@example.test']);
      const qMail = await w.adminA.client.get('/api/users?q=fixit.test');
      expect(qMail.json().count).toBe(1);
      const qLike = await w.adminA.client.get('/api/users?q=%25');
      expect(qLike.json().count).toBe(0);

      const agents = await w.adminA.client.get('/api/users?role=agent');
      expect(agents.json().data.every((u: { role_code: string }) => u.role_code === 'agent')).toBe(true);
      expect(agents.json().count).toBe(2);
      const byBranch = await w.adminA.client.get(`/api/users?branch_uuid=${w.a1.uuid}`);
      expect(byBranch.json().count).toBe(2);
      const page = await w.adminA.client.get('/api/users?limit=2&offset=1');
      expect(page.json().data.length).toBe(2);
      expect(page.json().count).toBe(body.count);
      expect((await w.adminA.client.get('/api/users?status=disabled')).json().count).toBe(0);

      expect((await w.adminA.client.get(`/api/users?branch_uuid=${w.b1.uuid}`)).statusCode).toBe(404);
      expect((await w.adminA.client.get('/api/users?status=gone')).statusCode).toBe(400);
      expect((await w.adminA.client.get('/api/users?limit=0')).statusCode).toBe(400);
      expect((await w.adminA.client.get('/api/users?agency_id=1')).statusCode).toBe(400);

      const b = await w.adminB.client.get('/api/users');
      expect(b.json().data.every((u: { agency_uuid: string }) => u.agency_uuid === w.agencyB.uuid)).toBe(true);
      const sys = await w.sysops.client.get(`/api/users?agency_uuid=${w.agencyB.uuid}`);
      expect(sys.json().count).toBe(b.json().count);
      expect((await w.sysops.client.get('/api/users?limit=200')).json().count).toBeGreaterThan(body.count);
      expect((await w.agentA1.client.get('/api/users')).statusCode).toBe(403);
    });

    it('sorts by sort and order across pages (id breaks ties, empty values last); a bad value is a 400; the default is by name', async () => {
      type Row = { uuid: string; name: string; last_login_at: string | null; branch_name: string | null };
      const rows = async (qs: string) => (await w.adminA.client.get(`/api/users?${qs}`)).json().data as Row[];
      const all = await rows('limit=200');
      expect(await rows('limit=200&sort=name&order=asc')).toEqual(all);
      expect(all.length).toBeGreaterThanOrEqual(4);

      for (const order of ['desc', 'asc'] as const) {
        const sorted = await rows(`limit=200&sort=last_login_at&order=${order}`);
        const stamps = sorted.map((u) => u.last_login_at);
        const signedIn = stamps.filter((s): s is string => s !== null);
        expect(signedIn.length).toBeGreaterThan(0);
        expect(signedIn.length).toBeLessThan(stamps.length);
        // Those who never signed in come last either way.
        expect(stamps.slice(signedIn.length).every((s) => s === null)).toBe(true);
        const times = signedIn.map((s) => Date.parse(s));
        expect(times).toEqual([...times].sort((a, b) => (order === 'asc' ? a - b : b - a)));
        // Pages of 2 put together are the same order, with no row twice or missing.
        const paged: Row[] = [];
        for (let offset = 0; offset < sorted.length; offset += 2) paged.push(...(await rows(`limit=2&offset=${offset}&sort=last_login_at&order=${order}`)));
        expect(paged.map((u) => u.uuid)).toEqual(sorted.map((u) => u.uuid));
      }
      const byBranch = (await rows('limit=200&sort=branch_name&order=desc')).map((u) => u.branch_name);
      expect(byBranch.at(-1)).toBeNull();
      expect(byBranch[0]).not.toBeNull();

      for (const qs of ['sort=password_hash', 'sort=', 'order=up', 'sort=name&order=DESC']) {
        const res = await w.adminA.client.get(`/api/users?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json()).toMatchObject({ success: false });
        expect(res.json().error).toMatch(/^Invalid or missing required parameter: (sort|order)$/);
      }
      expect(await rows('limit=200')).toEqual(all);
    });
  });

  describe('PUT /api/users/{uuid}', () => {
    it('updates name, email, role and branch and logs user.update', async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Edit Me' });
      const res = await w.adminA.client.put(`/api/users/${u.uuid}`, { name: 'Edited', email: 'Edited@Example.test', branch_uuid: w.a2.uuid });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ name: 'Edited', email: 'edited@example.test', branch_name: 'A2' });
      const role = await w.adminA.client.put(`/api/users/${u.uuid}`, { role: 'api', branch_uuid: null });
      expect(role.json().data).toMatchObject({ role_code: 'api', branch_uuid: null });
      const entry = (await activity('user.update')).at(-1)!;
      expect(entry.details).toMatchObject({ fields: ['role_id', 'branch_id'], role_from: 'agent', role_to: 'api' });
      expect((await w.adminA.client.put(`/api/users/${u.uuid}`, { role: 'agent' })).json().error).toBe('Invalid or missing required parameter: branch_uuid');
      const dup = await w.adminA.client.put(`/api/users/${u.uuid}`, { email: w.agentA1.user.email });
      expect(dup.statusCode).toBe(409);
      expect((await w.adminA.client.put(`/api/users/${u.uuid}`, { name: '' })).statusCode).toBe(400);
      expect((await w.adminA.client.put(`/api/users/${u.uuid}`, { branch_uuid: w.b1.uuid })).statusCode).toBe(404);
      expect((await w.adminA.client.put(`/api/users/${u.uuid}`, { name: 'No csrf' }, { csrf: false })).statusCode).toBe(403);
      const after = await t.db.selectFrom('users').select(['name', 'email']).where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(after).toEqual({ name: 'Edited', email: 'edited@example.test' });
    });

    it('refuses editing a peer admin, promoting to Admin, and changing one\'s own role; each logged', async () => {
      const peer = await createUser(t.db, { role: 'admin', agencyId: w.agencyA.id, name: 'Peer Admin' });
      const before = (await activity('user.escalation_denied')).length;
      const editPeer = await w.adminA.client.put(`/api/users/${peer.uuid}`, { name: 'Hijacked' });
      expect(editPeer.statusCode).toBe(403);
      expect(editPeer.json().error).toBe('You cannot manage a user whose role is at or above your own level');
      const promote = await w.adminA.client.put(`/api/users/${w.agentA1.user.uuid}`, { role: 'admin' });
      expect(promote.statusCode).toBe(403);
      const own = await w.adminA.client.put(`/api/users/${w.adminA.user.uuid}`, { role: 'agent', branch_uuid: w.a1.uuid });
      expect(own.statusCode).toBe(403);
      expect(own.json().error).toBe('You cannot change your own role');
      const sysOwn = await w.sysops.client.put(`/api/users/${w.sysops.user.uuid}`, { role: 'admin' });
      expect(sysOwn.statusCode).toBe(403);
      const entries = (await activity('user.escalation_denied')).slice(before);
      expect(entries.map((e) => (e.details as { reason: string }).reason)).toEqual(['target_level', 'role_level', 'own_role', 'own_role']);
      expect((await t.db.selectFrom('users').select('name').where('id', '=', peer.id).executeTakeFirstOrThrow()).name).toBe('Peer Admin');
      expect((await w.adminB.client.put(`/api/users/${w.agentA1.user.uuid}`, { name: 'x' })).statusCode).toBe(404);
      // One's own name may change.
      const rename = await w.adminA.client.put(`/api/users/${w.adminA.user.uuid}`, { name: 'Admin A Renamed', role: 'admin' });
      expect(rename.statusCode).toBe(200);
      expect(rename.json().data.name).toBe('Admin A Renamed');
      // SysOps may edit an admin of any agency.
      expect((await w.sysops.client.put(`/api/users/${peer.uuid}`, { name: 'Peer Admin 2' })).statusCode).toBe(200);
    });
  });

  describe('POST /api/users/{uuid}/disable and /enable', () => {
    it('disabling revokes every token at once and blocks login; enabling restores login', async () => {
      const victim = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const token = await login(t.app, victim.email);
      const mobile = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: victim.email, password: TEST_PASSWORD } });
      const client = new Client(t.app, token);
      const mobileClient = new Client(t.app, mobile.json().data.token);
      expect((await client.get('/api/users/permissions')).statusCode).toBe(200);

      const res = await w.adminA.client.post(`/api/users/${victim.uuid}/disable`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: 'User disabled', data: { status: 'disabled' } });
      expect(res.json().data.disabled_at).toBe(t.clock.now().toISOString());
      expect((await client.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await mobileClient.get('/api/users/permissions')).statusCode).toBe(401);
      const relogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: victim.email, password: TEST_PASSWORD } });
      expect(relogin.statusCode).toBe(403);
      expect(relogin.json().error).toBe('This account is disabled');
      const entry = (await activity('user.disable')).at(-1)!;
      expect(entry).toMatchObject({ resource_id: victim.id, user_id: w.adminA.user.id });
      expect(entry.details).toEqual({ revoked_tokens: 3 });
      expect((await w.adminA.client.post(`/api/users/${victim.uuid}/disable`)).statusCode).toBe(409);
      expect((await w.adminA.client.get('/api/users?status=disabled')).json().count).toBe(1);

      const enabled = await w.adminA.client.post(`/api/users/${victim.uuid}/enable`);
      expect(enabled.statusCode).toBe(200);
      expect(enabled.json().data).toMatchObject({ status: 'active', disabled_at: null });
      expect((await activity('user.enable')).at(-1)!.resource_id).toBe(victim.id);
      await login(t.app, victim.email);
      // The old token stays revoked.
      expect((await client.get('/api/users/permissions')).statusCode).toBe(401);
      const again = await w.adminA.client.post(`/api/users/${victim.uuid}/enable`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('User is not disabled');
    });

    it('refuses one\'s own account, a peer admin, another agency, an agent caller, no CSRF', async () => {
      const self = await w.adminA.client.post(`/api/users/${w.adminA.user.uuid}/disable`);
      expect(self.statusCode).toBe(403);
      expect(self.json().error).toBe('You cannot disable your own account');
      const peer = await createUser(t.db, { role: 'admin', agencyId: w.agencyA.id });
      expect((await w.adminA.client.post(`/api/users/${peer.uuid}/disable`)).statusCode).toBe(403);
      expect((await w.adminB.client.post(`/api/users/${w.agentA1.user.uuid}/disable`)).statusCode).toBe(404);
      expect((await w.agentA1.client.post(`/api/users/${w.agentA1.user.uuid}/disable`)).statusCode).toBe(403);
      expect((await w.adminA.client.post(`/api/users/${w.agentA1.user.uuid}/disable`, undefined, { csrf: false })).statusCode).toBe(403);
      const rows = await t.db.selectFrom('users').select('status').where('id', 'in', [w.adminA.user.id, peer.id, w.agentA1.user.id]).execute();
      expect(rows.every((r) => r.status === 'active')).toBe(true);
      const reasons = (await activity('user.escalation_denied')).slice(-2).map((e) => (e.details as { reason: string }).reason);
      expect(reasons).toEqual(['self_disable', 'target_level']);
    });
  });
});
