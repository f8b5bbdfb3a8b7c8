/**
 * docs/security.md "Two-factor sign-in": TOTP (RFC 6238) enrolment with a QR code, codes at the
 * window's edges (one step either side) accepted and beyond refused, a replayed code refused,
 * recovery codes used once, the lock-out on codes, the second call of a browser, login and
 * mobile-auth sign-in, the agency policy forcing enrolment at the next sign-in, and a blocked
 * account's session ending with its reason.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealTotpSecretsBatch } from '../../../src/modules/people/auth/index.ts';
import { buildTestApp, Client, createAgency, createBranch, createUser, login, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ CARETAKER_LOGIN_ACCOUNT_FAILURES: '5' });
});
afterAll(async () => t?.close());

async function staff(role: 'agent' | 'admin' = 'agent') {
  const agency = await createAgency(t.db);
  const branch = await createBranch(t.db, agency.id);
  const user = await createUser(t.db, { role, agencyId: agency.id, branchId: branch.id });
  const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id });
  return { agency, user, admin };
}

/** The code of `secret` at `at` plus `steps` 30-second steps. */
function codeAt(secret: string, steps = 0, at = t.clock.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() + steps * 30_000 });
}

/** Moves the clock to the start of the next 30-second step, plus `intoS` seconds. */
function toStepStart(intoS = 0) {
  const ms = t.clock.now().getTime();
  t.clock.set(new Date(Math.ceil((ms + 1) / 30_000) * 30_000 + intoS * 1000));
}

const session = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/session', payload });
const activity = (userId: number, action: string) =>
  t.db.selectFrom('activity_log').select(['action', 'details']).where('user_id', '=', userId).where('action', '=', action).execute();

/** Turns TOTP on for a user through the API; returns the secret and the recovery codes. */
async function enrol(email: string) {
  const c = new Client(t.app, await login(t.app, email));
  const offer = await c.write('POST', '/api/users/me/two-factor/totp', {});
  expect(offer.statusCode).toBe(200);
  const { secret, otpauth_uri, qr_code } = offer.json().data;
  expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Caretaker:.+\?.*secret=/);
  expect(qr_code).toMatch(/^data:image\/png;base64,/);
  toStepStart(1);
  const verified = await c.write('POST', '/api/users/me/two-factor/totp/verify', { code: codeAt(secret) });
  expect(verified.statusCode).toBe(200);
  const codes = verified.json().data.recovery_codes as string[];
  expect(codes).toHaveLength(10);
  toStepStart(1); // the enrolment's step is spent
  return { secret: secret as string, codes, client: c };
}

describe('TOTP enrolment', () => {
  it('stores the recovery codes hashed, and turns on only with a right code', async () => {
    const { user } = await staff();
    const c = new Client(t.app, await login(t.app, user.email));
    await c.write('POST', '/api/users/me/two-factor/totp', {});
    const wrong = await c.write('POST', '/api/users/me/two-factor/totp/verify', { code: '000000' });
    // Signed in, a wrong code is a bad input (400), never a 401 that would end the session.
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('That code is not right. Try again, or use a recovery code.');
    expect((await c.get('/api/users/me/two-factor')).json().data.totp_enabled).toBe(false);
    const { codes } = await enrol(user.email);
    const rows = await t.db.selectFrom('user_recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(r.code_hash).toMatch(/^\$argon2id\$/);
      expect(codes.some((code) => r.code_hash.includes(code))).toBe(false);
    }
    expect((await activity(user.id, 'user.totp_enable')).length).toBe(1);
  });
});

describe('TOTP secrets at rest (docs/security.md "Secrets at rest")', () => {
  it('stores the secret encrypted: the column is not the base32 secret nor holds it, and a code still signs in', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    const row = await t.db.selectFrom('user_totp').select('secret').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.secret).not.toBe(secret);
    expect(row.secret).not.toContain(secret);
    expect(row.secret).toMatch(/^enc:v1:[\w-]+\.[\w-]+\.[\w-]+$/);
    const first = await session({ email: user.email, password: TEST_PASSWORD });
    expect(first.statusCode).toBe(401);
    expect((await session({ challenge: first.json().challenge, code: codeAt(secret) })).statusCode).toBe(200);
  });

  it('reads a secret stored before encryption, and the backfill auth.totp-secrets encrypts it in place', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    // As a row written by the previous release: the base32 secret itself.
    await t.db.updateTable('user_totp').set({ secret }).where('user_id', '=', user.id).execute();
    toStepStart(1);
    const before = await session({ email: user.email, password: TEST_PASSWORD });
    expect((await session({ challenge: before.json().challenge, code: codeAt(secret) })).statusCode).toBe(200);
    const pending = await t.db.selectFrom('data_backfills').select('name').where('name', '=', 'auth.totp-secrets').execute();
    expect(pending).toHaveLength(1);
    let cursor = 0;
    for (;;) {
      const step = await sealTotpSecretsBatch(t.deps, cursor, 2);
      if (step.count === 0) break;
      cursor = step.lastId;
    }
    const row = await t.db.selectFrom('user_totp').select('secret').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(secret);
    // Run again, it changes nothing; the code signs in as before.
    await sealTotpSecretsBatch(t.deps, 0, 1000);
    expect((await t.db.selectFrom('user_totp').select('secret').where('user_id', '=', user.id).executeTakeFirstOrThrow()).secret).toBe(row.secret);
    toStepStart(1);
    const after = await session({ email: user.email, password: TEST_PASSWORD });
    expect((await session({ challenge: after.json().challenge, code: codeAt(secret) })).statusCode).toBe(200);
  });
});

