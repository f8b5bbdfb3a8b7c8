/**
 * Which agency's records a caller works on (docs/security.md promises 8 and 24): an agency account its
 * own agency; SysOps (no agency) read every agency but create nothing without an agency. Used by
 * the people areas (tenants, addresses, contractors, GDPR) and the administration.
 */
import type { AuthContext } from './auth-context.ts';
import { isSysOps } from './auth-context.ts';
import { forbidden } from './errors.ts';

/**
 * Agency id to filter reads by: null for SysOps (every agency), else the caller's agency (-1,
 * matching nothing, for an account without one).
 */
export function readAgency(auth: AuthContext): number | null {
  if (isSysOps(auth)) return null;
  return auth.agencyId ?? -1;
}

/**
 * The agency a new record belongs to.
 * @throws 403 for callers that belong to no agency (SysOps)
 */
export function writeAgency(auth: AuthContext): number {
  if (auth.agencyId === null) throw forbidden('This action needs an account of an agency');
  return auth.agencyId;
}

/** True when a record of `agencyId` is visible to the caller. */
export function sameAgency(auth: AuthContext, agencyId: number): boolean {
  return isSysOps(auth) || auth.agencyId === agencyId;
}
