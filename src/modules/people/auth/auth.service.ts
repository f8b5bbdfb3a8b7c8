/**
 * Authentication rules (spec 3, 4.1 to 4.3, 5.1, 5.2; docs/security.md promises 1 to 3, 11 to 13):
 * credential checks with throttling, login and mobile-auth token issue, token resolution for every
 * request, and revocation.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import type { AuthContext, Actor } from '../../../core/auth-context.ts';
import { AppError, forbidden } from '../../../core/errors.ts';
import { rateLimitError } from '../../../core/rate-limit.ts';
import { addSeconds, SECONDS } from '../../../lib/clock.ts';
import { hashToken, isTokenShaped, newToken, newUuid } from '../../../lib/crypto.ts';
import { verifyAgainstDummy, verifyPassword } from '../../../lib/passwords.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './auth.repository.ts';
import { TokenCache, type CachedAccount } from './token-cache.ts';
import { SSO_REQUIRED, ssoRequired } from './sso-policy.ts';
import type { TokenKind } from '../../../db/schema.ts';
import { checkPasskey } from './passkeys.service.ts';
import { accountById, passSecondFactor, requireSecondFactor, staleChallenge, type FactorAnswer } from './two-factor.service.ts';

/** Lifetimes in seconds (spec 3, 5.2, 8). */
export const LIFETIMES = {
  login: 90 * SECONDS.day,
  mobile: 365 * SECONDS.day,
  session: 2 * SECONDS.hour,
  sessionIdle: 30 * SECONDS.minute,
  rememberMe: 30 * SECONDS.day,
} as const;

/** Name of the browser session cookie. */
export const SESSION_COOKIE = 'caretaker_session';

export interface Credentials {
  email: string;
  password: string;
}

export interface RequestMeta extends Actor {
  userAgent: string | null;
}

type AccountRow = NonNullable<Awaited<ReturnType<typeof repo.findUserByEmail>>>;

/**
 * What a login asks of the security blacklist (src/modules/platform/security, docs/security.md
 * "Blacklist"), handed to authRoutes by the composition root (src/main/app.ts).
 */
export interface LoginGuard {
  /** True when the account is blacklisted: its login is refused with 403. */
  accountBlocked(userId: number): Promise<boolean>;
  /** Called when an address trips the per-IP login throttle (feeds the automatic entries). */
  throttled(ip: string): Promise<void>;
}

/** The refusal a suspended agency's accounts get (403), at login and on every request. */
export const AGENCY_SUSPENDED = 'This agency is suspended: its accounts cannot sign in or use the API until the platform operators reactivate it';

function failureKeys(email: string, ip: string) {
  return { account: `loginfail:acct:${email.toLowerCase()}`, ip: `loginfail:ip:${ip}` };
}

/**
 * Checks an e-mail and password, throttling failures per account and per IP. The failure is
 * reserved (counted) atomically BEFORE the password hash is checked and given back on success, so
 * N parallel wrong passwords check at most the limit (docs/security.md promise 26).
 * @returns the account row
 * @throws 429 when throttled, 401 'Invalid email or password' (same body for an unknown e-mail and a
 *   wrong password), 403 for a disabled account or a role refused on the playground
 */
