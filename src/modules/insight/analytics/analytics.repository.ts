/**
 * SQL of the job analytics (docs/insight.md "Analytics"): every figure is an aggregate computed
 * by PostgreSQL (percentile_cont, count/avg with FILTER), never a loop over rows in JavaScript.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { visibleTo, type JobScope } from '../../jobs/jobs/index.ts';

export type Interval = 'week' | 'month';
export type GroupBy = 'none' | 'branch' | 'trade' | 'contractor' | 'job_type' | 'priority';

/** Group key and label of each grouping, over the joins of `baseQuery`. */
const GROUPS: Record<GroupBy, { key: RawBuilder<string>; label: RawBuilder<string> }> = {
  none: { key: sql`'all'`, label: sql`'All jobs'` },
  branch: { key: sql`b.uuid::text`, label: sql`b.name` },
  trade: { key: sql`coalesce(tr.code, 'none')`, label: sql`coalesce(tr.name, 'No trade')` },
  contractor: { key: sql`coalesce(c.uuid::text, 'none')`, label: sql`coalesce(c.company_name, 'Unassigned')` },
  job_type: { key: sql`jt.code`, label: sql`jt.name` },
  priority: { key: sql`j.priority::text`, label: sql`'P' || j.priority::text` },
};

/** The visible, not deleted jobs with the columns the figures need and their group. */
function baseQuery(db: DbOrTrx, scope: JobScope, groupBy: GroupBy) {
  const g = GROUPS[groupBy];
  return db
    .selectFrom('jobs as j')
    .innerJoin('branches as b', 'b.id', 'j.branch_id')
    .innerJoin('job_types as jt', 'jt.id', 'j.job_type_id')
    .leftJoin('trades as tr', 'tr.id', 'j.trade_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .select([
      'j.id', 'j.created_at', 'j.assigned_at', 'j.attended_at', 'j.completed_at', 'j.cancelled_at', 'j.agreed_cost_pence',
      g.key.as('gkey'), g.label.as('glabel'),
    ]);
}

/** One row of the analytics: a period and group with its figures (seconds, pence, ratio 0..1). */
export interface AnalyticsRow {
  period: string;
  gkey: string;
  glabel: string;
  created: number;
  completed: number;
  cancelled: number;
  assign_p50: number | null;
  assign_p90: number | null;
  assign_n: number;
  attend_p50: number | null;
  attend_p90: number | null;
  attend_n: number;
  complete_p50: number | null;
  complete_p90: number | null;
  first_time_fixed: number;
  cost_n: number;
  cost_total: number | null;
  cost_median: number | null;
  total: number;
}

/**
 * The figures per (period, group) over [from, to), one page, with the number of (period, group)
 * rows. An event counts in the period (London week from Monday, or month) in which it happened:
 * created_at, assigned_at, attended_at, completed_at, cancelled_at. Times are elapsed seconds
 * from created_at. A completed job is a first-time fix when it entered `scheduled` at most once and
 * was never recalled (docs/tenant-reporting.md "Recalls").
 */
export async function jobAnalytics(
  db: DbOrTrx,
  scope: JobScope,
  q: { from: Date; to: Date; interval: Interval; groupBy: GroupBy; limit: number; offset: number },
): Promise<AnalyticsRow[]> {
  const base = baseQuery(db, scope, q.groupBy);
  const unit = sql.lit(q.interval);
  const period = (col: string) => sql`to_char(date_trunc(${unit}, ${sql.ref(col)} at time zone 'Europe/London'), 'YYYY-MM-DD')`;
  const inRange = (col: string) => sql`${sql.ref(col)} >= ${q.from} and ${sql.ref(col)} < ${q.to}`;
  const secs = (col: string) => sql`extract(epoch from (${sql.ref(col)} - base.created_at))::float8`;
  const result = await sql<AnalyticsRow>`
    with base as (select * from (${base}) as x),
    ev as (
      select ${period('base.created_at')} as period, gkey, glabel, 'created' as k, null::float8 as secs, null::int as cost, null::boolean as ftf
        from base where ${inRange('base.created_at')}
      union all
      select ${period('base.assigned_at')}, gkey, glabel, 'assigned', ${secs('base.assigned_at')}, null, null
        from base where ${inRange('base.assigned_at')}
      union all
      select ${period('base.attended_at')}, gkey, glabel, 'attended', ${secs('base.attended_at')}, null, null
        from base where ${inRange('base.attended_at')}
      union all
      select ${period('base.completed_at')}, gkey, glabel, 'completed', ${secs('base.completed_at')}, base.agreed_cost_pence,
        (select count(*) from job_status_history h where h.job_id = base.id and h.to_status_id = 5) <= 1
          and not exists (select 1 from job_recalls rc where rc.original_job_id = base.id)
        from base where ${inRange('base.completed_at')}
      union all
      select ${period('base.cancelled_at')}, gkey, glabel, 'cancelled', null, null, null
        from base where ${inRange('base.cancelled_at')}
    )
    select period, gkey, glabel,
      (count(*) filter (where k = 'created'))::int as created,
      (count(*) filter (where k = 'completed'))::int as completed,
      (count(*) filter (where k = 'cancelled'))::int as cancelled,
      percentile_cont(0.5) within group (order by secs) filter (where k = 'assigned') as assign_p50,
      percentile_cont(0.9) within group (order by secs) filter (where k = 'assigned') as assign_p90,
      (count(*) filter (where k = 'assigned'))::int as assign_n,
      percentile_cont(0.5) within group (order by secs) filter (where k = 'attended') as attend_p50,
      percentile_cont(0.9) within group (order by secs) filter (where k = 'attended') as attend_p90,
      (count(*) filter (where k = 'attended'))::int as attend_n,
      percentile_cont(0.5) within group (order by secs) filter (where k = 'completed') as complete_p50,
      percentile_cont(0.9) within group (order by secs) filter (where k = 'completed') as complete_p90,
      (count(*) filter (where k = 'completed' and ftf))::int as first_time_fixed,
      (count(cost) filter (where k = 'completed'))::int as cost_n,
      (sum(cost) filter (where k = 'completed'))::int as cost_total,
      percentile_cont(0.5) within group (order by cost) filter (where k = 'completed') as cost_median,
      (count(*) over ())::int as total
    from ev
    group by period, gkey, glabel
    order by period, glabel, gkey
    limit ${q.limit} offset ${q.offset}
  `.execute(db);
  return result.rows;
}

