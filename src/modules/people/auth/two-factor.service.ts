/**
 * Two-factor sign-in (docs/security.md "Two-factor sign-in"; docs/api.md "Additions: the second
 * factor"): TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, through otpauth), recovery codes
 * (argon2id hashes, each used once), the sign-in challenge between the password and the second
 * factor, the agency's policy (staff must hold a factor; SysOps always with
 * CARETAKER_SYSOPS_SECOND_FACTOR), and the lock-out on codes (the login throttle's counters).
 */
import { Secret, TOTP } from 'otpauth';
import { randomInt } from 'node:crypto';
import type { AppDeps } from '../../../app-deps.ts';
import { SecretBox } from '../../../lib/secret-box.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden } from '../../../core/errors.ts';

const badRequest = (message: string) => new AppError('bad_request', message);
import { rateLimitError } from '../../../core/rate-limit.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import type { TokenKind } from '../../../db/schema.ts';
import { addSeconds, SECONDS } from '../../../lib/clock.ts';
import { hashToken, newToken } from '../../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../../lib/passwords.ts';
import * as repo from './two-factor.repository.ts';

/** TOTP parameters every authenticator app supports (RFC 6238 section 4, defaults). */
export const TOTP_PERIOD_S = 30;
const TOTP_DIGITS = 6;
/** Codes of the step before and after the current one are accepted (RFC 6238 section 5.2). */
const TOTP_WINDOW = 1;
/** How long a sign-in challenge lives (seconds). */
export const CHALLENGE_TTL_S = 5 * SECONDS.minute;
/** Wrong answers one challenge takes before it is spent. */
export const CHALLENGE_MAX_ATTEMPTS = 5;
/** Recovery codes issued at a time. */
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Caretaker';

/** The account fields a second-factor decision reads (findUserByEmail's row). */
export interface FactorAccount {
  id: number;
  email: string;
  name: string;
  agency_id: number | null;
  role_code: string;
}

/** The methods a challenge may be answered with. */
export type FactorMethod = 'totp' | 'recovery_code' | 'passkey';

/** Roles the agency policy covers (docs/security.md "Two-factor sign-in"). */
const STAFF_ROLES = new Set(['admin', 'agent']);

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** The 30-second step of a time (RFC 6238 "T"). */
export function stepOf(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_S);
}

/**
 * The step a code is valid for at `now` (the current step, or one either side), or null.
 * Codes are 6 digits; spaces are ignored.
 */
function matchStep(secret: string, email: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret, email).validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : stepOf(now) + delta;
}

/** Whether the policy requires this account to sign in with a second factor. */
export function policyRequires(deps: AppDeps, account: FactorAccount, agencyRequires: boolean): boolean {
  if (account.role_code === 'sysops') return deps.config.sysopsSecondFactor;
  return agencyRequires && STAFF_ROLES.has(account.role_code);
}

/** The second-factor answer a client sends with a challenge (docs/api.md "Additions"). */
export interface FactorAnswer {
  challenge: string;
  code?: string | undefined;
  recovery_code?: string | undefined;
  /** A WebAuthn assertion (AuthenticationResponseJSON) for a passkey. */
  passkey?: Record<string, unknown> | undefined;
}

async function newChallenge(
  deps: AppDeps,
  input: Omit<repo.NewChallenge, 'challengeHash' | 'createdAt' | 'expiresAt'>,
): Promise<{ challenge: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const challenge = newToken();
  const expiresAt = addSeconds(now, CHALLENGE_TTL_S);
  await repo.pruneChallenges(deps.db, addSeconds(now, -SECONDS.hour));
  await repo.insertChallenge(deps.db, { ...input, challengeHash: hashToken(challenge), createdAt: now, expiresAt });
  return { challenge, expiresAt };
}

/**
 * Called by every password sign-in once the password is right (auth.service.ts): when the account
 * holds a second factor, or the policy requires one, the sign-in stops here with 401
 * reason `second_factor_required` (or `second_factor_enrolment_required`) and a challenge the
 * client answers on the same endpoint (docs/api.md "Additions: the second factor"). Otherwise
 * returns and the sign-in goes on.
 * @param credential what the finished sign-in issues (session, login or mobile token)
 * @throws AppError second_factor (401) with challenge, methods and expires_at
 */
