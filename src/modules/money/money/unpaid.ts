/**
 * Unpaid invoice totals for the dashboard (docs/insight.md "Dashboard", docs/money.md
 * "Visibility"): invoices (not credit notes) that are issued, part paid or overdue, with what is
 * still owed on them (gross - paid - credited, pence), over the invoices the caller may open.
 * Drafts are not owed yet; paid and void invoices owe nothing.
 */
import type { AuthContext } from '../../../core/auth-context.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { moneyScope } from './access.ts';
import { unpaidTotals } from './invoices.repository.ts';

/** Statuses of an invoice that still has money outstanding. */
export const UNPAID_STATUSES = ['issued', 'part_paid', 'overdue'] as const;

/** Unpaid invoices in reach: count and outstanding pence, and the overdue part of both. */
export interface UnpaidInvoiceTotals {
  count: number;
  total_pence: number;
  overdue_count: number;
  overdue_pence: number;
}

/**
 * The caller's unpaid invoice totals, or undefined when the caller may not read invoices (no
 * `api.invoices.view`: tenants) or has no money scope. SysOps: every agency; agency admins and
 * API accounts: their agency; agents: jobs of their branch and sharing branches; contractors:
 * their own invoices (what the agency still owes them).
 * One aggregate over the (agency_id, status, id) index of invoices (invoices.repository.ts unpaidTotals).
 */
export async function unpaidInvoiceTotals(db: DbOrTrx, auth: AuthContext): Promise<UnpaidInvoiceTotals | undefined> {
  const scope = moneyScope(auth);
  if (scope.kind === 'none' || !auth.permissions.has('api.invoices.view')) return undefined;
  const row = await unpaidTotals(db, scope, UNPAID_STATUSES);
  // Sums are bigint (text on the wire) so that SysOps' total over every agency cannot overflow.
  return { count: row.count, total_pence: Number(row.total_pence), overdue_count: row.overdue_count, overdue_pence: Number(row.overdue_pence) };
}