/** One contractor's scorecard row (seconds, pence, counts; rates are computed by the service). */
export interface ScorecardRow {
  contractor_uuid: string;
  company_name: string;
  jobs: number;
  response_median_s: number | string | null;
  responded: number;
  visits_due: number;
  visits_on_slot: number;
  no_shows: number;
  no_access: number;
  completed: number;
  first_time_fixed: number;
  recalls: number;
  ratings: number;
  rating_mean: number | string | null;
  cost_n: number;
  cost_total: number | null;
  sla_met: number;
  sla_breached: number;
}

/**
 * Per contractor of the agency (null: every agency; one contractor when given), over its visible,
 * not deleted jobs created in [from, to): the median seconds from assignment to acceptance
 * (response), booked visits due and those attended on the booked London date within the slot's
 * hours (attendance), completed jobs and first-time fixes (scheduled at most once and never
 * recalled), recalls raised against its jobs, survey ratings (count, mean), agreed cost of
 * completed jobs in pence and SLA clocks met or breached. A booked visit is due once attended or
 * once its date (London) has passed without the job being cancelled first; a visit the contractor
 * missed (no-show) is due and not on the slot, one the tenant missed (no access) is counted apart
 * and not held against the contractor (docs/tenant-reporting.md "Booking the visit").
 */