async function checkCredentials(deps: AppDeps, guard: LoginGuard, creds: Credentials, meta: RequestMeta, event: string): Promise<AccountRow> {
  const { limiter, config, clock, db } = deps;
  const rl = config.rateLimit;
  const keys = failureKeys(creds.email, meta.ip);
  const byAccount = await limiter.consume(keys.account, rl.loginAccountFailures, rl.loginWindowS, { failClosed: true });
  const byIp = byAccount.allowed ? await limiter.consume(keys.ip, rl.loginIpFailures, rl.loginWindowS, { failClosed: true }) : undefined;
  if (!byAccount.allowed || !byIp?.allowed) {
    if (byAccount.allowed) await limiter.refund(keys.account, rl.loginAccountFailures, rl.loginWindowS);
    await recordActivity(db, meta, clock.now(), {
      action: `${event}_throttled`,
      resourceType: 'user',
      agencyId: null,
      userId: null,
      userName: creds.email.slice(0, 254),
    });
    if (byIp && !byIp.allowed) await guard.throttled(meta.ip).catch(() => undefined);
    throw rateLimitError(!byAccount.allowed ? byAccount : byIp!);
  }

  const account = await repo.findUserByEmail(db, creds.email);
  const valid = account ? await verifyPassword(account.password_hash, creds.password) : await verifyAgainstDummy(creds.password);
  if (!account || !valid) {
    await recordActivity(db, meta, clock.now(), {
      action: `${event}_failed`,
      resourceType: 'user',
      resourceId: account?.id ?? null,
      agencyId: account?.agency_id ?? null,
      userId: account?.id ?? null,
      userName: account?.name ?? creds.email.slice(0, 254),
    });
    throw new AppError('invalid_credentials');
  }
  // The password was right: whatever the account rules decide, this was no failed guess. A refusal
  // (blocked, disabled, suspended) counted as one would throttle the account and trip the automatic
  // block of the address, so the login would still be refused after the block is lifted.
  await limiter.reset(keys.account, rl.loginAccountFailures, rl.loginWindowS);
  await limiter.refund(keys.ip, rl.loginIpFailures, rl.loginWindowS);
  await assertMaySignIn(deps, guard, account, meta, event);
  return account;
}

/**
 * The account rules every sign-in checks once the credential is right (password, second factor or
 * passkey): active account, agency not suspended, not blacklisted, the playground's roles.
 * @throws 403 (logged as `<event>_refused` with the reason)
 */
async function assertMaySignIn(deps: AppDeps, guard: LoginGuard, account: AccountRow, meta: RequestMeta, event: string): Promise<void> {
  const { config, clock, db } = deps;
  const refuse = async (reason: string, message: string) => {
    await recordActivity(db, meta, clock.now(), {
      action: `${event}_refused`,
      resourceType: 'user',
      resourceId: account.id,
      agencyId: account.agency_id,
      userId: account.id,
      userName: account.name,
      details: { reason },
    });
    throw forbidden(message);
  };
  if (account.status !== 'active') await refuse('disabled', 'This account is disabled');
  if (account.agency_suspended_at !== null) await refuse('agency_suspended', AGENCY_SUSPENDED);
  if (await guard.accountBlocked(account.id)) await refuse('blacklisted', 'Access denied');
  if (await ssoRequired(deps, account.id)) await refuse('sso_required', SSO_REQUIRED);
  if (config.playground && !['sysops', 'api'].includes(account.role_code)) {
    await refuse('playground', 'Only SysOps and API accounts may log in on the API playground');
  }
}

export interface LoginResult {
  token: string;
  expiresAt: Date;
  sessionToken: string;
  sessionExpiresAt: Date;
  rememberMe: boolean;
  user: { name: string; email: string; account_type: string };
}

/** The reason stored on the bearer tokens a new login revokes (shown by `endedReason`). */
export const SUPERSEDED = 'superseded by a new login';

/**
 * POST /api/auth/login (spec 4.1): issues a 90-day bearer token and a browser session, revoking
 * every earlier active bearer token (login and mobile) of the account in the same transaction
 * (promise 2). Browser sessions are never revoked by a login: each device keeps its own
 * (docs/security.md "A session per device").
 * @returns the raw token and session token with their expiry (Date) and the 2.6 user fields
 * @throws as checkCredentials (401, 403, 429)
 */
export async function login(deps: AppDeps, guard: LoginGuard, creds: Credentials & { rememberMe: boolean }, meta: RequestMeta): Promise<LoginResult> {
  const account = await checkCredentials(deps, guard, creds, meta, 'auth.login');
  await requireSecondFactor(deps, account, 'login', creds.rememberMe, meta);
  return issueLogin(deps, account, creds, meta);
}

