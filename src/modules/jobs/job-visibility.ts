/**
 * Who sees which jobs (issue "Jobs" item 4): SysOps all; an agency admin or API account its
 * agency's; an agent its branch's and those of branches of the agency that share; a contractor
 * only jobs assigned to it; a tenant only jobs it reported or at its addresses. Outside that a job
 * does not exist for the caller (404).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import type { Value } from '../../db/prepared.ts';

/** Which jobs a caller sees; `Id` is a number, or a parameter of a prepared statement standing for one. */
export type JobScope<Id extends Value<number> = number> =
  | { kind: 'all' }
  | { kind: 'agency'; agencyId: Id }
  | { kind: 'branch'; agencyId: Id; branchId: Id }
  | { kind: 'contractor'; contractorId: Id }
  | { kind: 'tenant'; tenantId: Id; userId: Id }
  | { kind: 'none' };

/** The caller's job scope, from role and links. */
export function jobScope(auth: AuthContext): JobScope {
  if (auth.roleCode === 'sysops') return { kind: 'all' };
  if (auth.contractorId !== null) return { kind: 'contractor', contractorId: auth.contractorId };
  if (auth.tenantId !== null) return { kind: 'tenant', tenantId: auth.tenantId, userId: auth.userId };
  if (auth.agencyId === null) return { kind: 'none' };
  if (auth.roleCode === 'agent' || (auth.branchId !== null && auth.level < 80 && auth.roleCode !== 'api')) {
    if (auth.branchId === null) return { kind: 'none' };
    return { kind: 'branch', agencyId: auth.agencyId, branchId: auth.branchId };
  }
  return { kind: 'agency', agencyId: auth.agencyId };
}

/**
 * A where-clause over table alias `j` (jobs) limiting rows to the scope; use as
 * `.where((eb) => visibleTo(eb, scope))`. The one place of the visibility rule, the branch
 * sharing included (the money module's moneyVisible uses it too).
 */
export function visibleTo(eb: ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>, scope: JobScope<Value<number>>) {
  switch (scope.kind) {
    case 'all':
      return eb.lit(true);
    case 'agency':
      return eb('j.agency_id', '=', scope.agencyId);
    case 'branch':
      return eb.or([
        eb('j.branch_id', '=', scope.branchId),
        eb('j.branch_id', 'in', eb
          .selectFrom('branches as sb')
          .select('sb.id')
          .where('sb.agency_id', '=', scope.agencyId)
          .where('sb.sharing_enabled', '=', true)),
      ]);
    case 'contractor':
      return eb('j.contractor_id', '=', scope.contractorId);
    case 'tenant':
      return eb.or([
        eb('j.tenant_id', '=', scope.tenantId),
        eb('j.reported_by_user_id', '=', scope.userId),
        eb('j.address_id', 'in', eb.selectFrom('tenant_addresses as ta').select('ta.address_id').where('ta.tenant_id', '=', scope.tenantId)),
      ]);
    case 'none':
      return eb.lit(false);
  }
}

/** True when the caller may see internal fields (costs, internal notes): not tenants. */
export function seesInternalFields(scope: JobScope): boolean {
  return scope.kind !== 'tenant';
}