export async function requireSecondFactor(
  deps: AppDeps,
  account: FactorAccount,
  credential: TokenKind,
  rememberMe: boolean,
  meta: Actor,
): Promise<void> {
  const state = await repo.factorState(deps.db, account.id);
  const holds = state.totp || state.passkeys > 0;
  if (!holds && !policyRequires(deps, account, state.agencyRequires)) return;
  const { challenge, expiresAt } = await newChallenge(deps, {
    userId: account.id,
    purpose: holds ? 'second_factor' : 'enrol',
    credential,
    rememberMe,
    webauthnChallenge: null,
    totpSecret: null,
  });
  const methods: FactorMethod[] = holds ? [...(state.totp ? (['totp', 'recovery_code'] as const) : []), ...(state.passkeys > 0 ? (['passkey'] as const) : [])] : ['totp'];
  await recordActivity(deps.db, meta, deps.clock.now(), {
    action: holds ? 'auth.second_factor_challenge' : 'auth.second_factor_enrolment_required',
    resourceType: 'user',
    resourceId: account.id,
    agencyId: account.agency_id,
    userId: account.id,
    userName: account.name,
    details: { credential, methods },
  });
  throw new AppError('second_factor', holds ? undefined : 'Second factor enrolment required', {
    reason: holds ? 'second_factor_required' : 'second_factor_enrolment_required',
    message: holds
      ? 'Enter the 6-digit code from your authenticator app, a recovery code, or use your passkey.'
      : 'Your agency requires a second factor. Set up an authenticator app to finish signing in.',
    challenge,
    methods,
    expires_at: expiresAt.toISOString(),
  });
}

function throttleKeys(userId: number, ip: string) {
  // The IP key is the password throttle's own (auth.service.ts failureKeys): codes and passwords share its budget.
  return { account: `2fa:acct:${userId}`, ip: `loginfail:ip:${ip}` };
}

/**
 * Reserves one failure on the account's and the address's code counters (as passwords do,
 * docs/security.md promise 26) before a code is checked.
 * @returns a function giving the reservation back on success
 * @throws 429 when either counter is spent (the lock-out), logged `auth.second_factor_throttled`
 */
async function reserveAttempt(deps: AppDeps, account: FactorAccount, meta: Actor): Promise<() => Promise<void>> {
  const rl = deps.config.rateLimit;
  const keys = throttleKeys(account.id, meta.ip);
  const byAccount = await deps.limiter.consume(keys.account, rl.loginAccountFailures, rl.loginWindowS, { failClosed: true });
  const byIp = byAccount.allowed ? await deps.limiter.consume(keys.ip, rl.loginIpFailures, rl.loginWindowS, { failClosed: true }) : undefined;
  if (!byAccount.allowed || !byIp?.allowed) {
    if (byAccount.allowed) await deps.limiter.refund(keys.account, rl.loginAccountFailures, rl.loginWindowS);
    await recordActivity(deps.db, meta, deps.clock.now(), {
      action: 'auth.second_factor_throttled', resourceType: 'user', resourceId: account.id, agencyId: account.agency_id, userId: account.id, userName: account.name,
    });
    throw rateLimitError(!byAccount.allowed ? byAccount : byIp!);
  }
  return async () => {
    await deps.limiter.reset(keys.account, rl.loginAccountFailures, rl.loginWindowS);
    await deps.limiter.refund(keys.ip, rl.loginIpFailures, rl.loginWindowS);
  };
}

/** The refusal of a wrong code (401, the challenge kept until CHALLENGE_MAX_ATTEMPTS). */
function wrongCode(): AppError {
  return new AppError('second_factor', 'Invalid code', { reason: 'invalid_code', message: 'That code is not right. Try again, or use a recovery code.' });
}

/**
 * The refusal of a wrong code from a signed-in account (confirming, replacing recovery codes,
 * turning the app off): 400, since the session itself is fine and a 401 would sign the console out.
 */
function wrongCodeSignedIn(): AppError {
  return badRequest('That code is not right. Try again, or use a recovery code.');
}

/** The refusal of an unknown, spent or expired challenge: sign in again with the password. */
export function staleChallenge(): AppError {
  return new AppError('second_factor', 'Sign-in expired', { reason: 'challenge_expired', message: 'This sign-in has expired. Please enter your e-mail and password again.' });
}

/** Checks a TOTP code against a secret and records its step (refusing a replay). */
async function checkTotp(deps: AppDeps, userId: number, secret: string, email: string, code: string, lastStep: string | null): Promise<boolean> {
  const step = matchStep(secret, email, code, deps.clock.now());
  if (step === null) return false;
  if (lastStep !== null && step <= Number(lastStep)) return false;
  return repo.useTotpStep(deps.db, userId, step);
}