/** Issues the token and session of POST /api/auth/login to an account whose sign-in passed (see `login`). */
export async function issueLogin(deps: AppDeps, account: AccountRow, creds: { rememberMe: boolean }, meta: RequestMeta): Promise<LoginResult> {
  const now = deps.clock.now();
  const token = newToken();
  const sessionToken = newToken();
  const expiresAt = addSeconds(now, LIFETIMES.login);
  const sessionExpiresAt = addSeconds(now, creds.rememberMe ? LIFETIMES.rememberMe : LIFETIMES.session);
  await changeIdentity(deps, async (trx) => {
    await repo.lockUser(trx, account.id);
    const revoked = await repo.revokeUserTokens(trx, account.id, now, SUPERSEDED, { kinds: ['login', 'mobile'] });
    // Both credentials of one login share a login id: logging out with either ends both.
    const base = { userId: account.id, createdAt: now, ip: meta.ip, userAgent: meta.userAgent, loginId: newUuid() };
    await repo.insertToken(trx, { ...base, tokenHash: hashToken(token), kind: 'login', rememberMe: false, expiresAt });
    await repo.insertToken(trx, {
      ...base,
      tokenHash: hashToken(sessionToken),
      kind: 'session',
      rememberMe: creds.rememberMe,
      expiresAt: sessionExpiresAt,
    });
    await repo.markLogin(trx, account.id, now);
    await recordActivity(trx, meta, now, {
      action: 'auth.login',
      resourceType: 'user',
      resourceId: account.id,
      agencyId: account.agency_id,
      userId: account.id,
      userName: account.name,
      details: { revoked_tokens: revoked, remember_me: creds.rememberMe },
    });
  });
  return {
    token,
    expiresAt,
    sessionToken,
    sessionExpiresAt,
    rememberMe: creds.rememberMe,
    user: { name: account.name, email: account.email, account_type: account.role_name },
  };
}

export interface SessionResult {
  sessionToken: string;
  sessionExpiresAt: Date;
  rememberMe: boolean;
  user: { name: string; email: string; account_type: string };
}

/**
 * POST /api/auth/session (docs/api.md "Additions"; docs/security.md "A session per device"): a
 * browser sign-in that issues a session cookie only, no bearer token, and revokes nothing, so
 * signing in on one device never ends another device's session nor an app's token. Logged as
 * `auth.session_start` (failures `auth.session_failed`, `_refused`, `_throttled`).
 * @returns the raw session token, its expiry (Date), remember_me and the 2.6 user fields
 * @throws as checkCredentials (401, 403, 429)
 */
export async function startSession(deps: AppDeps, guard: LoginGuard, creds: Credentials & { rememberMe: boolean }, meta: RequestMeta): Promise<SessionResult> {
  const account = await checkCredentials(deps, guard, creds, meta, 'auth.session');
  await requireSecondFactor(deps, account, 'session', creds.rememberMe, meta);
  return issueSession(deps, account, creds, meta);
}

/** Issues the browser session of POST /api/auth/session to an account whose sign-in passed (see `startSession`). */
export async function issueSession(deps: AppDeps, account: AccountRow, creds: { rememberMe: boolean }, meta: RequestMeta): Promise<SessionResult> {
  const now = deps.clock.now();
  const sessionToken = newToken();
  const sessionExpiresAt = addSeconds(now, creds.rememberMe ? LIFETIMES.rememberMe : LIFETIMES.session);
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertToken(trx, {
      userId: account.id,
      tokenHash: hashToken(sessionToken),
      kind: 'session',
      rememberMe: creds.rememberMe,
      createdAt: now,
      expiresAt: sessionExpiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent,
      loginId: newUuid(),
    });
    await repo.markLogin(trx, account.id, now);
    await recordActivity(trx, meta, now, {
      action: 'auth.session_start',
      resourceType: 'auth_token',
      resourceId: id,
      agencyId: account.agency_id,
      userId: account.id,
      userName: account.name,
      details: { remember_me: creds.rememberMe },
    });
  });
  return { sessionToken, sessionExpiresAt, rememberMe: creds.rememberMe, user: { name: account.name, email: account.email, account_type: account.role_name } };
}

/**
 * POST /api/security/mobile-auth (spec 4.2): issues a one-year bearer token; revokes nothing.
 */
export async function issueMobileToken(deps: AppDeps, guard: LoginGuard, creds: Credentials, meta: RequestMeta) {
  const account = await checkCredentials(deps, guard, creds, meta, 'auth.mobile_token');
  await requireSecondFactor(deps, account, 'mobile', false, meta);
  return issueMobile(deps, account, meta);
}

