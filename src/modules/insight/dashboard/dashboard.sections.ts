/**
 * Extension point of the dashboard (docs/insight.md "Adding a figure"). Each section is one small
 * async function returning the fields it adds, or nothing when it has nothing for the caller; the
 * service merges the sections' results into the response. A figure whose source does not exist
 * yet has no section, so its field is absent (never zero).
 *
 * The SLA section (sla: at_risk and breached open jobs, from the SLA engine's stored clock
 * states) is for everyone but tenants; the unpaid invoices section (money module) for callers
 * who may read invoices (not tenants; a contractor its own invoices). Both count only within the
 * caller's reach.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { unpaidInvoiceTotals } from '../../money/money/index.ts';
import { complianceTotals } from '../../jobs/compliance/index.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import type { Db } from '../../../db/database.ts';
import type { JobScope } from '../../jobs/jobs/index.ts';
import { slaCounts, type DashboardWindows, type ScopeWhere } from './dashboard.repository.ts';
import type { DashboardDto } from './dashboard.schemas.ts';

/** What a section receives: the caller, its job scope (and as a where-clause) and the dashboard's time windows. */
export interface DashboardContext {
  auth: AuthContext;
  scope: JobScope;
  windows: DashboardWindows;
  where: ScopeWhere;
  /**
   * Where a section's figures are read: the read replica when there is one and it is current
   * enough, else the primary (docs/operations.md "Read replicas"). It refuses writes: a section that
   * writes first uses `deps.db`, the primary.
   */
  read: Db;
}

/** One block of optional dashboard fields. */
export type DashboardSection = (deps: AppDeps, ctx: DashboardContext) => Promise<Partial<DashboardDto> | undefined>;

/**
 * `sla: { at_risk, breached }`: open jobs of the caller's reach whose most urgent SLA clock is
 * at risk / breached (docs/sla.md states, as stored by the engine and its scan). Absent for
 * tenants: the SLA is the agency's promise measured against its contractors, not a tenant's view.
 */
export const slaSection: DashboardSection = async (deps, ctx) => {
  if (ctx.scope.kind === 'tenant' || ctx.scope.kind === 'none') return undefined;
  const counts = await slaCounts(ctx.read, ctx.scope, ctx.where);
  return { sla: { at_risk: counts.at_risk, breached: counts.breached } };
};

/**
 * `unpaid_invoices: { count, total_pence, overdue_count, overdue_pence }`: issued, part-paid and
 * overdue invoices in the caller's money reach and what is still owed on them (pence). Absent
 * for callers without `api.invoices.view` (tenants).
 */
export const unpaidInvoicesSection: DashboardSection = async (deps, ctx) => {
  const totals = await unpaidInvoiceTotals(ctx.read, ctx.auth);
  return totals ? { unpaid_invoices: totals } : undefined;
};

/**
 * `compliance: { valid, due_soon, expired, missing, non_compliant }`: compliance items of the properties of the
 * caller's agency per status today (docs/compliance.md). Absent for contractors and tenants. On the
 * primary (`deps.db`), not `ctx.read`: the register derives its items (writes) before counting.
 */
export const complianceSection: DashboardSection = async (deps, ctx) => {
  if (ctx.scope.kind === 'tenant' || ctx.scope.kind === 'contractor' || ctx.scope.kind === 'none') return undefined;
  return { compliance: await complianceTotals(deps, ctx.auth) };
};

/** Sections run after the core figures, in order; append new ones here. */
export const DASHBOARD_SECTIONS: DashboardSection[] = [slaSection, unpaidInvoicesSection, complianceSection];