export async function contractorScorecards(
  db: DbOrTrx,
  scope: JobScope,
  q: { agencyId: number | null; contractorId?: number | undefined; from: Date; to: Date; today: string },
): Promise<ScorecardRow[]> {
  let jobs = db
    .selectFrom('jobs as j')
    .leftJoin('job_time_ranges as tmr', 'tmr.id', 'j.time_range_id')
    .where('j.deleted_at', 'is', null)
    .where('j.contractor_id', 'is not', null)
    .where('j.created_at', '>=', q.from)
    .where('j.created_at', '<', q.to)
    .where((eb) => visibleTo(eb, scope))
    .select([
      'j.id', 'j.contractor_id', 'j.assigned_at', 'j.contractor_accepted_at', 'j.scheduled_for', 'j.attended_at', 'j.completed_at', 'j.cancelled_at',
      'j.agreed_cost_pence', 'tmr.starts_at', 'tmr.ends_at',
    ]);
  // Only the jobs of the contractors scored below: the outer join drops the others anyway.
  if (q.contractorId !== undefined) jobs = jobs.where('j.contractor_id', '=', q.contractorId);
  else if (q.agencyId !== null) jobs = jobs.where('j.contractor_id', 'in', db.selectFrom('contractors as jc').select('jc.id').where('jc.agency_id', '=', q.agencyId));
  // One pass over each job's history, recalls, SLA clocks and missed visits (grouped by job and
  // joined), not a subquery per job and figure (docs/insight.md "Contractor scorecards: cost").
  const result = await sql<ScorecardRow>`
    with jj as materialized (${jobs}),
    hist as (
      select h.job_id, count(*) as scheduled from jj join job_status_history h on h.job_id = jj.id
      where h.to_status_id = 5 group by h.job_id
    ),
    rec as (
      select rc.original_job_id as job_id, count(*)::int as n from jj join job_recalls rc on rc.original_job_id = jj.id
      group by rc.original_job_id
    ),
    sla as (
      select k.job_id, (count(*) filter (where k.state = 'met'))::int as met, (count(*) filter (where k.state = 'breached'))::int as breached
      from jj join sla_clocks k on k.job_id = jj.id
      where k.state in ('met', 'breached') group by k.job_id
    ),
    vis as (
      select v.job_id, (count(*) filter (where v.missed_by = 'contractor'))::int as no_shows, (count(*) filter (where v.missed_by = 'tenant'))::int as no_access
      from jj join job_visits v on v.job_id = jj.id
      where v.state = 'missed' group by v.job_id
    ),
    per as (
      select jj.*,
        (jj.scheduled_for at time zone 'UTC')::date as visit_date,
        (jj.attended_at at time zone 'Europe/London') as attended_local,
        coalesce(hist.scheduled, 0) <= 1 and rec.job_id is null as ftf,
        coalesce(rec.n, 0) as recalls,
        s.rating,
        coalesce(sla.met, 0) as sla_met,
        coalesce(sla.breached, 0) as sla_breached,
        coalesce(vis.no_shows, 0) as no_shows,
        coalesce(vis.no_access, 0) as no_access
      from jj
      left join hist on hist.job_id = jj.id
      left join rec on rec.job_id = jj.id
      left join sla on sla.job_id = jj.id
      left join vis on vis.job_id = jj.id
      left join job_surveys s on s.job_id = jj.id and s.rating is not null
    )
    select c.uuid as contractor_uuid, c.company_name,
      count(per.id)::int as jobs,
      percentile_cont(0.5) within group (order by extract(epoch from (per.contractor_accepted_at - per.assigned_at)))
        filter (where per.contractor_accepted_at is not null and per.assigned_at is not null) as response_median_s,
      (count(*) filter (where per.contractor_accepted_at is not null and per.assigned_at is not null))::int as responded,
      (count(*) filter (where per.scheduled_for is not null and (per.attended_at is not null
        or (per.visit_date < ${q.today}::date and (per.cancelled_at is null or (per.cancelled_at at time zone 'Europe/London')::date > per.visit_date)))))::int
        + coalesce(sum(per.no_shows), 0)::int as visits_due,
      (count(*) filter (where per.scheduled_for is not null and per.attended_at is not null and per.attended_local::date = per.visit_date
        and (per.starts_at is null or to_char(per.attended_local, 'HH24:MI') >= per.starts_at)
        and (per.ends_at is null or to_char(per.attended_local, 'HH24:MI') <= per.ends_at)))::int as visits_on_slot,
      coalesce(sum(per.no_shows), 0)::int as no_shows,
      coalesce(sum(per.no_access), 0)::int as no_access,
      (count(*) filter (where per.completed_at is not null))::int as completed,
      (count(*) filter (where per.completed_at is not null and per.ftf))::int as first_time_fixed,
      coalesce(sum(per.recalls), 0)::int as recalls,
      count(per.rating)::int as ratings,
      avg(per.rating) as rating_mean,
      (count(per.agreed_cost_pence) filter (where per.completed_at is not null))::int as cost_n,
      (sum(per.agreed_cost_pence) filter (where per.completed_at is not null))::int as cost_total,
      coalesce(sum(per.sla_met), 0)::int as sla_met,
      coalesce(sum(per.sla_breached), 0)::int as sla_breached
    from contractors c
    left join per on per.contractor_id = c.id
    where true
      ${q.agencyId !== null ? sql`and c.agency_id = ${q.agencyId}` : sql``}
      ${q.contractorId !== undefined ? sql`and c.id = ${q.contractorId}` : sql``}
    group by c.id, c.uuid, c.company_name
    order by c.company_name, c.id
  `.execute(db);
  return result.rows;
}

/** One flow's guided reports in [from, to): counts per outcome (advice = deflected). */
export interface DeflectionRow {
  flow_code: string;
  flow_name: string;
  reports: number;
  deflected: number;
  emergencies: number;
  jobs: number;
  added_to_job: number;
}

/** Guided reports of the agency (null: every agency) in [from, to) per flow, by the flow's current name. */
export async function deflections(db: DbOrTrx, agencyId: number | null, from: Date, to: Date): Promise<DeflectionRow[]> {
  const result = await sql<DeflectionRow>`
    select f.code as flow_code, f.name as flow_name,
      count(*)::int as reports,
      (count(*) filter (where r.outcome = 'advice'))::int as deflected,
      (count(*) filter (where r.outcome = 'emergency'))::int as emergencies,
      (count(*) filter (where r.outcome = 'job'))::int as jobs,
      (count(*) filter (where r.outcome = 'added_to_job'))::int as added_to_job
    from tenant_reports r
    join triage_flows f on f.id = r.flow_id
    where r.created_at >= ${from} and r.created_at < ${to}
      ${agencyId !== null ? sql`and r.agency_id = ${agencyId}` : sql``}
    group by f.id, f.code, f.name, f.position
    order by f.position, f.name
  `.execute(db);
  return result.rows;
}
