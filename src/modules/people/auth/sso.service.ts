/**
 * Single sign-on by OpenID Connect (docs/security.md "Single sign-on"; docs/users.md "Single
 * sign-on"): an agency's provider settings, the authorization code flow with PKCE through
 * openid-client (state, nonce and PKCE verifier kept server-side, used once, expiring after
 * SSO_STATE_TTL_S, bound to the browser that started it), the matching of the provider's verified
 * e-mail within the agency's own domains, optional creation of the account, and the browser
 * session it starts, which ends when the provider's ID token expires.
 */
import * as oidc from 'openid-client';
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext, Actor } from '../../../core/auth-context.ts';
import { AppError, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { emitEvent } from '../../../events/index.ts';
import { addSeconds, SECONDS } from '../../../lib/clock.ts';
import { hashToken, newToken, newUuid } from '../../../lib/crypto.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import * as authRepo from './auth.repository.ts';
import { AGENCY_SUSPENDED, LIFETIMES, type LoginGuard, type RequestMeta } from './auth.service.ts';
import * as repo from './sso.repository.ts';

/** How long a started sign-in may take at the provider, in seconds. */
export const SSO_STATE_TTL_S = 10 * SECONDS.minute;

/** Name of the cookie that binds a started sign-in to the browser that started it. */
export const SSO_BROWSER_COOKIE = 'caretaker_sso';

/** The scopes asked of every provider: an ID token with the e-mail and name. */
export const SSO_SCOPES = 'openid email profile';

/** Consumer mail domains an agency may not claim: anybody can hold an address there. */
const PUBLIC_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'live.com', 'live.co.uk', 'msn.com',
  'yahoo.com', 'yahoo.co.uk', 'icloud.com', 'me.com', 'aol.com', 'btinternet.com', 'proton.me', 'protonmail.com',
]);

/** Why a single sign-on failed: a stable reason code, the sentence shown, and the HTTP status. */
export class SsoFailure extends Error {
  readonly reason: string;
  readonly status: number;
  constructor(reason: string, message: string, status = 401) {
    super(message);
    this.name = 'SsoFailure';
    this.reason = reason;
    this.status = status;
  }
}

/** Every refusal of the callback (docs/security.md "Single sign-on", table of reasons). */
export const SSO_FAILURES = {
  not_configured: ['Single sign-on is not set up for this agency.', 404],
  unknown_state: ['This sign-in link is not valid. Please start again from the sign-in page.', 401],
  replayed_state: ['This sign-in was already used. Please start again from the sign-in page.', 401],
  expired_state: ['This sign-in took longer than 10 minutes. Please start again from the sign-in page.', 401],
  other_browser: ['This sign-in was started in another browser. Please start again from the sign-in page.', 401],
  provider_refused: ['Your organisation\'s sign-in refused the request', 401],
  wrong_audience: ['The identity token was issued for another application (wrong audience).', 401],
  wrong_issuer: ['The identity token was issued by another provider or tenant (wrong issuer).', 401],
  bad_token: ['The identity token could not be verified.', 401],
  no_email: ['Your organisation did not share an e-mail address. Ask your administrator to release the "email" claim.', 401],
  email_unverified: ['Your organisation has not verified this e-mail address, so it cannot be used to sign in.', 401],
  other_domain: ['This e-mail address is not in one of the agency\'s own domains.', 401],
  not_in_agency: ['This e-mail address belongs to an account of another agency.', 401],
  no_account: ['There is no account for this e-mail address. Ask your administrator to create one.', 401],
  account_disabled: ['This account is disabled.', 401],
  account_blocked: ['Access denied', 401],
  agency_suspended: [AGENCY_SUSPENDED, 403],
  provider_unavailable: ['Your organisation\'s sign-in could not be reached. Please try again.', 502],
} as const satisfies Record<string, readonly [string, number]>;

export type SsoReason = keyof typeof SSO_FAILURES;

/** A failure of `reason`, with an optional detail added to its sentence. */
export function ssoFailure(reason: SsoReason, detail?: string): SsoFailure {
  const [message, status] = SSO_FAILURES[reason];
  return new SsoFailure(reason, detail ? `${message}: ${detail}` : message, status);
}

/** The redirect URI every provider is given: CARETAKER_PUBLIC_URL + /api/auth/sso/callback. */
export function redirectUri(deps: AppDeps): string {
  return `${deps.config.mail.publicUrl}/api/auth/sso/callback`;
}

