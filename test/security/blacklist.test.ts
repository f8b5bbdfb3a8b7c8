/**
 * docs/security.md promise 28: a blacklisted address (IPv4, IPv6, CIDR) or account is refused with 403
 * in the envelope before any database work; a spoofed X-Forwarded-For does not escape a block;
 * admins block their agency's accounts, SysOps addresses; repeated login throttling adds an
 * automatic entry; every change is in the activity log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, standardWorld, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';

describe('security blacklist', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_LOGIN_IP_FAILURES: '2', CARETAKER_BLACKLIST_AUTO_TRIPS: '2' });
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  const from = (ip: string, url = '/livez', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers });
  const actions = async (action: string) => (await t.db.selectFrom('activity_log').select('action').where('action', '=', action).execute()).length;

  it('blocks an IPv4 address first in the pipeline, with the envelope, and a spoofed X-Forwarded-For does not escape', async () => {
    const res = await w.sysops.client.post('/api/security/blacklist', { kind: 'ip', value: '203.0.113.7', reason: 'scanner' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ kind: 'ip', value: '203.0.113.7', reason: 'scanner', automatic: false, added_by_uuid: w.sysops.user.uuid });
    const token = await t.db.selectFrom('auth_tokens').select(['id', 'last_used_at']).where('user_id', '=', w.adminA.user.id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const activityBefore = (await t.db.selectFrom('activity_log').select('id').execute()).length;
    const blocked = await from('203.0.113.7', '/api/jobs/manage', { authorization: `Bearer ${w.adminA.token}`, 'x-forwarded-for': '192.0.2.1' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ success: false, error: 'Access denied' });
    // No database work for the refused request: the token was not touched, nothing was logged.
    expect(await t.db.selectFrom('auth_tokens').select(['id', 'last_used_at']).where('id', '=', token.id).executeTakeFirstOrThrow()).toEqual(token);
    expect((await t.db.selectFrom('activity_log').select('id').execute()).length).toBe(activityBefore);
    expect((await from('203.0.113.8')).statusCode).toBe(200);
    expect(await actions('security.blacklist_add')).toBe(1);
  });

  it('blocks CIDR ranges of IPv4 and IPv6, IPv4-mapped addresses included', async () => {
    expect((await w.sysops.client.post('/api/security/blacklist', { kind: 'cidr', value: '198.51.100.0/24', reason: 'botnet' })).statusCode).toBe(201);
    expect((await w.sysops.client.post('/api/security/blacklist', { kind: 'cidr', value: '2001:db8::/32', reason: 'botnet v6', expires_at: '2027-01-01T00:00:00Z' })).statusCode).toBe(201);
    expect((await from('198.51.100.9')).statusCode).toBe(403);
    expect((await from('::ffff:198.51.100.9')).statusCode).toBe(403);
    expect((await from('2001:db8:1::5')).statusCode).toBe(403);
    expect((await from('2001:db9::5')).statusCode).toBe(200);
    expect((await from('198.51.101.1')).statusCode).toBe(200);
    const bad = await w.sysops.client.post('/api/security/blacklist', { kind: 'cidr', value: '300.1.1.0/24', reason: 'x' });
    expect(bad.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: value' });
    const dup = await w.sysops.client.post('/api/security/blacklist', { kind: 'ip', value: '203.0.113.7', reason: 'again' });
    expect(dup.statusCode).toBe(409);
  });

  it('admins block accounts of their own agency only; addresses are for SysOps', async () => {
    const victim = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    expect((await w.adminA.client.post('/api/security/blacklist', { kind: 'ip', value: '192.0.2.50', reason: 'x' })).statusCode).toBe(403);
    expect((await w.adminA.client.post('/api/security/blacklist', { kind: 'account', user_uuid: w.adminB.user.uuid, reason: 'x' })).json()).toEqual({ success: false, error: 'User not found' });
    const add = await w.adminA.client.post('/api/security/blacklist', { kind: 'account', user_uuid: victim.uuid, reason: 'left the company' });
    expect(add.statusCode, add.body).toBe(201);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: victim.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ success: false, error: 'Access denied' });
    expect((await w.agentA1.client.get('/api/security/blacklist')).statusCode).toBe(403);
    const listA = await w.adminA.client.get('/api/security/blacklist');
    expect(listA.json().data.map((e: { kind: string }) => e.kind)).toEqual(['account']);
    expect((await w.adminB.client.get('/api/security/blacklist')).json().count).toBe(0);
    expect((await w.sysops.client.get('/api/security/blacklist?limit=2')).json()).toMatchObject({ count: 4 });
    expect((await w.adminB.client.delete(`/api/security/blacklist/${add.json().data.uuid}`)).statusCode).toBe(404);
    const lift = await w.adminA.client.delete(`/api/security/blacklist/${add.json().data.uuid}`);
    expect(lift.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: victim.email, password: TEST_PASSWORD } })).statusCode).toBe(200);
    expect(await actions('security.blacklist_remove')).toBe(1);
  });

  // A block ends the account's sessions and tokens (docs/security.md "Two-factor sign-in": a
  // session ended by a block says why), so the token is refused at once and stays refused once
  // the block is lifted.
  it('a blocked account is refused on every request with its token, which the block ended', async () => {
    const add = await w.sysops.client.post('/api/security/blacklist', { kind: 'account', user_uuid: w.agentA1.user.uuid, reason: 'compromised' });
    expect(add.statusCode).toBe(201);
    const refused = await w.agentA1.client.get('/api/jobs/manage');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().success).toBe(false);
    const blockedLogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '198.51.100.31', payload: { email: w.agentA1.user.email, password: TEST_PASSWORD } });
    expect(blockedLogin.statusCode).toBe(403);
    await w.sysops.client.delete(`/api/security/blacklist/${add.json().data.uuid}`);
    expect((await w.agentA1.client.get('/api/jobs/manage')).statusCode).toBe(401);
  });

  // A blocked person who keeps trying (their password is right) is refused each time; those
  // refusals are not failed passwords, so they neither throttle the account nor trip the automatic
  // block of the office's address, and once the block is lifted the next login is let in.
  it('after a block is lifted, the login of the account succeeds even after tries while blocked', async () => {
    const person = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    const ip = '192.0.2.88';
    const signIn = (url: string) => t.app.inject({ method: 'POST', url, remoteAddress: ip, payload: { email: person.email, password: TEST_PASSWORD } });
    const add = await w.adminA.client.post('/api/security/blacklist', { kind: 'account', user_uuid: person.uuid, reason: 'on leave' });
    expect(add.statusCode, add.body).toBe(201);
    for (let i = 0; i < 6; i++) {
      const refused = await signIn(i % 2 === 0 ? '/api/auth/login' : '/api/auth/session');
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({ success: false, error: 'Access denied' });
    }
    expect((await w.adminA.client.delete(`/api/security/blacklist/${add.json().data.uuid}`)).statusCode).toBe(200);
    const login = await signIn('/api/auth/login');
    expect(login.statusCode, login.body).toBe(200);
    expect((await signIn('/api/auth/session')).statusCode).toBe(200);
    expect(await t.db.selectFrom('security_blacklist').select('id').where('value', '=', ip).execute()).toEqual([]);
  });

  it('adds an automatic entry when an address keeps tripping the login throttle', async () => {
    const ip = '192.0.2.77';
    const attempt = () => t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: 'nobody@example.test', password: 'wrong-password' } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt()).statusCode);
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses).toContain(403);
    const entry = await t.db.selectFrom('security_blacklist').selectAll().where('value', '=', ip).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ kind: 'ip', automatic: true, added_by_user_id: null });
    expect(new Date(entry.expires_at!).getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(await actions('security.blacklist_auto_add')).toBe(1);
    expect((await from(ip)).statusCode).toBe(403);
  });
});
