/**
 * Sessions and password change (docs/users.md): one's own sessions (list with the current
 * one marked, sign out everywhere else, revoke one), a user's sessions for administrators, and
 * POST /api/users/me/password revoking the other sessions but not the current one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, Client, createUser, login, standardWorld, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

describe('users: sessions and password change', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const activity = (action: string) => t.db.selectFrom('activity_log').selectAll().where('action', '=', action).orderBy('id').execute();
  const mobileToken = async (email: string, password = TEST_PASSWORD, ua = 'CaretakerApp/1.0') => {
    const res = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email, password }, headers: { 'user-agent': ua } });
    return new Client(t.app, res.json().data.token as string);
  };

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_LOGIN_ACCOUNT_FAILURES: '3' });
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  describe('own sessions', () => {
    it('lists the active sessions with the current one marked, never a token or hash', async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const me = new Client(t.app, await login(t.app, u.email));
      await mobileToken(u.email);
      const res = await me.get('/api/users/me/sessions');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBe(3);
      expect(body.data.map((s: { kind: string }) => s.kind).sort()).toEqual(['login', 'mobile', 'session']);
      const current = body.data.filter((s: { current: boolean }) => s.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({ kind: 'login', ip_address: '127.0.0.1', remember_me: false });
      expect(Object.keys(body.data[0]).sort()).toEqual(
        ['created_at', 'current', 'device', 'expires_at', 'id', 'ip_address', 'kind', 'last_used_at', 'remember_me', 'user_agent'].sort(),
      );
      const hashes = await t.db.selectFrom('auth_tokens').select('token_hash').where('user_id', '=', u.id).execute();
      for (const h of hashes) expect(res.body).not.toContain(h.token_hash);
      expect(res.body).not.toContain(me.token);
      expect((await me.get('/api/users/me/sessions?limit=1')).json()).toMatchObject({ count: 3, data: [expect.any(Object)] });
      expect((await me.get('/api/users/me/sessions?limit=500')).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'GET', url: '/api/users/me/sessions' })).statusCode).toBe(401);

      // A browser session idle for more than 30 minutes is no longer listed.
      t.clock.advance(31 * 60);
      expect((await me.get('/api/users/me/sessions')).json().count).toBe(2);
    });

    it('signs out everywhere else, keeping the current token', async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const me = new Client(t.app, await login(t.app, u.email));
      const phone = await mobileToken(u.email);
      const tablet = await mobileToken(u.email);
      const res = await me.delete('/api/users/me/sessions');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { revoked: 3 }, message: 'Signed out everywhere else' });
      expect((await phone.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await tablet.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await me.get('/api/users/permissions')).statusCode).toBe(200);
      const entry = (await activity('user.sessions_revoke')).at(-1)!;
      expect(entry).toMatchObject({ user_id: u.id, resource_id: u.id });
      expect(entry.details).toEqual({ scope: 'others', revoked: 3 });
      expect((await me.delete('/api/users/me/sessions', undefined, { csrf: false })).statusCode).toBe(403);
    });

    it('revokes one session by id; 404 for a revoked, foreign or unknown id', async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const me = new Client(t.app, await login(t.app, u.email));
      const phone = await mobileToken(u.email, TEST_PASSWORD, 'Phone');
      const list = (await me.get('/api/users/me/sessions')).json().data as Array<{ id: number; kind: string; user_agent: string }>;
      const target = list.find((s) => s.kind === 'mobile')!;
      expect(target.user_agent).toBe('Phone');
      expect((await me.delete(`/api/users/me/sessions/${target.id}`, undefined, { csrf: false })).statusCode).toBe(403);
      const res = await me.delete(`/api/users/me/sessions/${target.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ revoked: 1 });
      expect((await phone.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await me.get('/api/users/permissions')).statusCode).toBe(200);
      const again = await me.delete(`/api/users/me/sessions/${target.id}`);
      expect(again.statusCode).toBe(404);
      expect(again.json().error).toBe('Session not found');
      const other = await t.db.selectFrom('auth_tokens').select('id').where('user_id', '=', w.agentA1.user.id).executeTakeFirstOrThrow();
      expect((await me.delete(`/api/users/me/sessions/${other.id}`)).statusCode).toBe(404);
      expect((await me.delete('/api/users/me/sessions/999999')).statusCode).toBe(404);
      expect((await me.delete('/api/users/me/sessions/abc')).statusCode).toBe(400);
      expect((await w.agentA1.client.get('/api/users/permissions')).statusCode).toBe(200);
    });

    it("revoking a login's browser session also ends that login's bearer token, as a logout does", async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const me = new Client(t.app, await login(t.app, u.email));
      const phone = await mobileToken(u.email);
      const list = (await me.get('/api/users/me/sessions')).json().data as Array<{ id: number; kind: string; current: boolean }>;
      const browser = list.find((s) => s.kind === 'session')!;
      expect(browser.current).toBe(false);
      const res = await me.delete(`/api/users/me/sessions/${browser.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ revoked: 2 });
      expect((await me.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await phone.get('/api/users/permissions')).statusCode).toBe(200);
    });
  });

  describe("a user's sessions (administrators)", () => {
    it('lists and revokes all sessions of a user of the own agency', async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
      const agent = new Client(t.app, await login(t.app, u.email));
      const phone = await mobileToken(u.email);
      const list = await w.adminA.client.get(`/api/users/${u.uuid}/sessions`);
      expect(list.statusCode).toBe(200);
      expect(list.json().count).toBe(3);
      expect(list.json().data.every((s: { current: boolean }) => !s.current)).toBe(true);
      const res = await w.adminA.client.delete(`/api/users/${u.uuid}/sessions`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { revoked: 3 }, message: 'Sessions revoked' });
      expect((await agent.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await phone.get('/api/users/permissions')).statusCode).toBe(401);
      expect((await w.adminA.client.get(`/api/users/${u.uuid}/sessions`)).json().count).toBe(0);
      const entry = (await activity('user.sessions_revoke')).at(-1)!;
      expect(entry).toMatchObject({ user_id: w.adminA.user.id, resource_id: u.id, agency_id: w.agencyA.id });
      expect(entry.details).toEqual({ scope: 'all', revoked: 3 });
    });

    it('403 for an agent or a peer admin (logged), 404 for another agency, 403 without CSRF', async () => {
      const peer = await createUser(t.db, { role: 'admin', agencyId: w.agencyA.id });
      await login(t.app, peer.email);
      expect((await w.agentA1.client.get(`/api/users/${w.adminA.user.uuid}/sessions`)).statusCode).toBe(403);
      expect((await w.agentA1.client.delete(`/api/users/${w.adminA.user.uuid}/sessions`)).statusCode).toBe(403);
      const before = (await activity('user.escalation_denied')).length;
      expect((await w.adminA.client.get(`/api/users/${peer.uuid}/sessions`)).statusCode).toBe(403);
      expect((await w.adminA.client.delete(`/api/users/${peer.uuid}/sessions`)).statusCode).toBe(403);
      expect((await activity('user.escalation_denied')).length).toBe(before + 2);
      expect((await w.adminB.client.get(`/api/users/${w.agentA1.user.uuid}/sessions`)).statusCode).toBe(404);
      expect((await w.adminB.client.delete(`/api/users/${w.agentA1.user.uuid}/sessions`)).statusCode).toBe(404);
      expect((await w.adminA.client.delete(`/api/users/${w.agentA1.user.uuid}/sessions`, undefined, { csrf: false })).statusCode).toBe(403);
      expect((await w.agentA1.client.get('/api/users/permissions')).statusCode).toBe(200);
      // SysOps manage the sessions of any agency's admin.
      expect((await w.sysops.client.get(`/api/users/${peer.uuid}/sessions`)).json().count).toBe(2);
    });
  });

  describe('POST /api/users/me/password', () => {
    it('changes the password, revokes the other sessions and keeps the current one', async () => {
      const u = await createUser(t.db, { role: 'tenant', agencyId: w.agencyA.id });
      const me = new Client(t.app, await login(t.app, u.email));
      const phone = await mobileToken(u.email);
      const res = await me.post('/api/users/me/password', { current_password: TEST_PASSWORD, new_password: 'a brand new passphrase ✓' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { revoked: 2 }, message: 'Password changed' });
      expect((await me.get('/api/users/permissions')).statusCode).toBe(200);
      expect((await phone.get('/api/users/permissions')).statusCode).toBe(401);
      const old = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: TEST_PASSWORD } });
      expect(old.statusCode).toBe(401);
      await login(t.app, u.email, 'a brand new passphrase ✓');
      const entry = (await activity('user.password_change')).at(-1)!;
      expect(entry).toMatchObject({ user_id: u.id, resource_id: u.id });
      expect(JSON.stringify(entry)).not.toContain('passphrase');
    });

    it('400 for a wrong current password (logged, throttled to 429) or a bad new one; 403 without CSRF; 401 anonymous', async () => {
      const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a2.id });
      const me = new Client(t.app, await login(t.app, u.email));
      const short = await me.post('/api/users/me/password', { current_password: TEST_PASSWORD, new_password: 'short' });
      expect(short.json().error).toBe('Invalid or missing required parameter: new_password');
      expect((await me.post('/api/users/me/password', { current_password: TEST_PASSWORD, new_password: 'x'.repeat(129) })).statusCode).toBe(400);
      expect((await me.post('/api/users/me/password', { current_password: TEST_PASSWORD, new_password: 'valid-password' }, { csrf: false })).statusCode).toBe(403);
      const anon = await t.app.inject({ method: 'POST', url: '/api/users/me/password', payload: { current_password: TEST_PASSWORD, new_password: 'valid-password' } });
      expect(anon.statusCode).toBe(401);
      for (let i = 0; i < 3; i++) {
        const wrong = await me.post('/api/users/me/password', { current_password: 'not my password', new_password: 'valid-password' });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().error).toBe('Current password is incorrect');
      }
      const throttled = await me.post('/api/users/me/password', { current_password: TEST_PASSWORD, new_password: 'valid-password' });
      expect(throttled.statusCode).toBe(429);
      expect(throttled.headers['retry-after']).toBeDefined();
      expect((await activity('user.password_change_failed')).filter((e) => e.user_id === u.id)).toHaveLength(3);
      // Nothing changed: the old password still logs in.
      await login(t.app, u.email);
    });
  });
});
