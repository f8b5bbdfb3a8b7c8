/**
 * Password reset by e-mail (docs/users.md, docs/email.md), end to end through a real SMTP server started
 * here (smtp-server): request -> message arrives -> token from the mail -> confirm -> old token
 * 401 -> login with the new password. Same answer for unknown e-mails, single use under
 * concurrency, expiry after one hour (ManualClock), rate limits per IP and per e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/lib/crypto.ts';
import { buildTestApp, Client, createUser, login, standardWorld, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';
import { decodeQuotedPrintable, mailTo, startSmtpServer, tokenFrom } from './mail-helpers.ts';

const SAME_ANSWER = { success: true, message: 'If an account exists for this e-mail address, a password reset link has been sent to it.' };

describe('users: password reset by e-mail through SMTP', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  // Each request from its own address unless one is given, so only the rate-limit test meets the IP limit.
  let ipCounter = 0;
  const nextIp = () => `10.0.0.${++ipCounter}`;
  const reset = (email: string, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress });
  const confirm = (token: string, new_password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, new_password } });
  /** Asks for a reset and returns the token read from the delivered message. */
  const tokenFor = async (email: string) => {
    const before = smtp.messages.length;
    expect((await reset(email)).statusCode).toBe(200);
    await t.deps.mailer.flush();
    const message = mailTo(smtp.messages.slice(before), email);
    if (!message) throw new Error(`no message to ${email}`);
    return tokenFrom(message.raw);
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      SMTP_URL: smtp.url,
      CARETAKER_PUBLIC_URL: 'https://app.example.test/',
      CARETAKER_PASSWORD_RESET_EMAIL_MAX: '3',
      CARETAKER_PASSWORD_RESET_IP_MAX: '4',
    });
    w = await standardWorld(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('runs end to end: request, e-mail, confirm, old token 401, login with the new password', async () => {
    const u = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Reset Me' });
    const old = new Client(t.app, await login(t.app, u.email));
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: u.email.toUpperCase() } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SAME_ANSWER);

    await t.deps.mailer.flush();
    const message = mailTo(smtp.messages, u.email)!;
    expect(message).toBeDefined();
    expect(message.to).toEqual([u.email]);
    expect(message.from).toBe('no-reply@caretaker.test');
    const text = decodeQuotedPrintable(message.raw);
    expect(text).toMatch(/^From: Caretaker <no-reply@caretaker\.test>/m);
    expect(text).toMatch(/^Subject: Reset your Caretaker password/m);
    expect(text).toContain('Content-Type: text/html');
    expect(text).toContain('Hello Reset Me,');
    const token = tokenFrom(message.raw);
    expect(text).toContain(`https://app.example.test/reset-password?token=${token}`);

    const stored = await t.db.selectFrom('user_tokens').selectAll().where('user_id', '=', u.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(hashToken(token));
    expect(new Date(stored[0]!.expires_at).getTime() - t.clock.now().getTime()).toBe(3600 * 1000);

    const done = await confirm(token, 'my new reset password');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true, message: 'Password has been reset. Log in with the new password.' });
    expect((await old.get('/api/users/permissions')).statusCode).toBe(401);
    const oldPassword = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: TEST_PASSWORD } });
    expect(oldPassword.statusCode).toBe(401);
    await login(t.app, u.email, 'my new reset password');

    const again = await confirm(token, 'another new password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, error: 'Invalid or expired reset token' });
    const log = await t.db.selectFrom('activity_log').select(['action', 'user_id', 'agency_id', 'details']).where('resource_id', '=', u.id).where('action', 'like', 'auth.password_reset%').orderBy('id').execute();
    expect(log).toEqual([
      { action: 'auth.password_reset_request', user_id: u.id, agency_id: w.agencyA.id, details: { sent: true } },
      { action: 'auth.password_reset', user_id: u.id, agency_id: w.agencyA.id, details: { revoked_tokens: 2 } },
    ]);
  });

  it('gives the same answer for an unknown e-mail or a disabled account, and sends nothing', async () => {
    const disabled = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, status: 'disabled' });
    const before = smtp.messages.length;
    const unknown = await reset('nobody-here@example.test');
    const off = await reset(disabled.email);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(JSON.stringify(SAME_ANSWER));
    expect(off.body).toBe(unknown.body);
    await t.deps.mailer.flush();
    expect(smtp.messages.length).toBe(before);
    const entry = await t.db.selectFrom('activity_log').select(['user_id', 'user_name', 'details']).where('action', '=', 'auth.password_reset_request').where('user_name', '=', 'nobody-here@example.test').executeTakeFirstOrThrow();
    expect(entry).toEqual({ user_id: null, user_name: 'nobody-here@example.test', details: { sent: false } });
  });

  it('lets exactly one of two concurrent confirmations with one token succeed', async () => {
    const u = await createUser(t.db, { role: 'api', agencyId: w.agencyA.id });
    const token = await tokenFor(u.email);
    const results = await Promise.all([confirm(token, 'concurrent password 1'), confirm(token, 'concurrent password 2')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = results[0]!.statusCode === 200 ? 'concurrent password 1' : 'concurrent password 2';
    await login(t.app, u.email, winner);
  });

  it('expires a token after one hour; a newer request replaces the older token', async () => {
    const u = await createUser(t.db, { role: 'api', agencyId: w.agencyA.id });
    const first = await tokenFor(u.email);
    t.clock.advance(3600);
    const expired = await confirm(first, 'too late password');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe('Invalid or expired reset token');

    const older = await tokenFor(u.email);
    const newer = await tokenFor(u.email);
    expect((await confirm(older, 'replaced password')).statusCode).toBe(400);
    t.clock.advance(3599);
    expect((await confirm(newer, 'just in time password')).statusCode).toBe(200);
    await login(t.app, u.email, 'just in time password');
  });

  it('400 for malformed bodies and tokens; no CSRF token needed', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: {} })).json().error).toBe('Invalid or missing required parameter: email');
    expect((await confirm('not-a-token', 'long enough password')).json().error).toBe('Invalid or expired reset token');
    expect((await confirm('a'.repeat(64), 'long enough password')).statusCode).toBe(400);
    expect((await confirm('a'.repeat(64), 'short')).json().error).toBe('Invalid or missing required parameter: new_password');
    const extra = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { new_password: 'long enough password' } });
    expect(extra.json().error).toBe('Invalid or missing required parameter: token');
  });

  it('rate limits per e-mail and per IP (429 with the spec headers)', async () => {
    const email = 'limited@example.test';
    for (let i = 0; i < 3; i++) expect((await reset(email, '198.51.100.1')).statusCode).toBe(200);
    const limited = await reset(email, '198.51.100.2');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: 'Rate limit exceeded', limit: 3 });
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.headers['x-ratelimit-limit']).toBe('3');

    for (let i = 0; i < 4; i++) expect((await reset(`ip-${i}@example.test`, '203.0.113.7')).statusCode).toBe(200);
    const byIp = await reset('ip-5@example.test', '203.0.113.7');
    expect(byIp.statusCode).toBe(429);
    expect(byIp.json().limit).toBe(4);
    expect((await reset('ip-5@example.test', '203.0.113.8')).statusCode).toBe(200);
  });
});