/** Checks a recovery code against the unused ones and spends the match. */
async function checkRecoveryCode(deps: AppDeps, userId: number, code: string): Promise<boolean> {
  const normal = normaliseRecoveryCode(code);
  if (normal === null) return false;
  for (const row of await repo.unusedRecoveryCodes(deps.db, userId)) {
    if (await verifyPassword(row.code_hash, normal)) return repo.useRecoveryCode(deps.db, row.id, deps.clock.now());
  }
  return false;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function normaliseRecoveryCode(code: string): string | null {
  const s = code.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{10}$/.test(s) ? s : null;
}

/** Ten new recovery codes (10 characters of a 31-letter alphabet, about 49 bits each), shown as xxxxx-xxxxx. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = '';
    for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

async function storeRecoveryCodes(deps: AppDeps, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map((c) => hashPassword(normaliseRecoveryCode(c)!)));
  await repo.replaceRecoveryCodes(deps.db, userId, hashes, deps.clock.now());
  return codes;
}

/** What a finished second-factor step hands back to the sign-in that asked for it. */
export interface FactorPassed {
  userId: number;
  credential: TokenKind;
  rememberMe: boolean;
  /** Recovery codes issued by a forced enrolment (shown once). */
  recoveryCodes?: string[];
}

/** Verifies a passkey assertion for a challenge (passkeys.service.ts); returns the user id or null. */
export type PasskeyCheck = (deps: AppDeps, assertion: Record<string, unknown>, expectedChallenge: string, userId: number | null) => Promise<number | null>;

/**
 * The second call of a sign-in (docs/api.md "Additions: the second factor"): checks the answer to
 * a challenge (a TOTP code, a recovery code or a passkey assertion; for a forced enrolment, the
 * first code of the secret offered, which turns TOTP on) and spends the challenge.
 * @param credential the endpoint's credential kind: a challenge issued by another endpoint is refused
 * @returns the user, the credential to issue and remember_me
 * @throws 400 no answer or more than one; 401 second_factor (challenge_expired, invalid_code);
 *   429 when the code throttle is spent
 */
export async function passSecondFactor(
  deps: AppDeps,
  answer: FactorAnswer,
  credential: TokenKind,
  meta: Actor,
  passkeyCheck: PasskeyCheck,
): Promise<FactorPassed> {
  const given = [answer.code, answer.recovery_code, answer.passkey].filter((v) => v !== undefined).length;
  if (given !== 1) throw badRequest('Send exactly one of code, recovery_code or passkey with the challenge');
  const now = deps.clock.now();
  const row = await repo.findChallenge(deps.db, hashToken(answer.challenge), now);
  if (!row || row.credential !== credential || (row.purpose !== 'second_factor' && row.purpose !== 'enrol' && row.purpose !== 'passkey_login')) {
    throw staleChallenge();
  }
  const isPasskeyLogin = row.purpose === 'passkey_login';
  if (isPasskeyLogin && answer.passkey === undefined) throw badRequest('Answer this challenge with a passkey');
  let userId = row.user_id;
  const account = userId !== null ? await repo.findUserById(deps.db, userId) : undefined;
  if (userId !== null && !account) throw staleChallenge();
  const release = account ? await reserveAttempt(deps, account, meta) : async () => undefined;

  let ok = false;
  let method: FactorMethod = 'totp';
  let recoveryCodes: string[] | undefined;
  if (answer.passkey !== undefined) {
    method = 'passkey';
    if (row.webauthn_challenge !== null) userId = await passkeyCheck(deps, answer.passkey, row.webauthn_challenge, row.user_id);
    ok = userId !== null;
  } else if (row.purpose === 'enrol') {
    if (answer.code === undefined || row.totp_secret === null || !account) throw badRequest('Start the enrolment first (POST /api/auth/two-factor/enrol), then send a code');
    const offered = deps.secrets.open(row.totp_secret);
    const step = matchStep(offered, account.email, answer.code, now);
    if (step !== null) {
      await repo.upsertTotp(deps.db, account.id, deps.secrets.seal(offered), now, true);
      await repo.confirmTotp(deps.db, account.id, now, step);
      recoveryCodes = await storeRecoveryCodes(deps, account.id);
      ok = true;
    }
  } else if (answer.code !== undefined && account) {
    const totp = await repo.findTotp(deps.db, account.id);
    ok = totp?.confirmed_at != null && (await checkTotp(deps, account.id, deps.secrets.open(totp.secret), account.email, answer.code, totp.last_step));
  } else if (answer.recovery_code !== undefined && account) {
    method = 'recovery_code';
    ok = await checkRecoveryCode(deps, account.id, answer.recovery_code);
  }

  const subject = userId !== null ? await repo.findUserById(deps.db, userId) : undefined;
  if (!ok || !subject) {
    const attempts = await repo.countChallengeAttempt(deps.db, row.id);
    if (attempts >= CHALLENGE_MAX_ATTEMPTS) await repo.useChallenge(deps.db, row.id, now);
    await recordActivity(deps.db, meta, now, {
      action: 'auth.second_factor_failed',
      resourceType: 'user',
      resourceId: row.user_id,
      agencyId: account?.agency_id ?? null,
      userId: row.user_id,
      userName: account?.name ?? 'anonymous',
      details: { method, attempts },
    });
    throw attempts >= CHALLENGE_MAX_ATTEMPTS ? staleChallenge() : wrongCode();
  }
  if (!(await repo.useChallenge(deps.db, row.id, now))) throw staleChallenge();
  await release();
  await recordActivity(deps.db, meta, now, {
    action: row.purpose === 'enrol' ? 'user.totp_enable' : 'auth.second_factor_passed',
    resourceType: 'user',
    resourceId: subject.id,
    agencyId: subject.agency_id,
    userId: subject.id,
    userName: subject.name,
    details: { method, credential, forced_enrolment: row.purpose === 'enrol' },
  });
  return { userId: subject.id, credential, rememberMe: row.remember_me, ...(recoveryCodes ? { recoveryCodes } : {}) };
}

/** The account a passed second factor signs in (for the sign-in's own status checks). */
export function accountById(deps: AppDeps, userId: number) {
  return repo.findUserById(deps.db, userId);
}

/** A new secret with its otpauth:// URI and QR code (PNG data URL) for an authenticator app. */
async function offer(secret: string, email: string) {
  const uri = totpOf(secret, email).toString();
  // Loaded at the first enrolment (about sixty modules), not at the server's start (docs/operations.md "Starting").
  const { default: QRCode } = await import('qrcode');
  const qr = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret, otpauth_uri: uri, qr_code: qr, period_s: TOTP_PERIOD_S, digits: TOTP_DIGITS };
}

