/**
 * Job analytics (docs/insight.md "Analytics"): volumes, time to assign/attend/complete (median and
 * 90th percentile, elapsed seconds), first-time fix rate and agreed cost per job, by London week or
 * month and by branch, trade, contractor, job type or priority, over the jobs the caller may see.
 */
import type { AppDeps } from '../../app-deps.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { invalidParam } from '../../http/errors.ts';
import { addDays, daysBetween, londonToUtc } from '../../lib/london-time.ts';
import { jobScope } from '../jobs/index.ts';
import * as repo from './analytics.repository.ts';
import type { AnalyticsQueryInput, AnalyticsRowDto } from './analytics.schemas.ts';

/** Longest range in days. */
export const MAX_RANGE_DAYS = 731;

/** Wire shape of one repository row. */
export function toDto(r: repo.AnalyticsRow): AnalyticsRowDto {
  const num = (v: number | string | null) => (v === null ? null : Math.round(Number(v)));
  return {
    period: r.period,
    group: { key: r.gkey, label: r.glabel },
    created: r.created,
    completed: r.completed,
    cancelled: r.cancelled,
    time_to_assign: { median_s: num(r.assign_p50), p90_s: num(r.assign_p90), jobs: r.assign_n },
    time_to_attend: { median_s: num(r.attend_p50), p90_s: num(r.attend_p90), jobs: r.attend_n },
    time_to_complete: { median_s: num(r.complete_p50), p90_s: num(r.complete_p90), jobs: r.completed },
    first_time_fix_rate: r.completed === 0 ? null : r.first_time_fixed / r.completed,
    cost: {
      jobs: r.cost_n,
      total_pence: r.cost_total ?? 0,
      mean_pence: r.cost_n === 0 ? null : Math.round((r.cost_total ?? 0) / r.cost_n),
      median_pence: num(r.cost_median),
    },
  };
}

/**
 * One page of analytics rows, ordered by period then group label.
 * @returns rows and the number of (period, group) rows
 * @throws 400 naming to_date when it is before from_date or the range exceeds 731 days
 */
export async function jobAnalytics(deps: AppDeps, auth: AuthContext, q: AnalyticsQueryInput) {
  const days = daysBetween(q.from_date, q.to_date) + 1;
  if (days < 1 || days > MAX_RANGE_DAYS) throw invalidParam('to_date');
  const rows = await repo.jobAnalytics(deps.db, jobScope(auth), {
    from: londonToUtc(q.from_date),
    to: londonToUtc(addDays(q.to_date, 1)),
    interval: q.interval,
    groupBy: q.group_by,
    limit: q.limit,
    offset: q.offset,
  });
  return { rows: rows.map(toDto), total: rows[0]?.total ?? 0 };
}
