/**
 * Who sees and writes money records (docs/money.md "Visibility"): SysOps every agency; agency
 * administrators and API accounts their agency's; agents the jobs of their branch and of sharing
 * branches (as the jobs module decides); a contractor only its own quotes and invoices; a landlord
 * login those of the jobs at its properties (read only); tenants
 * nothing (their role holds no money key: 403). Another agency's record answers 404.
 */
import type { ExpressionBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { forbidden } from '../../../core/errors.ts';
import { jobScope, visibleTo } from '../../jobs/jobs/index.ts';

export type MoneyScope =
  | { kind: 'all' }
  | { kind: 'agency'; agencyId: number }
  | { kind: 'branch'; agencyId: number; branchId: number }
  | { kind: 'contractor'; contractorId: number }
  | { kind: 'landlord'; landlordId: number }
  | { kind: 'none' };

/** The caller's money scope (from the job scope; tenants none). */
export function moneyScope(auth: AuthContext): MoneyScope {
  const s = jobScope(auth);
  if (s.kind === 'tenant') return { kind: 'none' };
  return s;
}

/**
 * A where-clause limiting money rows (alias `rowAlias`, with `contractor_id`) joined with their job
 * (alias `j`) to the scope: a contractor its own rows, everyone else the rows of the jobs it sees
 * (the jobs module's visibleTo, the one place of the branch-sharing rule).
 */
export function moneyVisible<DB extends Database & { j: Database['jobs'] }, TB extends keyof DB & string>(eb: ExpressionBuilder<DB, TB | 'j'>, scope: MoneyScope, rowAlias: TB) {
  if (scope.kind === 'contractor') return eb.eb(sql.ref(`${rowAlias}.contractor_id`), '=', scope.contractorId);
  return visibleTo(eb as unknown as ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>, scope);
}

/**
 * The agency whose settings and price list the caller manages.
 * @throws 403 for a caller of no agency (SysOps) or a contractor or tenant
 */
export function ownAgency(auth: AuthContext): number {
  if (auth.agencyId === null || auth.contractorId !== null || auth.tenantId !== null || auth.landlordId !== null) {
    throw forbidden('Price lists and money settings belong to an agency: sign in as one of its staff');
  }
  return auth.agencyId;
}

/** The agency whose records the caller reads: null for SysOps (every agency). */
export function readAgency(auth: AuthContext): number | null {
  return auth.roleCode === 'sysops' ? null : auth.agencyId;
}

