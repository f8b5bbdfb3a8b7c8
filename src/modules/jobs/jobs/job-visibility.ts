/**
 * Who sees which jobs (issue "Jobs" item 4): SysOps all; an agency admin or API account its
 * agency's; an agent its branch's and those of branches of the agency that share; a contractor
 * only jobs assigned to it; a tenant only jobs it reported or at its addresses; a landlord login only
 * the jobs at the properties its landlord owns a share of. Outside that a job
 * does not exist for the caller (404). The same rule as SQL is `visibleTo` in jobs.repository.ts.
 */
import type { AuthContext } from '../../../core/auth-context.ts';
import type { Value } from '../../../db/prepared.ts';

/** Which jobs a caller sees; `Id` is a number, or a parameter of a prepared statement standing for one. */
export type JobScope<Id extends Value<number> = number> =
  | { kind: 'all' }
  | { kind: 'agency'; agencyId: Id }
  | { kind: 'branch'; agencyId: Id; branchId: Id }
  | { kind: 'contractor'; contractorId: Id }
  | { kind: 'tenant'; tenantId: Id; userId: Id }
  | { kind: 'landlord'; landlordId: Id }
  | { kind: 'none' };

/** The caller's job scope, from role and links. */
export function jobScope(auth: AuthContext): JobScope {
  if (auth.roleCode === 'sysops') return { kind: 'all' };
  if (auth.contractorId !== null) return { kind: 'contractor', contractorId: auth.contractorId };
  if (auth.tenantId !== null) return { kind: 'tenant', tenantId: auth.tenantId, userId: auth.userId };
  // A landlord login: the jobs at the properties its landlord record owns a share of (docs/landlords.md "Landlord logins").
  if (auth.landlordId !== null) return { kind: 'landlord', landlordId: auth.landlordId };
  if (auth.agencyId === null) return { kind: 'none' };
  if (auth.roleCode === 'agent' || (auth.branchId !== null && auth.level < 80 && auth.roleCode !== 'api')) {
    if (auth.branchId === null) return { kind: 'none' };
    return { kind: 'branch', agencyId: auth.agencyId, branchId: auth.branchId };
  }
  return { kind: 'agency', agencyId: auth.agencyId };
}

/** True when the caller may see internal fields (costs, internal notes): not tenants. */
export function seesInternalFields(scope: JobScope): boolean {
  return scope.kind !== 'tenant';
}
