/**
 * Extension point of the dashboard (docs/insight.md "Adding a figure"). Each section is one small
 * async function returning the fields it adds, or nothing when it has nothing for the caller; the
 * service merges the sections' results into the response. A figure whose source does not exist
 * yet has no section, so its field is absent (never zero).
 *
 * To add the SLA figures once the SLA engine lands: write
 *   `const slaSection: DashboardSection = async (deps, ctx) => ({ sla: { at_risk, breached } })`
 * counting only jobs matching `visibleTo(eb, ctx.scope)`, and append it to DASHBOARD_SECTIONS.
 * The unpaid invoices total (money module) is the same: `({ unpaid_invoices: { count, total_pence } })`.
 * Both fields are already declared (optional) in dashboard.schemas.ts.
 */
import type { AppDeps } from '../../app-deps.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import type { JobScope } from '../jobs/index.ts';
import type { DashboardWindows } from './dashboard.repository.ts';
import type { DashboardDto } from './dashboard.schemas.ts';

/** What a section receives: the caller, its job scope and the dashboard's time windows. */
export interface DashboardContext {
  auth: AuthContext;
  scope: JobScope;
  windows: DashboardWindows;
}

/** One block of optional dashboard fields. */
export type DashboardSection = (deps: AppDeps, ctx: DashboardContext) => Promise<Partial<DashboardDto> | undefined>;

/** Sections run after the core figures, in order; append new ones here. */
export const DASHBOARD_SECTIONS: DashboardSection[] = [];
