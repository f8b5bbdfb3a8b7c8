/**
 * Invitations (docs/users.md): a single-use token, stored as SHA-256 and valid 7 days, e-mailed
 * as a link; redeemed with a new password by POST /api/users/invitations/accept (public).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict } from '../../../core/errors.ts';
import { addSeconds, SECONDS } from '../../../lib/clock.ts';
import { hashToken, newToken } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { invitationMail } from '../../messaging/mail/index.ts';
import { redeemUserToken } from './password.service.ts';
import { assertManageable, loadVisibleUser } from './users.policy.ts';
import * as repo from './users.repository.ts';
import type { UserRow } from './users.repository.ts';

/** Lifetime of an invitation in seconds (7 days). */
export const INVITATION_TTL_S = 7 * SECONDS.day;

type Caller = Actor & { auth: AuthContext };

/**
 * Creates an invitation token for a user inside the caller's transaction, closing earlier open
 * invitations, and logs `user.invite`.
 * @returns the raw token (to be e-mailed, never stored) and its expiry
 */
export async function issueInvitation(trx: DbOrTrx, caller: Caller, user: { id: number; agency_id: number | null }, now: Date) {
  const token = newToken();
  const expiresAt = addSeconds(now, INVITATION_TTL_S);
  await repo.closeUserTokens(trx, user.id, now, 'invitation');
  await repo.insertUserToken(trx, { userId: user.id, purpose: 'invitation', tokenHash: hashToken(token), createdAt: now, expiresAt, createdBy: caller.auth.userId });
  await recordActivity(trx, caller, now, {
    action: 'user.invite',
    resourceType: 'user',
    resourceId: user.id,
    agencyId: user.agency_id,
    details: { expires_at: expiresAt.toISOString() },
  });
  return { token, expiresAt };
}

/**
 * E-mails an invitation. A refused send is logged (without the token) and reported as false, so
 * the caller can answer that the account exists but the invitation must be sent again.
 */
export async function sendInvitation(deps: AppDeps, caller: Caller, user: UserRow, invitation: { token: string; expiresAt: Date }): Promise<boolean> {
  const message = invitationMail({
    to: user.email,
    name: user.name,
    agencyName: user.agency_name,
    inviterName: caller.auth.name,
    publicUrl: deps.config.mail.publicUrl,
    token: invitation.token,
    expiresAt: invitation.expiresAt,
  });
  try {
    await deps.mailer.send(message);
    return true;
  } catch {
    return false;
  }
}

/**
 * POST /api/users/{uuid}/invite: sends a fresh invitation to a user who has not accepted one yet
 * (earlier invitation links stop working).
 * @returns whether the e-mail was accepted by the transport
 * @throws 403 (target at or above the caller's level; logged), 404, 409 (accepted already or disabled)
 */
export async function reinvite(deps: AppDeps, caller: Caller, uuid: string): Promise<boolean> {
  const target = await loadVisibleUser(deps, caller.auth, uuid);
  await assertManageable(deps, caller, target, 'invite', false);
  if (target.status === 'disabled') throw conflict('User is disabled');
  if (target.status !== 'invited') throw conflict('User has already accepted an invitation');
  const now = deps.clock.now();
  const invitation = await deps.db.transaction().execute((trx) => issueInvitation(trx, caller, target, now));
  return sendInvitation(deps, caller, target, invitation);
}

/**
 * POST /api/users/invitations/accept (public): sets the password of an invited account and makes
 * it active; the token is consumed in one statement, so it works once even under concurrency.
 * @throws 400 'Invalid or expired invitation token' (unknown, used, expired, or account disabled)
 */
export function acceptInvitation(deps: AppDeps, actor: Actor, input: { token: string; password: string }): Promise<void> {
  return redeemUserToken(deps, 'invitation', 'invited', input, 'Invalid or expired invitation token', async (trx, user, passwordHash, now) => {
    await repo.setPasswordHash(trx, user.id, passwordHash, now, true);
    await recordActivity(trx, actor, now, {
      action: 'user.invitation_accept',
      resourceType: 'user',
      resourceId: user.id,
      agencyId: user.agency_id,
      userId: user.id,
      userName: user.name,
    });
  });
}