/** Issues the one-year token of POST /api/security/mobile-auth to an account whose sign-in passed. */
export async function issueMobile(deps: AppDeps, account: AccountRow, meta: RequestMeta) {
  const now = deps.clock.now();
  const token = newToken();
  const expiresAt = addSeconds(now, LIFETIMES.mobile);
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertToken(trx, {
      userId: account.id,
      tokenHash: hashToken(token),
      kind: 'mobile',
      rememberMe: false,
      createdAt: now,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    await recordActivity(trx, meta, now, {
      action: 'auth.mobile_token_issue',
      resourceType: 'auth_token',
      resourceId: id,
      agencyId: account.agency_id,
      userId: account.id,
      userName: account.name,
    });
  });
  return { token, expiresAt };
}

/**
 * The second call of a sign-in that answered 401 `second_factor_required` (or a password-less
 * passkey sign-in): checks the answer (two-factor.service.ts passSecondFactor), then the account
 * rules again, and hands back the account for the endpoint to issue its credential
 * (docs/api.md "Additions: the second factor").
 * @returns the account, remember_me and, after a forced enrolment, the recovery codes (shown once)
 * @throws 400, 401 second_factor, 403 as assertMaySignIn, 429
 */
export async function passSignInFactor(deps: AppDeps, guard: LoginGuard, answer: FactorAnswer, credential: TokenKind, meta: RequestMeta) {
  const passed = await passSecondFactor(deps, answer, credential, meta, checkPasskey);
  const account = await accountById(deps, passed.userId);
  if (!account) throw staleChallenge();
  const event = credential === 'session' ? 'auth.session' : credential === 'login' ? 'auth.login' : 'auth.mobile_token';
  await assertMaySignIn(deps, guard, account, meta, event);
  return { account, rememberMe: passed.rememberMe, recoveryCodes: passed.recoveryCodes };
}

/**
 * Revokes the token or session the request presented and logs `action` (DELETE
 * /api/security/mobile-auth, POST /api/auth/logout). A login's bearer token and session are one
 * login: revoking either revokes both (docs/security.md "Logout"); a mobile token stands alone.
 */
export async function revokeCurrentToken(deps: AppDeps, auth: AuthContext, meta: Actor, action: string): Promise<void> {
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    await repo.revokeLogin(trx, auth.tokenId, now, action);
    await recordActivity(trx, meta, now, { action, resourceType: 'auth_token', resourceId: auth.tokenId });
  });
}

export interface PresentedCredentials {
  /** Value of the Authorization header, if any. */
  authorization?: string | undefined;
  /** Value of the session cookie, if any. */
  sessionCookie?: string | undefined;
}

/** A token's row by its hash (SHA-256 hex), or undefined when there is none. */
export type TokenLookup = (tokenHash: string) => Promise<repo.TokenRow | undefined>;

/** How long the gathered lookups of `gatheredTokenLookup` wait for more, in milliseconds. */
const GATHER_MS = 50;

/** At most this many tokens in one gathered lookup. */
const GATHER_MAX = 500;

/**
 * A token lookup that gathers the lookups asked for within GATHER_MS into one query (at most
 * GATHER_MAX tokens each): the live streams' session checks, one per stream and heartbeat, which
 * at 10,000 streams were 667 queries a second on one instance's pool (bench/README.md "Live
 * updates at 10,000 streams"). Each lookup reads the database after it is asked for (a lookup
 * never joins a query already sent), so a check made after a change sees the change. The rows are
 * those of `findTokenWithIdentity`; the rules applied to them stay `authenticate`'s.
 * @returns the lookup; it rejects with the driver's error when the query fails
 */
export function gatheredTokenLookup(deps: AppDeps): TokenLookup {
  let waiting = new Map<string, Array<{ resolve: (row: repo.TokenRow | undefined) => void; reject: (err: unknown) => void }>>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const batch = waiting;
    waiting = new Map();
    const hashes = [...batch.keys()];
    for (let i = 0; i < hashes.length; i += GATHER_MAX) {
      const part = hashes.slice(i, i + GATHER_MAX);
      repo.findTokensWithIdentity(deps.db, part).then(
        (rows) => {
          for (const hash of part) for (const w of batch.get(hash)!) w.resolve(rows.get(hash));
        },
        (err: unknown) => {
          for (const hash of part) for (const w of batch.get(hash)!) w.reject(err);
        },
      );
    }
  };
  return (tokenHash) =>
    new Promise((resolve, reject) => {
      const list = waiting.get(tokenHash);
      if (list) list.push({ resolve, reject });
      else waiting.set(tokenHash, [{ resolve, reject }]);
      timer ??= setTimeout(flush, GATHER_MS);
    });
}

