/**
 * Invitations (docs/users.md) end to end with the .eml file transport (SMTP_URL unset): create
 * with invite: true -> .eml file with the link -> accept with a password -> login. Expiry after 7
 * days, single use, re-invite, disable/enable of an invited account, and a tenant's own login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newUuid } from '../../../src/lib/crypto.ts';
import type { NodemailerMailer } from '../../../src/modules/messaging/mail/mailer.ts';
import { buildTestApp, Client, login, standardWorld, type TestApp } from '../../helpers/app.ts';
import { decodeQuotedPrintable, mailTo, readEmlFiles, tokenFrom } from './mail-helpers.ts';

describe('users: invitations by e-mail (.eml files)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let dir: string;
  const accept = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/invitations/accept', payload: { token, password } });
  const lastMailTo = async (email: string) => {
    const files = (await readEmlFiles(dir)).reverse();
    const found = mailTo(files, email);
    if (!found) throw new Error(`no .eml to ${email}`);
    return found;
  };
  const invite = (client: Client, body: Record<string, unknown>) => client.post('/api/users', { invite: true, ...body });

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    dir = (t.deps.mailer as NodemailerMailer).dir;
  });
  afterAll(async () => t?.close());

  it('invites, writes an .eml file, and the invitation is accepted once', async () => {
    const res = await invite(w.adminA.client, { name: 'Ivy Invited', email: 'ivy@example.test', role: 'agent', branch_uuid: w.a2.uuid });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('User created and invitation sent');
    expect(res.json().data).toMatchObject({ status: 'invited', invited_at: t.clock.now().toISOString(), branch_name: 'A2' });
    expect(res.body).not.toMatch(/\$argon2|token/);

    const mail = await lastMailTo('ivy@example.test');
    expect(mail.file).toMatch(/\.eml$/);
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toMatch(/^Subject: You are invited to Caretaker at Agency A/m);
    expect(text).toMatch(/^From: Caretaker <no-reply@caretaker\.test>/m);
    expect(text).toMatch(/^Message-ID: </m);
    const token = tokenFrom(mail.raw);
    expect(text).toContain(`http://127.0.0.1:3000/accept-invitation?token=${token}`);
    const stored = await t.db.selectFrom('user_tokens').selectAll().where('purpose', '=', 'invitation').execute();
    expect(stored.map((s) => s.token_hash)).toContain(hashToken(token));
    expect(stored.map((s) => s.token_hash)).not.toContain(token);

    // No login before acceptance: the account has no usable password.
    const early = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ivy@example.test', password: token } });
    expect(early.statusCode).toBe(401);

    expect((await accept(token, 'short')).json().error).toBe('Invalid or missing required parameter: password');
    const ok = await accept(token, 'ivy chose this password');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: 'Invitation accepted. Log in with your e-mail address and the new password.' });
    const ivy = new Client(t.app, await login(t.app, 'ivy@example.test', 'ivy chose this password'));
    expect((await ivy.get('/api/users/permissions')).json().data.role).toBe('Agent');
    const again = await accept(token, 'another password');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('Invalid or expired invitation token');

    const user = await t.db.selectFrom('users').select(['id', 'status', 'invited_at']).where('email', '=', 'ivy@example.test').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ status: 'active', invited_at: null });
    const actions = await t.db.selectFrom('activity_log').select('action').where('resource_id', '=', user.id).where('action', 'like', 'user.%').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['user.create', 'user.invite', 'user.invitation_accept']);
    // Once accepted, no new invitation.
    const uuid = res.json().data.uuid as string;
    expect((await w.adminA.client.post(`/api/users/${uuid}/invite`)).statusCode).toBe(409);
  });

  it('expires after 7 days; a new invitation replaces the old link', async () => {
    const res = await invite(w.adminA.client, { name: 'Late Larry', email: 'larry@example.test', role: 'api' });
    const uuid = res.json().data.uuid as string;
    const first = tokenFrom((await lastMailTo('larry@example.test')).raw);
    t.clock.advance(7 * 86_400);
    expect((await accept(first, 'larry password 1')).statusCode).toBe(400);

    const again = await w.adminA.client.post(`/api/users/${uuid}/invite`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: true, message: 'Invitation sent' });
    const second = tokenFrom((await lastMailTo('larry@example.test')).raw);
    expect(second).not.toBe(first);
    const third = await w.adminA.client.post(`/api/users/${uuid}/invite`);
    expect(third.statusCode).toBe(200);
    const latest = tokenFrom((await lastMailTo('larry@example.test')).raw);
    expect((await accept(second, 'larry password 2')).statusCode).toBe(400);
    expect((await accept(latest, 'larry password 3')).statusCode).toBe(200);
    await login(t.app, 'larry@example.test', 'larry password 3');

    expect((await w.adminB.client.post(`/api/users/${uuid}/invite`)).statusCode).toBe(404);
    expect((await w.agentA1.client.post(`/api/users/${uuid}/invite`)).statusCode).toBe(403);
  });

  it('disabling an invited account closes its link; enabling returns it to invited', async () => {
    const res = await invite(w.adminA.client, { name: 'Paused Pat', email: 'pat@example.test', role: 'api' });
    const uuid = res.json().data.uuid as string;
    const token = tokenFrom((await lastMailTo('pat@example.test')).raw);
    expect((await w.adminA.client.post(`/api/users/${uuid}/disable`)).statusCode).toBe(200);
    expect((await w.adminA.client.post(`/api/users/${uuid}/invite`)).json().error).toBe('User is disabled');
    expect((await accept(token, 'pat password 1')).statusCode).toBe(400);
    const enabled = await w.adminA.client.post(`/api/users/${uuid}/enable`);
    expect(enabled.json().data.status).toBe('invited');
    expect((await accept(token, 'pat password 1')).statusCode).toBe(400);
    expect((await w.adminA.client.post(`/api/users/${uuid}/invite`)).statusCode).toBe(200);
    expect((await accept(tokenFrom((await lastMailTo('pat@example.test')).raw), 'pat password 2')).statusCode).toBe(200);
  });

  it("invites a tenant's own login account linked to the tenant record", async () => {
    const now = new Date();
    const tenant = await t.db
      .insertInto('tenants')
      .values({ uuid: newUuid(), agency_id: w.agencyA.id, name: 'Tom Tenant', email: 'tom@tenant.test', created_at: now, updated_at: now })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    const res = await invite(w.agentA1.client, { name: 'Tom Tenant', email: 'tom@tenant.test', tenant_uuid: tenant.uuid });
    expect(res.statusCode).toBe(403);
    const created = await invite(w.adminA.client, { name: 'Tom Tenant', email: 'tom@tenant.test', tenant_uuid: tenant.uuid });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ role_code: 'tenant', tenant_uuid: tenant.uuid, status: 'invited' });
    const token = tokenFrom((await lastMailTo('tom@tenant.test')).raw);
    expect((await accept(token, 'tom the tenant password')).statusCode).toBe(200);
    const tom = new Client(t.app, await login(t.app, 'tom@tenant.test', 'tom the tenant password'));
    const me = await tom.get('/api/auth/me');
    expect(me.json().data).toMatchObject({ role: 'Tenant', agency_uuid: w.agencyA.uuid });
    expect((await tom.get('/api/users')).statusCode).toBe(403);
  });

  it('400 for a malformed or unknown token; nothing changes', async () => {
    expect((await accept('x', 'long enough password')).statusCode).toBe(400);
    expect((await accept('b'.repeat(64), 'long enough password')).json().error).toBe('Invalid or expired invitation token');
    const missing = await t.app.inject({ method: 'POST', url: '/api/users/invitations/accept', payload: { password: 'long enough password' } });
    expect(missing.json().error).toBe('Invalid or missing required parameter: token');
  });
});
