/**
 * Passwords (docs/users.md; docs/security.md promises 5, 11, 12): change by the account holder,
 * and reset by e-mail with a single-use token stored as SHA-256 and valid one hour.
 */
import type { Transaction } from 'kysely';
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import type { Database } from '../../../db/schema.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError } from '../../../core/errors.ts';
import { rateLimitError } from '../../../core/rate-limit.ts';
import { addSeconds, SECONDS } from '../../../lib/clock.ts';
import { hashToken, isTokenShaped, newToken } from '../../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../../lib/passwords.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findUserByEmail, revokeUserTokens } from '../auth/index.ts';
import { passwordResetMail } from '../../messaging/mail/index.ts';
import * as repo from './users.repository.ts';
import type { UserRow } from './users.repository.ts';

/** Lifetime of a reset token in seconds (one hour). */
export const RESET_TTL_S = SECONDS.hour;

/** The one answer of POST /api/auth/password-reset, whether or not the e-mail is known. */
export const RESET_REQUESTED_MESSAGE = 'If an account exists for this e-mail address, a password reset link has been sent to it.';

/**
 * POST /api/users/me/password: checks the current password, stores the new one, and revokes
 * every other token and session of the account (the one of this request stays valid).
 * Wrong current password: 400 'Current password is incorrect' (logged, and throttled per account
 * like failed logins: 429 once over the limit).
 * @returns how many tokens and sessions were revoked
 */
export async function changePassword(
  deps: AppDeps,
  actor: Actor & { auth: AuthContext },
  input: { current_password: string; new_password: string },
): Promise<number> {
  const { auth } = actor;
  const rl = deps.config.rateLimit;
  const key = `pwchange:acct:${auth.userId}`;
  const state = await deps.limiter.peek(key, rl.loginAccountFailures, rl.loginWindowS);
  if (!state.allowed) throw rateLimitError(state);
  const stored = await repo.passwordHashOf(deps.db, auth.userId);
  if (!stored || !(await verifyPassword(stored, input.current_password))) {
    await deps.limiter.consume(key, rl.loginAccountFailures, rl.loginWindowS);
    await recordActivity(deps.db, actor, deps.clock.now(), { action: 'user.password_change_failed', resourceType: 'user', resourceId: auth.userId });
    throw new AppError('bad_request', 'Current password is incorrect');
  }
  const passwordHash = await hashPassword(input.new_password);
  const now = deps.clock.now();
  return changeIdentity(deps, async (trx) => {
    await repo.setPasswordHash(trx, auth.userId, passwordHash, now);
    const revoked = await revokeUserTokens(trx, auth.userId, now, 'password changed', { exceptTokenId: auth.tokenId });
    await repo.closeUserTokens(trx, auth.userId, now, 'password_reset');
    await recordActivity(trx, actor, now, {
      action: 'user.password_change',
      resourceType: 'user',
      resourceId: auth.userId,
      details: { revoked_tokens: revoked },
    });
    return revoked;
  });
}

/**
 * POST /api/auth/password-reset (public): when the e-mail belongs to an active account, stores a
 * one-hour reset token (earlier open ones are closed) and e-mails the link in the background; the
 * answer and its timing are the same for an unknown e-mail. Rate limited per IP and per e-mail.
 * @throws 429 over a limit, 503 when the shared rate-limit store is down
 */
export async function requestPasswordReset(deps: AppDeps, actor: Actor, emailInput: string): Promise<void> {
  const email = emailInput.trim().toLowerCase();
  const { ipMax, emailMax, windowS } = deps.config.passwordReset;
  const byIp = await deps.limiter.consume(`pwreset:ip:${actor.ip}`, ipMax, windowS, { failClosed: true });
  if (!byIp.allowed) throw rateLimitError(byIp);
  const byEmail = await deps.limiter.consume(`pwreset:email:${email}`, emailMax, windowS, { failClosed: true });
  if (!byEmail.allowed) throw rateLimitError(byEmail);

  const account = await findUserByEmail(deps.db, email);
  const now = deps.clock.now();
  if (!account || account.status !== 'active') {
    await recordActivity(deps.db, actor, now, {
      action: 'auth.password_reset_request',
      resourceType: 'user',
      agencyId: account?.agency_id ?? null,
      userId: null,
      userName: email.slice(0, 254),
      details: { sent: false },
    });
    return;
  }
  const token = newToken();
  const expiresAt = addSeconds(now, RESET_TTL_S);
  await deps.db.transaction().execute(async (trx) => {
    await repo.closeUserTokens(trx, account.id, now, 'password_reset');
    await repo.insertUserToken(trx, { userId: account.id, purpose: 'password_reset', tokenHash: hashToken(token), createdAt: now, expiresAt, createdBy: null });
    await recordActivity(trx, actor, now, {
      action: 'auth.password_reset_request',
      resourceType: 'user',
      resourceId: account.id,
      agencyId: account.agency_id,
      userId: account.id,
      userName: account.name,
      details: { sent: true },
    });
  });
  // Not awaited: the response time must not tell whether a message went out.
  deps.mailer.sendLater(passwordResetMail({ to: account.email, name: account.name, publicUrl: deps.config.mail.publicUrl, token, expiresAt }));
}

/**
 * Redeems a single-use token (invitation or password reset) with a new password: checks it,
 * hashes the password, then consumes the token in one statement inside a transaction (so it works
 * once even under concurrency) and lets `apply` write the account change and its activity entry.
 * @param requiredStatus the account status the token is valid for
 * @throws 400 with `message` for a malformed, unknown, used or expired token or another status
 */
export async function redeemUserToken(
  deps: AppDeps,
  purpose: 'invitation' | 'password_reset',
  requiredStatus: 'active' | 'invited',
  input: { token: string; password: string },
  message: string,
  apply: (trx: Transaction<Database>, user: UserRow, passwordHash: string, now: Date) => Promise<void>,
): Promise<void> {
  const invalid = () => new AppError('bad_request', message);
  if (!isTokenShaped(input.token)) throw invalid();
  const tokenHash = hashToken(input.token);
  if (!(await repo.findOpenUserToken(deps.db, tokenHash, purpose, deps.clock.now()))) throw invalid();
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    const userId = await repo.consumeUserToken(trx, tokenHash, purpose, now);
    const user = userId === undefined ? undefined : await repo.findUserById(trx, userId);
    if (!user || user.status !== requiredStatus) throw invalid();
    await repo.closeUserTokens(trx, user.id, now, purpose);
    await apply(trx, user, passwordHash, now);
  });
}

/**
 * POST /api/auth/password-reset/confirm (public): sets the new password, consumes the token
 * (single use even under concurrency) and revokes every token and session of the user.
 * @throws 400 'Invalid or expired reset token' (unknown, used, expired, or account not active)
 */
export function confirmPasswordReset(deps: AppDeps, actor: Actor, input: { token: string; new_password: string }): Promise<void> {
  const body = { token: input.token, password: input.new_password };
  return redeemUserToken(deps, 'password_reset', 'active', body, 'Invalid or expired reset token', async (trx, user, passwordHash, now) => {
    await repo.setPasswordHash(trx, user.id, passwordHash, now);
    const revoked = await revokeUserTokens(trx, user.id, now, 'password reset');
    await recordActivity(trx, actor, now, {
      action: 'auth.password_reset',
      resourceType: 'user',
      resourceId: user.id,
      agencyId: user.agency_id,
      userId: user.id,
      userName: user.name,
      details: { revoked_tokens: revoked },
    });
  });
}