// --- Provider configurations (discovery), cached ---------------------------------------------

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const discovered = new Map<string, { at: number; config: oidc.Configuration }>();

/**
 * The openid-client configuration of a provider: its discovery document read from
 * `<issuer>/.well-known/openid-configuration` (the issuer it names must equal `issuer`), reused
 * for 10 minutes.
 * @throws SsoFailure provider_unavailable when it cannot be read
 */
async function providerConfig(deps: AppDeps, s: { issuer: string; client_id: string; client_secret: string }): Promise<oidc.Configuration> {
  const key = `${s.issuer}\n${s.client_id}\n${hashToken(s.client_secret)}`;
  const hit = discovered.get(key);
  if (hit && performance.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  try {
    const config = await oidc.discovery(new URL(s.issuer), s.client_id, s.client_secret, undefined, {
      timeout: Math.ceil(deps.config.sso.timeoutMs / 1000),
      ...(deps.config.sso.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    discovered.set(key, { at: performance.now(), config });
    return config;
  } catch (err) {
    throw ssoFailure('provider_unavailable', err instanceof Error ? err.message : undefined);
  }
}

// --- Settings (admin API) -----------------------------------------------------------------------

export interface SsoSettingsInput {
  provider: 'microsoft' | 'google' | 'other';
  issuer: string;
  client_id: string;
  client_secret?: string | undefined;
  domains: string[];
  enabled?: boolean | undefined;
  create_users?: boolean | undefined;
  default_role?: 'agent' | 'admin' | null | undefined;
  default_branch_uuid?: string | null | undefined;
  require_for_staff?: boolean | undefined;
}

/** The settings as the API shows them: the client secret never, only whether one is set. */
function toDto(deps: AppDeps, row: repo.SsoRow) {
  return {
    provider: row.provider,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.client_secret.length > 0,
    domains: row.domains,
    enabled: row.enabled,
    create_users: row.create_users,
    default_role: (row.default_role_code as 'agent' | 'admin' | null) ?? null,
    default_branch_uuid: row.default_branch_uuid ?? null,
    require_for_staff: row.require_for_staff,
    redirect_uri: redirectUri(deps),
    scopes: SSO_SCOPES,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export type SsoSettingsDto = ReturnType<typeof toDto>;

function agencyOf(auth: AuthContext): number {
  if (auth.agencyId === null) throw forbidden('Single sign-on is set per agency: SysOps have no agency');
  return auth.agencyId;
}

/**
 * GET /api/auth/sso/settings: the caller's agency's provider settings.
 * @returns SsoSettingsDto, or null when none are set
 * @throws 403 for SysOps (no agency)
 */
export async function getSsoSettings(deps: AppDeps, auth: AuthContext): Promise<SsoSettingsDto | null> {
  const row = await repo.findSso(deps.db, agencyOf(auth));
  return row ? toDto(deps, row) : null;
}

/**
 * PUT /api/auth/sso/settings: sets the caller's agency's provider. The issuer's discovery
 * document is read first (so a mistyped issuer is refused now, not at the first sign-in).
 * @returns SsoSettingsDto
 * @throws 400 issuer (http:// without CARETAKER_SSO_ALLOW_HTTP, or its discovery failed), 400
 *   client_secret (missing on first set-up), 400 domains (a consumer mail domain, or claimed by
 *   another agency), 400 default_role (create_users without one), 404 Branch, 400
 *   default_branch_uuid (an agent default role without a branch), 403 for SysOps
 */
export async function putSsoSettings(deps: AppDeps, auth: AuthContext, actor: Actor, input: SsoSettingsInput): Promise<SsoSettingsDto> {
  const agencyId = agencyOf(auth);
  const existing = await repo.findSso(deps.db, agencyId);
  const issuer = input.issuer.replace(/\/+$/, '');
  if (!URL.canParse(issuer)) throw invalidParam('issuer');
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && deps.config.sso.allowHttp)) {
    throw new AppError('bad_request', 'Invalid issuer: it must be an https:// URL');
  }
  const secret = input.client_secret ?? existing?.client_secret;
  if (!secret) throw invalidParam('client_secret');
  const domains = [...new Set(input.domains.map((d) => d.toLowerCase()))];
  const publicOne = domains.find((d) => PUBLIC_DOMAINS.has(d));
  if (publicOne) throw new AppError('bad_request', `Invalid domains: ${publicOne} is a public mail service, not the agency's own domain`);
  const claimed = await repo.domainsClaimedElsewhere(deps.db, agencyId, domains);
  if (claimed.length > 0) throw new AppError('bad_request', `Invalid domains: ${claimed.join(', ')} already signs in to another agency`);
  const createUsers = input.create_users ?? false;
  const roleCode = input.default_role ?? null;
  if (createUsers && roleCode === null) throw invalidParam('default_role');
  const role = roleCode ? await repo.findStaffRole(deps.db, roleCode) : undefined;
  let branchId: number | null = null;
  if (input.default_branch_uuid) {
    const branch = await repo.findBranch(deps.db, agencyId, input.default_branch_uuid);
    if (!branch) throw notFound('Branch');
    branchId = branch.id;
  }
  if (roleCode === 'agent' && branchId === null) throw invalidParam('default_branch_uuid');
  try {
    await providerConfig(deps, { issuer, client_id: input.client_id, client_secret: secret });
  } catch (err) {
    throw new AppError('bad_request', `Invalid issuer: its discovery document could not be read (${err instanceof Error ? err.message : 'no answer'})`);
  }
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.upsertSso(trx, agencyId, {
      provider: input.provider, issuer, client_id: input.client_id, client_secret: secret, domains, enabled: input.enabled ?? true,
      create_users: createUsers, default_role_id: role?.id ?? null, default_branch_id: branchId, require_for_staff: input.require_for_staff ?? false,
    }, now);
    await recordActivity(trx, actor, now, {
      action: existing ? 'sso.settings_update' : 'sso.settings_create',
      resourceType: 'agency',
      resourceId: agencyId,
      agencyId,
      details: { provider: input.provider, issuer, domains, create_users: createUsers, require_for_staff: input.require_for_staff ?? false, secret_changed: input.client_secret !== undefined },
    });
  });
  return toDto(deps, (await repo.findSso(deps.db, agencyId))!);
}

/**
 * DELETE /api/auth/sso/settings: removes the agency's provider (password sign-in works again for
 * everyone). Sessions already started stay until they expire.
 * @throws 404 'Single sign-on settings not found', 403 for SysOps
 */
export async function deleteSsoSettings(deps: AppDeps, auth: AuthContext, actor: Actor): Promise<void> {
  const agencyId = agencyOf(auth);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteSso(trx, agencyId))) throw notFound('Single sign-on settings');
    await recordActivity(trx, actor, now, { action: 'sso.settings_delete', resourceType: 'agency', resourceId: agencyId, agencyId });
  });
}

