/**
 * Job analytics (docs/insight.md "Analytics"): volumes, time to assign/attend/complete (median and
 * 90th percentile, elapsed seconds), first-time fix rate and agreed cost per job, by London week or
 * month and by branch, trade, contractor, job type or priority, over the jobs the caller may see.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { addDays, daysBetween, londonDate, londonToUtc } from '../../../lib/london-time.ts';
import { findContractorRef } from '../../people/contractors/index.ts';
import { jobScope } from '../../jobs/jobs/index.ts';
import * as repo from './analytics.repository.ts';
import type { AnalyticsQueryInput, AnalyticsRowDto, RangeQueryInput, ScorecardDto } from './analytics.schemas.ts';

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

/** The range of a scorecard or deflection query: [from, to) in UTC and the London dates. @throws 400 to_date */
function rangeOf(deps: AppDeps, q: RangeQueryInput) {
  const toDate = q.to_date ?? londonDate(deps.clock.now());
  const fromDate = q.from_date ?? addDays(toDate, -89);
  const days = daysBetween(fromDate, toDate) + 1;
  if (days < 1 || days > MAX_RANGE_DAYS) throw invalidParam('to_date');
  return { fromDate, toDate, from: londonToUtc(fromDate), to: londonToUtc(addDays(toDate, 1)) };
}

const rate = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

function toScorecard(r: repo.ScorecardRow, range: { fromDate: string; toDate: string }): ScorecardDto {
  return {
    contractor_uuid: r.contractor_uuid, company_name: r.company_name, from_date: range.fromDate, to_date: range.toDate, jobs: r.jobs,
    response: { median_s: r.response_median_s === null ? null : Math.round(Number(r.response_median_s)), jobs: r.responded },
    attendance: { visits_due: r.visits_due, on_slot: r.visits_on_slot, rate: rate(r.visits_on_slot, r.visits_due), no_shows: r.no_shows, tenant_no_access: r.no_access },
    first_time_fix: { completed: r.completed, fixed_first_time: r.first_time_fixed, recalls: r.recalls, rate: rate(r.first_time_fixed, r.completed) },
    rating: { surveys: r.ratings, average: r.rating_mean === null ? null : Math.round(Number(r.rating_mean) * 100) / 100 },
    cost: { jobs: r.cost_n, total_pence: r.cost_total ?? 0, mean_pence: r.cost_n === 0 ? null : Math.round((r.cost_total ?? 0) / r.cost_n) },
    sla: { met: r.sla_met, breached: r.sla_breached, compliance: rate(r.sla_met, r.sla_met + r.sla_breached) },
  };
}

/**
 * GET /api/analytics/contractors: the scorecard of every contractor of the caller's agency over
 * its jobs the caller may see created in the range (docs/tenant-reporting.md "Scorecards").
 * @throws 400 naming to_date when before from_date or over 731 days
 */
export async function contractorScorecards(deps: AppDeps, auth: AuthContext, q: RangeQueryInput): Promise<ScorecardDto[]> {
  const range = rangeOf(deps, q);
  const rows = await repo.contractorScorecards(deps.db, jobScope(auth), { agencyId: readAgency(auth), from: range.from, to: range.to, today: londonDate(deps.clock.now()) });
  return rows.map((r) => toScorecard(r, range));
}

/**
 * GET /api/contractors/{uuid}/scorecard: one contractor's scorecard.
 * @throws 404 'Contractor not found' (another agency's too), 400 to_date
 */
export async function contractorScorecard(deps: AppDeps, auth: AuthContext, uuid: string, q: RangeQueryInput): Promise<ScorecardDto> {
  const range = rangeOf(deps, q);
  const c = await findContractorRef(deps.db, uuid, readAgency(auth));
  if (!c) throw notFound('Contractor');
  const [row] = await repo.contractorScorecards(deps.db, jobScope(auth), { agencyId: c.agency_id, contractorId: c.id, from: range.from, to: range.to, today: londonDate(deps.clock.now()) });
  return toScorecard(row!, range);
}

/**
 * GET /api/analytics/deflections: guided reports per flow in the range and how many self-help
 * advice settled without a job (docs/tenant-reporting.md "Deflections").
 * @throws 400 naming to_date
 */
export async function reportDeflections(deps: AppDeps, auth: AuthContext, q: RangeQueryInput) {
  const range = rangeOf(deps, q);
  const rows = await repo.deflections(deps.db, readAgency(auth), range.from, range.to);
  return rows.map((r) => ({ ...r, deflection_rate: rate(r.deflected, r.reports) }));
}