/**
 * POST /api/auth/two-factor/enrol: the secret for a forced enrolment, bound to the challenge of a
 * sign-in answered with `second_factor_enrolment_required` (no session exists yet).
 * @returns secret, otpauth_uri, qr_code (data:image/png;base64), period_s, digits
 * @throws 401 challenge_expired
 */
export async function startForcedEnrolment(deps: AppDeps, challenge: string) {
  const row = await repo.findChallenge(deps.db, hashToken(challenge), deps.clock.now());
  if (!row || row.purpose !== 'enrol' || row.user_id === null) throw staleChallenge();
  const account = await repo.findUserById(deps.db, row.user_id);
  if (!account) throw staleChallenge();
  const secret = row.totp_secret !== null ? deps.secrets.open(row.totp_secret) : new Secret({ size: 20 }).base32;
  if (row.totp_secret === null) await repo.updateChallenge(deps.db, row.id, { totp_secret: deps.secrets.seal(secret) });
  return offer(secret, account.email);
}

type Caller = Actor & { auth: AuthContext };

/**
 * GET /api/users/me/two-factor: the caller's factors and whether the policy requires one.
 * @returns { totp_enabled, totp_enabled_at, recovery_codes_left, passkeys: [...], required }
 */
export async function twoFactorStatus(deps: AppDeps, auth: AuthContext) {
  const [totp, codes, passkeys, account] = await Promise.all([
    repo.findTotp(deps.db, auth.userId),
    repo.unusedRecoveryCodes(deps.db, auth.userId),
    repo.listPasskeys(deps.db, auth.userId),
    repo.findUserById(deps.db, auth.userId),
  ]);
  const agencyRequires = auth.agencyId !== null ? await repo.agencyPolicy(deps.db, auth.agencyId) : false;
  return {
    totp_enabled: totp?.confirmed_at != null,
    totp_enabled_at: totp?.confirmed_at ? new Date(totp.confirmed_at).toISOString() : null,
    recovery_codes_left: totp?.confirmed_at ? codes.length : 0,
    passkeys: passkeys.map((p) => ({
      id: p.uuid,
      name: p.name,
      created_at: new Date(p.created_at).toISOString(),
      last_used_at: p.last_used_at ? new Date(p.last_used_at).toISOString() : null,
    })),
    required: account ? policyRequires(deps, account, agencyRequires) : false,
  };
}

