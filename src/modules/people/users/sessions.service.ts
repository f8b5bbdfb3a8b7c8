/**
 * Sessions and tokens of an account (docs/users.md; docs/security.md promise 5): list the active ones
 * (kind, times, IP, user agent and the device read from it; never the token or its hash) and revoke them, for oneself or, by
 * an administrator, for a user below their level.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import { addSeconds } from '../../../lib/clock.ts';
import { deviceName } from '../../../lib/user-agent.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { revokeLogin, revokeUserTokens } from '../auth/index.ts';
import { LIFETIMES } from '../auth/index.ts';
import { assertManageable, loadVisibleUser } from './users.policy.ts';
import * as repo from './users.repository.ts';
import type { SessionDto } from './users.schemas.ts';

type Caller = Actor & { auth: AuthContext };
type Page = { limit: number; offset: number };

/** The active sessions of a user, newest first; `current` marks the token of this request. */
async function sessionsOf(deps: AppDeps, userId: number, currentTokenId: number, page: Page) {
  const now = deps.clock.now();
  const { rows, total } = await repo.listActiveTokens(deps.db, userId, now, addSeconds(now, -LIFETIMES.sessionIdle), page);
  const data: SessionDto[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    remember_me: r.remember_me,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: new Date(r.last_used_at).toISOString(),
    expires_at: new Date(r.expires_at).toISOString(),
    ip_address: r.ip_address,
    user_agent: r.user_agent,
    device: deviceName(r.user_agent),
    current: r.id === currentTokenId,
  }));
  return { rows: data, total };
}

/** Revokes tokens of a user with one activity entry in the same transaction; returns how many. */
async function revoke(
  deps: AppDeps,
  caller: Caller,
  target: { id: number; agency_id: number | null },
  scope: 'all' | 'others' | 'one',
  tokenId?: number,
): Promise<number> {
  const now = deps.clock.now();
  return changeIdentity(deps, async (trx) => {
    const revoked =
      scope === 'one'
        ? await revokeLogin(trx, tokenId!, now, 'revoked by the user')
        : await revokeUserTokens(trx, target.id, now, scope === 'all' ? 'revoked by an administrator' : 'signed out everywhere else', {
            ...(scope === 'others' ? { exceptTokenId: caller.auth.tokenId } : {}),
          });
    await recordActivity(trx, caller, now, {
      action: 'user.sessions_revoke',
      resourceType: 'user',
      resourceId: target.id,
      agencyId: target.agency_id,
      details: { scope, revoked, ...(tokenId !== undefined ? { session_id: tokenId } : {}) },
    });
    return revoked;
  });
}

/** GET /api/users/me/sessions: the caller's active sessions and tokens. */
export function listOwnSessions(deps: AppDeps, auth: AuthContext, page: Page) {
  return sessionsOf(deps, auth.userId, auth.tokenId, page);
}

/** DELETE /api/users/me/sessions: "sign out everywhere else"; returns how many were revoked. */
export function revokeOtherOwnSessions(deps: AppDeps, caller: Caller): Promise<number> {
  return revoke(deps, caller, { id: caller.auth.userId, agency_id: caller.auth.agencyId }, 'others');
}

/**
 * DELETE /api/users/me/sessions/{id}: revokes one of the caller's active sessions (the current one
 * too, which then works like a logout) together with the other token of the same login (a browser
 * login's session and bearer token end together, as at logout: docs/security.md "Logout"); returns
 * how many tokens were revoked.
 * @throws 404 'Session not found' when it is not an active session of the caller
 */
export async function revokeOwnSession(deps: AppDeps, caller: Caller, id: number): Promise<number> {
  const found = await repo.findActiveToken(deps.db, caller.auth.userId, id, deps.clock.now());
  if (!found) throw notFound('Session');
  return revoke(deps, caller, { id: caller.auth.userId, agency_id: caller.auth.agencyId }, 'one', id);
}

/**
 * GET /api/users/{uuid}/sessions: a user's active sessions (administrators; target below the
 * caller's level, or the caller).
 * @throws 403 (logged), 404
 */
export async function listUserSessions(deps: AppDeps, caller: Caller, uuid: string, page: Page) {
  const target = await loadVisibleUser(deps, caller.auth, uuid);
  await assertManageable(deps, caller, target, 'sessions_list', true);
  return sessionsOf(deps, target.id, caller.auth.tokenId, page);
}

/**
 * DELETE /api/users/{uuid}/sessions: revokes every active session and token of a user at once.
 * @throws 403 (logged), 404
 */
export async function revokeUserSessions(deps: AppDeps, caller: Caller, uuid: string): Promise<number> {
  const target = await loadVisibleUser(deps, caller.auth, uuid);
  await assertManageable(deps, caller, target, 'sessions_revoke', true);
  return revoke(deps, caller, target, 'all');
}