/**
 * GET /api/auth/sso/discover: which agency's single sign-on an e-mail domain or an agency uuid
 * uses, for the sign-in page's button.
 * @returns {agency_uuid, agency_name, provider, start_url}
 * @throws 404 'Single sign-on not found' when none (or disabled, or the agency is suspended)
 */
export async function discover(deps: AppDeps, query: { email?: string | undefined; agency?: string | undefined }) {
  let found: { agency_uuid: string; agency_name: string; provider: 'microsoft' | 'google' | 'other' } | undefined;
  if (query.agency) {
    const a = await repo.findAgencySso(deps.db, query.agency);
    if (a && a.provider && a.enabled && a.suspended_at === null) found = { agency_uuid: a.agency_uuid, agency_name: a.agency_name, provider: a.provider };
  } else if (query.email) {
    const domain = query.email.slice(query.email.lastIndexOf('@') + 1).toLowerCase();
    found = await repo.findSsoByDomain(deps.db, domain);
  } else {
    throw invalidParam('email');
  }
  if (!found) throw notFound('Single sign-on');
  return { ...found, start_url: `/api/auth/sso/${found.agency_uuid}/start` };
}

// --- The flow -----------------------------------------------------------------------------------

/** A path inside this site to return to after signing in, or null (an absolute or protocol-relative URL is dropped). */
export function safeReturnTo(value: string | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.length > 500) return null;
  return value;
}

/**
 * GET /api/auth/sso/{agency}/start: a new sign-in at the agency's provider. Stores the state
 * (SHA-256), nonce and PKCE verifier for SSO_STATE_TTL_S, bound to a new browser cookie.
 * @param input agency uuid, return path and optional login hint (the e-mail typed)
 * @returns the provider's authorization URL and the raw browser-binding value for the cookie
 * @throws SsoFailure not_configured (404), agency_suspended (403), provider_unavailable (502)
 */