/**
 * POST /api/users/me/two-factor/totp: starts (or restarts) TOTP enrolment for the signed-in caller;
 * nothing changes at sign-in until a code is verified.
 * @returns secret, otpauth_uri, qr_code (PNG data URL), period_s, digits
 * @throws 409 when TOTP is already on (turn it off first)
 */
export async function startTotpEnrolment(deps: AppDeps, caller: Caller) {
  const existing = await repo.findTotp(deps.db, caller.auth.userId);
  if (existing?.confirmed_at) throw conflict('Two-factor authentication is already on. Turn it off first to set up a new app.');
  const secret = new Secret({ size: 20 }).base32;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.upsertTotp(trx, caller.auth.userId, deps.secrets.seal(secret), now, false);
    await recordActivity(trx, caller, now, { action: 'user.totp_enrol_start', resourceType: 'user', resourceId: caller.auth.userId });
  });
  return offer(secret, caller.auth.email);
}

/**
 * POST /api/users/me/two-factor/totp/verify: turns TOTP on with the first code of the pending
 * secret, and issues recovery codes (shown once; stored as argon2id hashes).
 * @returns { recovery_codes: string[] }
 * @throws 409 nothing pending or already on; 400 a wrong code; 429 throttled
 */
export async function verifyTotpEnrolment(deps: AppDeps, caller: Caller, code: string) {
  const totp = await repo.findTotp(deps.db, caller.auth.userId);
  if (!totp) throw conflict('Start the set-up first: no authenticator app is waiting to be confirmed');
  if (totp.confirmed_at) throw conflict('Two-factor authentication is already on');
  const account = { id: caller.auth.userId, email: caller.auth.email, name: caller.auth.name, agency_id: caller.auth.agencyId, role_code: caller.auth.roleCode };
  const release = await reserveAttempt(deps, account, caller);
  const now = deps.clock.now();
  const step = matchStep(deps.secrets.open(totp.secret), caller.auth.email, code, now);
  if (step === null) {
    await recordActivity(deps.db, caller, now, { action: 'user.totp_enrol_failed', resourceType: 'user', resourceId: caller.auth.userId });
    throw wrongCodeSignedIn();
  }
  await release();
  await deps.db.transaction().execute(async (trx) => {
    await repo.confirmTotp(trx, caller.auth.userId, now, step);
    await recordActivity(trx, caller, now, { action: 'user.totp_enable', resourceType: 'user', resourceId: caller.auth.userId });
  });
  return { recovery_codes: await storeRecoveryCodes(deps, caller.auth.userId) };
}

/**
 * Checks a current code (TOTP or recovery) of the caller, for turning TOTP off or new recovery codes.
 * @throws 400 a wrong code; 429 throttled
 */
async function confirmWithCode(deps: AppDeps, caller: Caller, input: { code?: string | undefined; recovery_code?: string | undefined }): Promise<void> {
  const account = { id: caller.auth.userId, email: caller.auth.email, name: caller.auth.name, agency_id: caller.auth.agencyId, role_code: caller.auth.roleCode };
  const totp = await repo.findTotp(deps.db, caller.auth.userId);
  if (!totp?.confirmed_at) throw conflict('Two-factor authentication is not on');
  if ((input.code === undefined) === (input.recovery_code === undefined)) throw badRequest('Send exactly one of code or recovery_code');
  const release = await reserveAttempt(deps, account, caller);
  const ok = input.code !== undefined
    ? await checkTotp(deps, caller.auth.userId, deps.secrets.open(totp.secret), caller.auth.email, input.code, totp.last_step)
    : await checkRecoveryCode(deps, caller.auth.userId, input.recovery_code!);
  if (!ok) throw wrongCodeSignedIn();
  await release();
}

/**
 * DELETE /api/users/me/two-factor/totp: turns TOTP off (and deletes the recovery codes), given a
 * current code. Refused when the policy requires a factor and no passkey is left.
 * @throws 403 the policy requires a second factor; 409 not on; 400 a wrong code; 429
 */
