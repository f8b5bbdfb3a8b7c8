/**
 * Unpaid invoice totals for the dashboard (docs/insight.md "Dashboard", docs/money.md
 * "Visibility"): invoices (not credit notes) that are issued, part paid or overdue, with what is
 * still owed on them (gross - paid - credited, pence), over the invoices the caller may open.
 * Drafts are not owed yet; paid and void invoices owe nothing.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../../http/auth-context.ts';
import type { DbOrTrx } from '../../db/types.ts';
import { moneyScope, moneyVisible } from './access.ts';

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
 * One aggregate over the (agency_id, status, id) index of invoices.
 */
export async function unpaidInvoiceTotals(db: DbOrTrx, auth: AuthContext): Promise<UnpaidInvoiceTotals | undefined> {
  const scope = moneyScope(auth);
  if (scope.kind === 'none' || !auth.permissions.has('api.invoices.view')) return undefined;
  const outstanding = sql`i.gross_pence - i.paid_pence - i.credited_pence`;
  let q = db
    .selectFrom('invoices as i')
    .innerJoin('jobs as j', 'j.id', 'i.job_id')
    .where('i.kind', '=', 'invoice')
    .where('i.status', 'in', [...UNPAID_STATUSES])
    .where((eb) => moneyVisible(eb, scope, 'i'));
  // The agency bound on invoices itself lets the (agency_id, status, id) index serve the count.
  if (scope.kind === 'agency' || scope.kind === 'branch') q = q.where('i.agency_id', '=', scope.agencyId);
  const row = await q
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<string>`coalesce(sum(${outstanding}), 0)::bigint`.as('total_pence'),
      sql<number>`(count(*) filter (where i.status = 'overdue'))::int`.as('overdue_count'),
      sql<string>`coalesce(sum(${outstanding}) filter (where i.status = 'overdue'), 0)::bigint`.as('overdue_pence'),
    ])
    .executeTakeFirstOrThrow();
  // Sums are bigint (text on the wire) so that SysOps' total over every agency cannot overflow.
  return { count: row.count, total_pence: Number(row.total_pence), overdue_count: row.overdue_count, overdue_pence: Number(row.overdue_pence) };
}