describe('Sign-in with a second factor', () => {
  it('answers a challenge, then the code finishes a browser sign-in; both browsers stay signed in', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    const first = await session({ email: user.email, password: TEST_PASSWORD });
    expect(first.statusCode).toBe(401);
    const body = first.json();
    expect(body).toMatchObject({ success: false, error: 'Second factor required', reason: 'second_factor_required', methods: ['totp', 'recovery_code'] });
    expect(body.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(first.cookies.find((c) => c.name === 'caretaker_session')).toBeUndefined();
    const second = await session({ challenge: body.challenge, code: codeAt(secret) });
    expect(second.statusCode).toBe(200);
    const desktop = second.cookies.find((c) => c.name === 'caretaker_session')!.value;
    // The challenge is single use.
    expect((await session({ challenge: body.challenge, code: codeAt(secret, 1) })).json().reason).toBe('challenge_expired');
    // A second browser, one step later.
    t.clock.advance(30);
    const phoneChallenge = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    const phone = await session({ challenge: phoneChallenge, code: codeAt(secret) });
    expect(phone.statusCode).toBe(200);
    for (const cookie of [desktop, phone.cookies.find((c) => c.name === 'caretaker_session')!.value]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { caretaker_session: cookie } })).statusCode).toBe(200);
    }
    expect((await activity(user.id, 'auth.second_factor_passed')).length).toBe(2);
  });

  it('accepts codes one step either side of now and refuses two steps away (RFC 6238 5.2)', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    const tryCode = async (steps: number) => {
      const challenge = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
      return session({ challenge, code: codeAt(secret, steps) });
    };
    // 29 s into a step: the code of the step before (just ended) and after (not yet begun) pass.
    toStepStart(29);
    expect((await tryCode(-2)).statusCode).toBe(401);
    expect((await tryCode(2)).statusCode).toBe(401);
    expect((await tryCode(-1)).statusCode).toBe(200);
    t.clock.advance(60); // past the last used step, so earlier codes are not replays
    toStepStart(0);
    expect((await tryCode(1)).statusCode).toBe(200);
  });

  it('refuses a replayed code, even with a new challenge in the same step', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    const code = codeAt(secret);
    const a = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    expect((await session({ challenge: a, code })).statusCode).toBe(200);
    const b = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    const replay = await session({ challenge: b, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().reason).toBe('invalid_code');
    // An earlier step's code is refused too once a later one was used.
    expect((await session({ challenge: b, code: codeAt(secret, -1) })).statusCode).toBe(401);
    expect((await session({ challenge: b, code: codeAt(secret, 1) })).statusCode).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const { user } = await staff();
    const { codes } = await enrol(user.email);
    const a = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    expect((await session({ challenge: a, recovery_code: codes[3]!.toUpperCase() })).statusCode).toBe(200);
    const b = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    expect((await session({ challenge: b, recovery_code: codes[3]! })).statusCode).toBe(401);
    expect((await session({ challenge: b, recovery_code: codes[4]! })).statusCode).toBe(200);
  });

  it('locks out after the account limit of wrong codes (429), across challenges, as passwords do', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    let challenge = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      if (i === 3) challenge = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
      statuses.push((await session({ challenge, code: '000000' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Even the right code is refused while locked out.
    const locked = await session({ challenge, code: codeAt(secret) });
    expect(locked.statusCode).toBe(429);
    expect((await activity(user.id, 'auth.second_factor_throttled')).length).toBeGreaterThan(0);
    expect((await activity(user.id, 'auth.second_factor_failed')).length).toBe(5);
  });

  it('spends a challenge after five wrong answers', async () => {
    const { user } = await staff('admin');
    await enrol(user.email);
    const challenge = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    const reasons: string[] = [];
    for (let i = 0; i < 5; i++) reasons.push((await session({ challenge, code: '111111' })).json().reason);
    expect(reasons).toEqual(['invalid_code', 'invalid_code', 'invalid_code', 'invalid_code', 'challenge_expired']);
  });

  it('mobile-auth and login take the second factor too; a mobile token survives a console sign-in', async () => {
    const { user } = await staff();
    const { secret } = await enrol(user.email);
    const m1 = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(m1.statusCode).toBe(401);
    // A challenge of mobile-auth is not good for a browser session.
    expect((await session({ challenge: m1.json().challenge, code: codeAt(secret) })).json().reason).toBe('challenge_expired');
    const m1b = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { email: user.email, password: TEST_PASSWORD } });
    const m2 = await t.app.inject({ method: 'POST', url: '/api/security/mobile-auth', payload: { challenge: m1b.json().challenge, code: codeAt(secret) } });
    expect(m2.statusCode).toBe(200);
    const mobileToken = m2.json().data.token as string;
    t.clock.advance(30);
    const c1 = (await session({ email: user.email, password: TEST_PASSWORD })).json().challenge;
    expect((await session({ challenge: c1, code: codeAt(secret) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${mobileToken}` } })).statusCode).toBe(200);
    t.clock.advance(30);
    const l1 = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(l1.statusCode).toBe(401);
    const l2 = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { challenge: l1.json().challenge, code: codeAt(secret) } });
    expect(l2.statusCode).toBe(200);
    expect(l2.json().token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a body mixing a password and a challenge, or a code without a challenge (400)', async () => {
    const { user } = await staff();
    const mixed = await session({ email: user.email, password: TEST_PASSWORD, challenge: 'a'.repeat(64), code: '123456' });
    expect(mixed.statusCode).toBe(400);
    const noChallenge = await session({ code: '123456' });
    expect(noChallenge.json().error).toBe('Invalid or missing required parameter: challenge');
    expect((await session({ password: TEST_PASSWORD })).json().error).toBe('Invalid or missing required parameter: email');
  });
});

describe('Agency policy', () => {
  it('forces enrolment at the next sign-in of staff, then the first code signs in and returns recovery codes once', async () => {
    const { user, admin } = await staff();
    const a = new Client(t.app, await login(t.app, admin.email));
    expect((await a.write('PUT', '/api/security/two-factor-policy', { required: true })).statusCode).toBe(200);
    const first = await session({ email: user.email, password: TEST_PASSWORD });
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({ reason: 'second_factor_enrolment_required', methods: ['totp'] });
    const challenge = first.json().challenge as string;
    const offer = await t.app.inject({ method: 'POST', url: '/api/auth/two-factor/enrol', payload: { challenge } });
    expect(offer.statusCode).toBe(200);
    const secret = offer.json().data.secret as string;
    expect(offer.json().data.qr_code).toMatch(/^data:image\/png;base64,/);
    const done = await session({ challenge, code: codeAt(secret) });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.recovery_codes).toHaveLength(10);
    expect((await activity(user.id, 'auth.second_factor_enrolment_required')).length).toBe(1);
    // Tenants are not staff: the policy leaves them alone.
    const tenant = await createUser(t.db, { role: 'api', agencyId: (await t.db.selectFrom('users').select('agency_id').where('id', '=', user.id).executeTakeFirstOrThrow()).agency_id! });
    expect((await session({ email: tenant.email, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('only an admin sets the policy', async () => {
    const { user } = await staff();
    const c = new Client(t.app, await login(t.app, user.email));
    expect((await c.write('PUT', '/api/security/two-factor-policy', { required: true })).statusCode).toBe(403);
  });
});

describe('Blocking an account', () => {
  it('ends its sessions; the next page says why; logged', async () => {
    const { user, admin } = await staff();
    const s = await session({ email: user.email, password: TEST_PASSWORD });
    const cookie = s.cookies.find((c) => c.name === 'caretaker_session')!.value;
    const a = new Client(t.app, await login(t.app, admin.email));
    const uuid = (await t.db.selectFrom('users').select('uuid').where('id', '=', user.id).executeTakeFirstOrThrow()).uuid;
    const blocked = await a.write('POST', '/api/security/blacklist', { kind: 'account', user_uuid: uuid, reason: 'left the agency' });
    expect(blocked.statusCode).toBeLessThan(300);
    const next = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { caretaker_session: cookie } });
    expect(next.statusCode).toBe(401);
    expect(next.json()).toMatchObject({ reason: 'account_blocked', message: 'Access to this account was blocked.' });
  });
});
