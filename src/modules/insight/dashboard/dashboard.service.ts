/**
 * Dashboard figures (docs/insight.md "Dashboard"): for the caller's reach (jobScope: SysOps all,
 * an agency, a branch with sharing branches, a contractor's or a tenant's own jobs), counted in
 * SQL by three index-served queries over the visible jobs, plus the optional sections of
 * dashboard.sections.ts.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
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
 * The dashboard of the caller.
 * @returns DashboardDto; sla and unpaid_invoices only when their section has figures for the caller
 */
export async function dashboard(deps: AppDeps, auth: AuthContext): Promise<DashboardDto> {
  const scope = jobScope(auth);
  const w = dashboardWindows(deps.clock.now());
  const where = await repo.scopeFilter(deps.db, scope);
  const ctx = { auth, scope, windows: w, where };
  const [groups, created, visits, statuses, extras] = await Promise.all([
    repo.openJobGroups(deps.db, where),
    repo.newJobs(deps.db, where, w),
    repo.visits(deps.db, where, w),
    repo.statuses(deps.db),
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
    out.certificates_expiring_30d = await repo.certificatesExpiring(deps.db, scope, w.today, addDays(w.today, 30));
  }
  for (const extra of extras) Object.assign(out, extra ?? {});
  return out;
}