/** How long a token lookup may be reused (milliseconds), under an unchanged auth epoch (token-cache.ts). */
export const TOKEN_CACHE_MS = 5_000;

/** The token lookups of one app, reused for TOKEN_CACHE_MS (docs/security.md, "Token lookup cache"). */
export type TokenLookupCache = TokenCache<repo.TokenRow>;

/** A new, empty cache of token lookups; `ttlMs` 0 turns it off. */
export function createTokenCache(ttlMs = TOKEN_CACHE_MS): TokenLookupCache {
  return new TokenCache<repo.TokenRow>(ttlMs);
}

/**
 * The raw token a request presents: the bearer token, or else the session cookie.
 * @throws 401 as `authenticate` does, for a malformed header or no credentials
 */
function presentedToken({ authorization, sessionCookie }: PresentedCredentials): { raw: string; viaBearer: boolean } {
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1] || !isTokenShaped(match[1])) throw new AppError('invalid_bearer');
    return { raw: match[1], viaBearer: true };
  }
  if (sessionCookie) {
    if (!isTokenShaped(sessionCookie)) throw new AppError('unauthenticated');
    return { raw: sessionCookie, viaBearer: false };
  }
  throw new AppError('unauthenticated');
}

/** Why a browser session ended: a stable code and the sentence the sign-in page shows. */
export interface EndedReason {
  reason: string;
  message: string;
}

/**
 * The reasons a 401 for a browser session carries (docs/security.md "Why a session ended"),
 * beside the spec's `error` text, as `reason` and `message`.
 */
export const ENDED = {
  signed_out: { reason: 'signed_out', message: 'You signed out of this session.' },
  ended_by_owner: { reason: 'ended_by_owner', message: 'Your session was ended on another device.' },
  ended_by_admin: { reason: 'ended_by_admin', message: 'An administrator ended your session.' },
  password_changed: { reason: 'password_changed', message: 'Your password was changed. Please sign in with the new one.' },
  account_disabled: { reason: 'account_disabled', message: 'This account was disabled.' },
  account_blocked: { reason: 'account_blocked', message: 'Access to this account was blocked.' },
  superseded: { reason: 'superseded', message: 'You signed in again elsewhere.' },
  restored: { reason: 'restored', message: 'The service was restored from a backup. Please sign in again.' },
  expired: { reason: 'expired', message: 'Your session expired. Please sign in again.' },
  idle: { reason: 'idle', message: 'You were signed out after 30 minutes without activity.' },
  ended: { reason: 'ended', message: 'Your session has ended. Please sign in again.' },
} as const satisfies Record<string, EndedReason>;

/** The stored `revoked_reason` of each way a token is revoked -> the reason shown for it. */
const REVOKED_REASONS: Record<string, EndedReason> = {
  'auth.logout': ENDED.signed_out,
  'revoked by the user': ENDED.ended_by_owner,
  'signed out everywhere else': ENDED.ended_by_owner,
  'revoked by an administrator': ENDED.ended_by_admin,
  'password changed': ENDED.password_changed,
  'password reset': ENDED.password_changed,
  'user disabled': ENDED.account_disabled,
  blocked: ENDED.account_blocked,
  [SUPERSEDED]: ENDED.superseded,
  restore: ENDED.restored,
};

/** The reason shown for a token revoked with the stored `revoked_reason` (unknown: `ENDED.ended`). */
export function endedReason(revokedReason: string | null): EndedReason {
  return (revokedReason !== null && REVOKED_REASONS[revokedReason]) || ENDED.ended;
}

/** The token hashed last and its hash (see `hashOf`). */
let lastRaw = '';
let lastHash = '';

/**
 * SHA-256 of a raw token, reusing the last one computed: the pipeline asks for the token's cached
 * account and then authenticates the same token, so one request hashes it once.
 */
function hashOf(raw: string): string {
  if (raw !== lastRaw) {
    lastHash = hashToken(raw);
    lastRaw = raw;
  }
  return lastHash;
}

