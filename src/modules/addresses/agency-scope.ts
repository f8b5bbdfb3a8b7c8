/**
 * Which agency's records a caller works on, for the people areas (tenants, addresses,
 * contractors, GDPR): an agency account its own agency; SysOps (no agency) read every agency but
 * create nothing without an agency.
 */
import type { AuthContext } from '../../http/auth-context.ts';
import { isSysOps } from '../../http/auth-context.ts';
import { forbidden } from '../../http/errors.ts';

/** Agency id to filter reads by, or null for SysOps (every agency). */
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