export async function disableTotp(deps: AppDeps, caller: Caller, input: { code?: string | undefined; recovery_code?: string | undefined }) {
  const status = await twoFactorStatus(deps, caller.auth);
  if (status.required && status.passkeys.length === 0 && status.totp_enabled) {
    throw forbidden('Your agency requires a second factor: add a passkey before turning the authenticator app off');
  }
  await confirmWithCode(deps, caller, input);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteTotp(trx, caller.auth.userId);
    await repo.replaceRecoveryCodes(trx, caller.auth.userId, [], now);
    await recordActivity(trx, caller, now, { action: 'user.totp_disable', resourceType: 'user', resourceId: caller.auth.userId });
  });
}

/**
 * POST /api/users/me/two-factor/recovery-codes: replaces the recovery codes, given a current code.
 * @returns { recovery_codes: string[] } shown once
 */
export async function regenerateRecoveryCodes(deps: AppDeps, caller: Caller, input: { code?: string | undefined; recovery_code?: string | undefined }) {
  await confirmWithCode(deps, caller, input);
  const codes = await storeRecoveryCodes(deps, caller.auth.userId);
  await recordActivity(deps.db, caller, deps.clock.now(), { action: 'user.recovery_codes_regenerate', resourceType: 'user', resourceId: caller.auth.userId });
  return { recovery_codes: codes };
}

/**
 * PUT /api/security/two-factor-policy: the caller's agency requires (or stops requiring) a second
 * factor of its staff (admin, agent); each takes effect at their next sign-in.
 * @throws 403 for a caller without an agency
 */
export async function setTwoFactorPolicy(deps: AppDeps, caller: Caller, required: boolean) {
  if (caller.auth.agencyId === null) throw forbidden('Only an agency has a two-factor policy');
  const agencyId = caller.auth.agencyId;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.setAgencyPolicy(trx, agencyId, required);
    await recordActivity(trx, caller, now, { action: 'agency.two_factor_policy', resourceType: 'agency', resourceId: agencyId, details: { required } });
  });
  return { required };
}

/** GET /api/security/two-factor-policy: the caller's agency's policy (false without an agency). */
export async function getTwoFactorPolicy(deps: AppDeps, auth: AuthContext) {
  return { required: auth.agencyId !== null ? await repo.agencyPolicy(deps.db, auth.agencyId) : false, sysops_always: deps.config.sysopsSecondFactor };
}

/** Starts a password-less passkey sign-in challenge (passkeys.service.ts). */
export function newPasskeyLoginChallenge(deps: AppDeps, credential: TokenKind, rememberMe: boolean, webauthnChallenge: string) {
  return newChallenge(deps, { userId: null, purpose: 'passkey_login', credential, rememberMe, webauthnChallenge, totpSecret: null });
}

/** Binds a WebAuthn challenge to a second-factor challenge (passkey as second factor); returns the user id. */
export async function attachWebauthnChallenge(deps: AppDeps, challenge: string, webauthnChallenge: string): Promise<number> {
  const row = await repo.findChallenge(deps.db, hashToken(challenge), deps.clock.now());
  if (!row || row.purpose !== 'second_factor' || row.user_id === null) throw staleChallenge();
  await repo.updateChallenge(deps.db, row.id, { webauthn_challenge: webauthnChallenge });
  return row.user_id;
}

/**
 * One batch of the backfill `auth.totp-secrets` (docs/security.md "Secrets at rest"): the TOTP
 * secrets stored before encryption are encrypted under the instance's secrets key. Idempotent: an
 * encrypted one is skipped.
 * @returns how many rows the batch passed and the last user id
 */
export async function sealTotpSecretsBatch(deps: AppDeps, afterUserId: number, size: number): Promise<{ count: number; lastId: number }> {
  const rows = await repo.totpSecretsAfter(deps.db, afterUserId, size);
  await deps.db.transaction().execute(async (trx) => {
    for (const r of rows) if (!SecretBox.isSealed(r.secret)) await repo.setTotpSecret(trx, r.user_id, deps.secrets.seal(r.secret));
  });
  return { count: rows.length, lastId: rows.at(-1)?.user_id ?? afterUserId };
}

/** How many TOTP rows the backfill `auth.totp-secrets` passes over. */
export function countTotpSecretsForBackfill(deps: AppDeps): Promise<number> {
  return repo.countTotpSecrets(deps.db);
}
