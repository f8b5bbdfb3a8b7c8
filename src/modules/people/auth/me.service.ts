/** The caller's own account view (GET /api/auth/me) and resolved permissions (spec 4.5). */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import * as repo from './auth.repository.ts';

/**
 * GET /api/auth/me: account, role, agency, branch and the current token's expiry.
 * @returns the Me shape of auth.schemas.ts (dates as ISO strings)
 */
export async function getMe(deps: AppDeps, auth: AuthContext) {
  const row = await repo.meRow(deps.db, auth.userId, auth.tokenId);
  return {
    uuid: row.uuid,
    name: auth.name,
    email: auth.email,
    role: auth.roleName,
    level: auth.level,
    agency_uuid: row.agency_uuid,
    agency_name: row.agency_name,
    branch_uuid: row.branch_uuid,
    branch_name: row.branch_name,
    session: { kind: row.kind, expires_at: new Date(row.expires_at).toISOString() },
  };
}

/**
 * GET /api/users/permissions (spec 4.5; docs/api.md "Decisions on the spec's gaps"): `{ user_uuid, role, level, permissions }` with
 * the keys sorted.
 */
export function resolvedPermissions(auth: AuthContext) {
  return {
    user_uuid: auth.userUuid,
    role: auth.roleName,
    level: auth.level,
    permissions: [...auth.permissions].sort(),
  };
}