/** The permission set of each permission list a token lookup returned (a cached row keeps its list). */
const permissionSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * The caller's permission keys as a set, built once per looked-up list: a token served from the
 * lookup cache (TOKEN_CACHE_MS) shares one read-only set across its requests instead of building
 * one per request.
 */
function permissionSetOf(keys: readonly string[]): ReadonlySet<string> {
  let set = permissionSets.get(keys);
  if (!set) {
    set = new Set(keys);
    permissionSets.set(keys, set);
  }
  return set;
}

/**
 * The account of the presented token and its agency when this process has looked the token up
 * before (any age, any epoch: a token never changes account), else undefined. Lets the pipeline
 * count the account's and agency's rate limits in the same Redis round trip as the address's;
 * `authenticate` still decides.
 */
export function cachedAccountOf(cache: TokenLookupCache, presented: PresentedCredentials): CachedAccount | undefined {
  try {
    return cache.accountOf(hashOf(presentedToken(presented).raw));
  } catch {
    return undefined;
  }
}

/**
 * Resolves the caller of a request (spec 5.1, 5.2): a bearer token in the Authorization header,
 * or else the session cookie. With `cached`, the token lookup is reused while fresh and loaded
 * under the same auth epoch (src/core/auth-epoch.ts), so a revocation anywhere is seen at once;
 * every rule below is checked on each request either way.
 * @param cached the app's lookup cache and the auth epoch read before this call (null: do not use the cache)
 * @param lookup reads the token's row instead of `findTokenWithIdentity` (the live streams' gathered lookups)
 * @returns the AuthContext
 * @throws 401 'Unauthorized. Valid Bearer token required.' for a bad bearer token, 401
 *   'Authentication required. Please log in.' for no credentials or a bad session
 */
export async function authenticate(
  deps: AppDeps,
  presented: PresentedCredentials,
  cached?: { cache: TokenLookupCache; epoch: string | null },
  lookup?: TokenLookup,
): Promise<AuthContext> {
  const { raw, viaBearer } = presentedToken(presented);
  // Made only when refused: an Error captures a stack trace, which every accepted
  // request would otherwise pay.
  const failure = (ended?: EndedReason) =>
    viaBearer || !ended ? new AppError(viaBearer ? 'invalid_bearer' : 'unauthenticated') : new AppError('unauthenticated', undefined, { reason: ended.reason, message: ended.message });

  const hash = hashOf(raw);
  let row = cached?.cache.get(hash, cached.epoch);
  if (!row) {
    row = await (lookup ? lookup(hash) : repo.findTokenWithIdentity(deps.db, hash));
    if (row && cached) cached.cache.set(hash, row, cached.epoch);
  }
  if (!row) throw failure();
  if (viaBearer ? row.kind === 'session' : row.kind !== 'session') throw failure();
  if (row.revoked_at !== null) throw failure(endedReason(row.revoked_reason));
  if (row.status !== 'active') throw failure(ENDED.account_disabled);
  const now = deps.clock.now();
  if (new Date(row.expires_at) <= now) throw failure(ENDED.expired);
  const idleS = (now.getTime() - new Date(row.last_used_at).getTime()) / 1000;
  if (row.kind === 'session' && !row.remember_me && idleS >= LIFETIMES.sessionIdle) throw failure(ENDED.idle);
  // A suspended agency's accounts are refused on every request, their tokens kept (docs/onboarding.md).
  if (row.agency_suspended_at !== null) throw forbidden(AGENCY_SUSPENDED);
  // Sessions are touched at most once a minute (idle rule); bearer tokens every five minutes
  // (for "last used" in session lists), to keep reads free of writes.
  if (idleS >= (row.kind === 'session' ? 60 : 300)) {
    await repo.touchToken(deps.db, row.token_id, now);
    row.last_used_at = now;
  }

  return {
    userId: row.user_id,
    userUuid: row.user_uuid,
    name: row.name,
    email: row.email,
    agencyId: row.agency_id,
    branchId: row.branch_id,
    roleId: row.role_id,
    roleCode: row.role_code,
    roleName: row.role_name,
    level: row.level,
    contractorId: row.contractor_id,
    tenantId: row.tenant_id,
    landlordId: row.landlord_id,
    permissions: permissionSetOf(row.permissions),
    tokenId: row.token_id,
    tokenKind: row.kind,
  };
}
