/**
 * SQL of the job analytics (docs/insight.md "Analytics"): every figure is an aggregate computed
 * by PostgreSQL (percentile_cont, count/avg with FILTER), never a loop over rows in JavaScript.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../../db/types.ts';
import { visibleTo, type JobScope } from '../jobs/index.ts';

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
 * from created_at. A completed job is a first-time fix when it entered `scheduled` at most once.
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