export async function startSso(deps: AppDeps, input: { agency: string; returnTo?: string | undefined; loginHint?: string | undefined }) {
  const a = await repo.findAgencySso(deps.db, input.agency);
  if (!a || !a.provider || !a.enabled) throw ssoFailure('not_configured');
  if (a.suspended_at !== null) throw ssoFailure('agency_suspended');
  const s = (await repo.findSso(deps.db, a.agency_id))!;
  const config = await providerConfig(deps, s);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browser = newToken();
  const now = deps.clock.now();
  await repo.purgeStates(deps.db, addSeconds(now, -SECONDS.day));
  await repo.insertState(deps.db, {
    stateHash: hashToken(state), agencyId: a.agency_id, browserHash: hashToken(browser), nonce, codeVerifier,
    returnTo: safeReturnTo(input.returnTo), createdAt: now, expiresAt: addSeconds(now, SSO_STATE_TTL_S),
  });
  const params: Record<string, string> = {
    redirect_uri: redirectUri(deps),
    scope: SSO_SCOPES,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  if (input.loginHint) params.login_hint = input.loginHint;
  // Google Workspace: show only the accounts of the agency's domain (its `hd` parameter).
  if (s.provider === 'google' && s.domains.length === 1) params.hd = s.domains[0]!;
  return { url: oidc.buildAuthorizationUrl(config, params).href, browser, stateTtlS: SSO_STATE_TTL_S };
}

/** The claim (aud, iss, nonce...) or attribute a library error complains about, searched through its causes. */
function complaintOf(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const o = e as { claim?: unknown; attribute?: unknown; message?: unknown };
    if (typeof o.claim === 'string') return o.claim;
    if (typeof o.attribute === 'string') return o.attribute;
    if (typeof o.message === 'string' && /"iss"/.test(o.message)) return 'iss';
    if (typeof o.message === 'string' && /"aud"/.test(o.message)) return 'aud';
  }
  return undefined;
}

/** Maps an openid-client error of the code exchange to the failure shown. */
function exchangeFailure(err: unknown): SsoFailure {
  if (err instanceof oidc.AuthorizationResponseError) {
    return ssoFailure('provider_refused', `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`);
  }
  if (err instanceof oidc.ResponseBodyError) return ssoFailure('provider_refused', `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`);
  const complaint = complaintOf(err);
  if (complaint === 'aud' || complaint === 'azp') return ssoFailure('wrong_audience');
  if (complaint === 'iss') return ssoFailure('wrong_issuer');
  if (err instanceof TypeError || (err instanceof Error && /fetch failed|timed? ?out|ECONNREFUSED|aborted/i.test(err.message))) {
    return ssoFailure('provider_unavailable');
  }
  return ssoFailure('bad_token', err instanceof Error ? err.message : undefined);
}

export interface SsoSignedIn {
  sessionToken: string;
  sessionExpiresAt: Date;
  lifetimeS: number;
  returnTo: string;
  userId: number;
}

/**
 * GET /api/auth/sso/callback: checks the provider's answer and starts a browser session.
 * In order: the state is known, unused (then used up), unexpired and bound to this browser; the
 * code is exchanged with the PKCE verifier, and the ID token's signature, issuer, audience, nonce
 * and times are checked by openid-client; the e-mail is verified (`email_verified: true`, or for
 * Microsoft Entra ID `xms_edov: true`), in one of the agency's domains, and names an active
 * account of this agency (or one is created with the default role when allowed). The session
 * expires with the ID token (its `exp - iat`), and at the latest after the usual 2 hours.
 * Every outcome is in the activity log (`auth.sso_session_start`, `auth.sso_failed`).
 * @param currentUrl the callback's full URL (CARETAKER_PUBLIC_URL + path and query)
 * @param browser the binding cookie's value, if any
 * @throws SsoFailure with its reason (SSO_FAILURES)
 */
