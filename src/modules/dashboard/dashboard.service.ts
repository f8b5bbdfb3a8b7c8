/**
 * Dashboard figures (docs/insight.md "Dashboard"): for the caller's reach (jobScope: SysOps all,
 * an agency, a branch with sharing branches, a contractor's or a tenant's own jobs), counted in
 * SQL in one scan of the visible jobs, plus the optional sections of dashboard.sections.ts.
 */
import type { AppDeps } from '../../app-deps.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { addDays, londonDate, londonToUtc } from '../calendar/london-time.ts';
import { jobScope } from '../jobs/job-visibility.ts';
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
 * @returns DashboardDto; sla and unpaid_invoices only when a section provides them
 */
export async function dashboard(deps: AppDeps, auth: AuthContext): Promise<DashboardDto> {
  const scope = jobScope(auth);
  const w = dashboardWindows(deps.clock.now());
  const groups = await repo.jobGroups(deps.db, scope, w);
  const byStatus = new Map<number, { status_id: number; code: string; name: string; count: number }>();
  const byPriority = new Map<number, number>();
  const out: DashboardDto = {
    scope: scope.kind,
    generated_at: w.now.toISOString(),
    today: w.today,
    open_jobs: { total: 0, by_status: [], by_priority: [] },
    new_jobs: { today: 0, this_week: 0 },
    visits: { overdue: 0, today: 0, tomorrow: 0 },
  };
  for (const g of groups) {
    out.new_jobs.today += g.new_today;
    out.new_jobs.this_week += g.new_week;
    out.visits.overdue += g.overdue;
    out.visits.today += g.visits_today;
    out.visits.tomorrow += g.visits_tomorrow;
    if (!g.is_open) continue;
    out.open_jobs.total += g.n;
    const s = byStatus.get(g.status_id) ?? { status_id: g.status_id, code: g.code, name: g.name, count: 0 };
    s.count += g.n;
    byStatus.set(g.status_id, s);
    byPriority.set(g.priority, (byPriority.get(g.priority) ?? 0) + g.n);
  }
  out.open_jobs.by_status = [...byStatus.values()];
  out.open_jobs.by_priority = [...byPriority.entries()].sort((a, b) => a[0] - b[0]).map(([priority, count]) => ({ priority, count }));
  if (scope.kind !== 'tenant' && scope.kind !== 'none') {
    out.certificates_expiring_30d = await repo.certificatesExpiring(deps.db, scope, w.today, addDays(w.today, 30));
  }
  for (const section of DASHBOARD_SECTIONS) {
    Object.assign(out, (await section(deps, { auth, scope, windows: w })) ?? {});
  }
  return out;
}
