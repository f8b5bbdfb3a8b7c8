/**
 * Dashboard figures (docs/insight.md "Dashboard"): for the caller's reach (jobScope: SysOps all,
 * an agency, a branch with sharing branches, a contractor's or a tenant's own jobs), counted in
 * SQL by three index-served queries over the visible jobs, plus the optional sections of
 * dashboard.sections.ts.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import type { Db } from '../../../db/database.ts';
import { addDays, londonDate, londonToUtc } from '../../../lib/london-time.ts';
import { jobScope } from '../../jobs/jobs/index.ts';
import * as repo from './dashboard.repository.ts';
import type { DashboardDto } from './dashboard.schemas.ts';
import { DASHBOARD_SECTIONS } from './dashboard.sections.ts';

/** The London day and week windows around `now` (weeks start on Monday). */
export function dashboardWindows(now: Date): repo.DashboardWindows & { today: string } {
  const today = londonDate(now);
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return {
    now,
    today,
    todayStart: londonToUtc(today),
    tomorrowStart: londonToUtc(addDays(today, 1)),
    dayAfterStart: londonToUtc(addDays(today, 2)),
    weekStart: londonToUtc(addDays(today, -weekday)),
  };
}

/**
 * The dashboard of the caller. Its figures may lag: they are read on the read replica when there
 * is one and it is current enough (`deps.reads`, docs/operations.md "Read replicas").
 * @returns DashboardDto; sla and unpaid_invoices only when their section has figures for the caller
 */
export async function dashboard(deps: AppDeps, auth: AuthContext): Promise<DashboardDto> {
  return deps.reads.mayLag(auth.userId, (read) => dashboardOn(deps, auth, read));
}

/** The dashboard of the caller, its figures read from `read` (the replica or the primary). */
async function dashboardOn(deps: AppDeps, auth: AuthContext, read: Db): Promise<DashboardDto> {
  const scope = jobScope(auth);
  const w = dashboardWindows(deps.clock.now());
  const where = await repo.scopeFilter(read, scope);
  const ctx = { auth, scope, windows: w, where, read };
  const [groups, created, visits, statuses, extras] = await Promise.all([
    repo.openJobGroups(read, where),
    repo.newJobs(read, where, w),
    repo.visits(read, where, w),
    repo.statuses(read),
    Promise.all(DASHBOARD_SECTIONS.map((section) => section(deps, ctx))),
  ]);
  const out: DashboardDto = {
    scope: scope.kind,
    generated_at: w.now.toISOString(),
    today: w.today,
    open_jobs: { total: 0, by_status: [], by_priority: [] },
    new_jobs: { today: created.today, this_week: created.week },
    visits: { overdue: visits.overdue, today: visits.today, tomorrow: visits.tomorrow },
  };
  const byStatus = new Map<number, number>();
  const byPriority = new Map<number, number>();
  for (const g of groups) {
    out.open_jobs.total += g.n;
    byStatus.set(g.status_id, (byStatus.get(g.status_id) ?? 0) + g.n);
    byPriority.set(g.priority, (byPriority.get(g.priority) ?? 0) + g.n);
  }
  out.open_jobs.by_status = statuses.filter((s) => byStatus.has(s.id)).map((s) => ({ status_id: s.id, code: s.code, name: s.name, count: byStatus.get(s.id)! }));
  out.open_jobs.by_priority = [...byPriority.entries()].sort((a, b) => a[0] - b[0]).map(([priority, count]) => ({ priority, count }));
  if (scope.kind !== 'tenant' && scope.kind !== 'none') {
    out.certificates_expiring_30d = await repo.certificatesExpiring(read, scope, w.today, addDays(w.today, 30));
  }
  for (const extra of extras) Object.assign(out, extra ?? {});
  return out;
}