export async function finishSso(deps: AppDeps, guard: LoginGuard, currentUrl: URL, browser: string | undefined, meta: RequestMeta): Promise<SsoSignedIn> {
  const now = deps.clock.now();
  const state = currentUrl.searchParams.get('state') ?? '';
  const stateHash = hashToken(state);
  const fail = async (f: SsoFailure, agencyId: number | null, extra: Record<string, unknown> = {}) => {
    await recordActivity(deps.db, meta, now, {
      action: 'auth.sso_failed', resourceType: 'user', agencyId, userId: (extra.user_id as number | undefined) ?? null,
      userName: typeof extra.email === 'string' ? extra.email.slice(0, 254) : 'anonymous', details: { reason: f.reason, ...extra },
    });
    return f;
  };
  const row = state ? await repo.takeState(deps.db, stateHash, now) : undefined;
  if (!row) throw await fail(ssoFailure(state && (await repo.stateWasUsed(deps.db, stateHash)) ? 'replayed_state' : 'unknown_state'), null);
  if (new Date(row.expires_at) <= now) throw await fail(ssoFailure('expired_state'), row.agency_id);
  if (!browser || hashToken(browser) !== row.browser_hash) throw await fail(ssoFailure('other_browser'), row.agency_id);
  const s = await repo.findSso(deps.db, row.agency_id);
  if (!s || !s.enabled) throw await fail(ssoFailure('not_configured'), row.agency_id);
  const config = await providerConfig(deps, s);

  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: row.code_verifier, expectedState: state, expectedNonce: row.nonce, idTokenExpected: true });
    claims = tokens.claims()!;
  } catch (err) {
    throw await fail(exchangeFailure(err), row.agency_id, { error: err instanceof Error ? err.message.slice(0, 300) : 'unknown' });
  }
  const base = { issuer: claims.iss, subject: claims.sub };
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
  if (!email.includes('@')) throw await fail(ssoFailure('no_email'), row.agency_id, base);
  const verified = claims.email_verified === true || (s.provider === 'microsoft' && claims.xms_edov === true);
  if (!verified) throw await fail(ssoFailure('email_unverified'), row.agency_id, { ...base, email });
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!s.domains.includes(domain)) throw await fail(ssoFailure('other_domain'), row.agency_id, { ...base, email });

  let account = await authRepo.findUserByEmail(deps.db, email);
  if (account && account.agency_id !== row.agency_id) throw await fail(ssoFailure('not_in_agency'), row.agency_id, { ...base, email });
  let created = false;
  if (!account) {
    if (!s.create_users || s.default_role_id === null) throw await fail(ssoFailure('no_account'), row.agency_id, { ...base, email });
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : email;
    // The account gets the hash of a random secret nobody knows: it signs in by single sign-on only.
    const passwordHash = await hashPassword(newToken());
    await deps.db.transaction().execute(async (trx) => {
      const id = await repo.insertUser(trx, { uuid: newUuid(), agencyId: row.agency_id, branchId: s.default_branch_id, roleId: s.default_role_id!, name, email, passwordHash, at: now });
      await recordActivity(trx, meta, now, {
        action: 'user.create', resourceType: 'user', resourceId: id, agencyId: row.agency_id, userId: id, userName: name,
        details: { role: s.default_role_code, via: 'single sign-on', ...base },
      });
      await emitEvent(trx, now, { name: 'user.created', agencyId: row.agency_id, payload: { user_id: id, role_code: s.default_role_code ?? 'agent' } });
    });
    account = (await authRepo.findUserByEmail(deps.db, email))!;
    created = true;
  }
  const who = { ...base, email, user_id: account.id };
  if (account.status === 'disabled') throw await fail(ssoFailure('account_disabled'), row.agency_id, who);
  if (account.agency_suspended_at !== null) throw await fail(ssoFailure('agency_suspended'), row.agency_id, who);
  if (await guard.accountBlocked(account.id)) throw await fail(ssoFailure('account_blocked'), row.agency_id, who);

  const idLifetimeS = typeof claims.exp === 'number' && typeof claims.iat === 'number' ? claims.exp - claims.iat : LIFETIMES.session;
  const lifetimeS = Math.max(60, Math.min(LIFETIMES.session, idLifetimeS));
  const sessionToken = newToken();
  const sessionExpiresAt = addSeconds(now, lifetimeS);
  await deps.db.transaction().execute(async (trx) => {
    if (account.status === 'invited') await repo.activateInvited(trx, account.id, now);
    const id = await authRepo.insertToken(trx, {
      userId: account.id, tokenHash: hashToken(sessionToken), kind: 'session', rememberMe: false, createdAt: now,
      expiresAt: sessionExpiresAt, ip: meta.ip, userAgent: meta.userAgent, loginId: newUuid(),
    });
    await authRepo.markLogin(trx, account.id, now);
    await recordActivity(trx, meta, now, {
      action: 'auth.sso_session_start', resourceType: 'auth_token', resourceId: id, agencyId: account.agency_id, userId: account.id,
      userName: account.name, details: { ...base, provider: s.provider, created, session_seconds: lifetimeS },
    });
  });
  return { sessionToken, sessionExpiresAt, lifetimeS, returnTo: row.return_to ?? '/', userId: account.id };
}
