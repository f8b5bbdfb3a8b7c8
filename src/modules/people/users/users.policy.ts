/**
 * Who may manage whom (docs/users.md; docs/security.md promises 8 to 10; docs/api.md "Permission keys"):
 * an agency administrator manages the users of their own agency only (another agency's user is
 * 404), only users whose role level is below their own, and only assigns roles below their own;
 * nobody changes their own role. SysOps see every agency but the level rule binds them too.
 * Every refused attempt is written to the activity log as `user.escalation_denied`.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { forbidden, notFound } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './users.repository.ts';
import type { UserRow } from './users.repository.ts';

/** The agency filter of the caller: undefined for SysOps (all), else their agency (-1 if none). */
export function agencyScope(auth: AuthContext): number | undefined {
  return isSysOps(auth) ? undefined : (auth.agencyId ?? -1);
}

/**
 * Loads a user the caller may see.
 * @throws 404 'User not found' when missing or of another agency
 */
export async function loadVisibleUser(deps: AppDeps, auth: AuthContext, uuid: string): Promise<UserRow> {
  const row = await repo.findUserByUuid(deps.db, uuid);
  const scope = agencyScope(auth);
  if (!row || (scope !== undefined && row.agency_id !== scope)) throw notFound('User');
  return row;
}

/**
 * Logs a refused escalation attempt (outside any transaction, so it stays) and throws 403.
 * @param reason short code: target_level, role_level, own_role, self_disable
 */
export async function refuse(
  deps: AppDeps,
  actor: Actor,
  target: { id: number; agency_id: number | null } | null,
  reason: string,
  message: string,
  details: Record<string, unknown> = {},
): Promise<never> {
  await recordActivity(deps.db, actor, deps.clock.now(), {
    action: 'user.escalation_denied',
    resourceType: 'user',
    resourceId: target?.id ?? null,
    agencyId: target ? target.agency_id : (actor.auth?.agencyId ?? null),
    details: { reason, ...details },
  });
  throw forbidden(message);
}

/**
 * Refuses (403, logged) to act on a user whose role level is at or above the caller's, unless
 * the user is the caller and `allowSelf` is set.
 */
export async function assertManageable(
  deps: AppDeps,
  actor: Actor & { auth: AuthContext },
  target: UserRow,
  operation: string,
  allowSelf: boolean,
): Promise<void> {
  const self = target.id === actor.auth.userId;
  if (self && allowSelf) return;
  if (self || target.level >= actor.auth.level) {
    await refuse(deps, actor, target, 'target_level', 'You cannot manage a user whose role is at or above your own level', {
      operation,
      target_level: target.level,
      own_level: actor.auth.level,
    });
  }
}

/**
 * Refuses (403, logged as user.escalation_denied) to assign a role whose level is at or above the
 * caller's, or that holds a permission key the caller lacks (docs/security.md promises 10 and 25).
 */
export async function assertAssignable(
  deps: AppDeps,
  actor: Actor & { auth: AuthContext },
  target: { id: number; agency_id: number | null } | null,
  role: { id: number; code: string; level: number },
  operation: string,
): Promise<void> {
  if (role.level >= actor.auth.level) {
    await refuse(deps, actor, target, 'role_level', 'You cannot assign a role at or above your own level', {
      operation,
      role: role.code,
      role_level: role.level,
      own_level: actor.auth.level,
    });
  }
  // docs/security.md promise 25: a role holding a key the caller lacks would be a side door to it.
  const unheld = (await repo.roleKeys(deps.db, role.id)).filter((k) => !actor.auth.permissions.has(k));
  if (unheld.length > 0) {
    await refuse(deps, actor, target, 'unheld_keys', `You cannot assign a role holding permission keys you do not hold: ${unheld.join(', ')}`, {
      operation,
      role: role.code,
      keys: unheld,
    });
  }
}
