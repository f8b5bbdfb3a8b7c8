/**
 * SQL of the dashboard (docs/insight.md "Dashboard"). Three small queries, each served by an
 * index of migration 0700 or earlier: open jobs by (status, priority) from the
 * (agency|branch, status_id, priority) indexes; new jobs from the (agency|branch, created_at)
 * ones, over this week only; visits from the (agency|branch, scheduled_for) ones.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { visibleTo, type JobScope } from '../../jobs/jobs/index.ts';

/** Instants bounding the dashboard's windows (London days, Monday-based week). */
export interface DashboardWindows {
  now: Date;
  todayStart: Date;
  tomorrowStart: Date;
  dayAfterStart: Date;
  weekStart: Date;
}

/** Statuses whose visit is still to happen: an earlier scheduled_for makes the visit overdue. */
export const AWAITING_VISIT = ['assigned', 'scheduled'] as const;

type J = ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>;
/** The caller's scope as a where-clause over jobs alias `j` (scopeFilter). */
export type ScopeWhere = (eb: J) => ReturnType<typeof visibleTo>;

/**
 * The scope as a where-clause. For a branch scope the sharing branches are resolved first (the
 * same rule as visibleTo: own branch or a sharing branch of the agency) so that
 * `branch_id in (...)` lets the branch indexes serve the counts; other scopes use visibleTo.
 */
export async function scopeFilter(db: DbOrTrx, scope: JobScope): Promise<ScopeWhere> {
  if (scope.kind !== 'branch') return (eb) => visibleTo(eb, scope);
  const sharing = await db.selectFrom('branches').select('id').where('agency_id', '=', scope.agencyId).where('sharing_enabled', '=', true).execute();
  const ids = [...new Set([scope.branchId, ...sharing.map((b) => b.id)])];
  return (eb) => eb.and([eb('j.agency_id', '=', scope.agencyId), eb('j.branch_id', 'in', ids)]);
}

/** Statuses of jobs whose work is done, though still open for the money (docs/insight.md "Dashboard"): Completed (7) and Invoiced (8). */
const WORK_DONE_STATUS_IDS = [7, 8];

/** Open jobs with work still to do (status is_open, not Completed nor Invoiced) counted by status and priority. */
export function openJobGroups(db: DbOrTrx, where: ScopeWhere) {
  return db
    .selectFrom('jobs as j')
    .where('j.deleted_at', 'is', null)
    .where(where)
    .where('j.status_id', 'in', (eb) => eb.selectFrom('job_statuses').select('id').where('is_open', '=', true))
    .where('j.status_id', 'not in', WORK_DONE_STATUS_IDS)
    .groupBy(['j.status_id', 'j.priority'])
    .select(['j.status_id', 'j.priority', sql<number>`count(*)::int`.as('n')])
    .execute();
}

/** Jobs created since the start of the week, and since the start of today. */
export function newJobs(db: DbOrTrx, where: ScopeWhere, w: DashboardWindows) {
  return db
    .selectFrom('jobs as j')
    .where('j.deleted_at', 'is', null)
    .where(where)
    .where('j.created_at', '>=', w.weekStart)
    .select([
      sql<number>`count(*)::int`.as('week'),
      sql<number>`(count(*) filter (where j.created_at >= ${w.todayStart}))::int`.as('today'),
    ])
    .executeTakeFirstOrThrow();
}

/**
 * Visits: overdue (assigned or scheduled, scheduled_for passed, not attended), today's and
 * tomorrow's (not cancelled).
 */
export function visits(db: DbOrTrx, where: ScopeWhere, w: DashboardWindows) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .where('j.deleted_at', 'is', null)
    .where(where)
    .where('j.scheduled_for', 'is not', null)
    .where('j.scheduled_for', '<', w.dayAfterStart)
    .where((eb) => eb.or([
      eb('j.scheduled_for', '>=', w.todayStart),
      eb.and([eb('j.attended_at', 'is', null), eb('s.code', 'in', [...AWAITING_VISIT])]),
    ]))
    .select([
      sql<number>`(count(*) filter (where j.scheduled_for < ${w.now} and j.attended_at is null
        and s.code in (${sql.join(AWAITING_VISIT.map((c) => sql.lit(c)))})))::int`.as('overdue'),
      sql<number>`(count(*) filter (where j.scheduled_for >= ${w.todayStart} and j.scheduled_for < ${w.tomorrowStart}
        and s.code <> 'cancelled'))::int`.as('today'),
      sql<number>`(count(*) filter (where j.scheduled_for >= ${w.tomorrowStart} and s.code <> 'cancelled'))::int`.as('tomorrow'),
    ])
    .executeTakeFirstOrThrow();
}

/**
 * SLA figures from the engine's stored clock states (docs/sla.md): of the open, visible jobs,
 * those with a `breached` clock, and those with an `at_risk` clock but none breached (the order
 * of the jobs list's `sla_state`: breached before at risk). Each job counts once, so
 * at_risk + breached <= open_jobs.total. The flagged clocks are read once from their partial
 * index (agency_id, state, job_id), grouped per job, bounded by the agency when the scope has one
 * (a clock's agency is its job's), and joined with the visible open jobs.
 */
export function slaCounts(db: DbOrTrx, scope: JobScope, where: ScopeWhere) {
  let flagged = db
    .selectFrom('sla_clocks as f')
    .where('f.state', 'in', ['at_risk', 'breached'])
    .groupBy('f.job_id')
    .select(['f.job_id', sql<boolean>`bool_or(f.state = 'breached')`.as('breached')]);
  if (scope.kind === 'agency' || scope.kind === 'branch') flagged = flagged.where('f.agency_id', '=', scope.agencyId);
  return db
    .selectFrom('jobs as j')
    .innerJoin(flagged.as('t'), 't.job_id', 'j.id')
    .where('j.deleted_at', 'is', null)
    // The scope clause reads only alias `j`; the join with `t` does not change what it means.
    .where((eb) => where(eb as unknown as Parameters<ScopeWhere>[0]))
    .where('j.status_id', 'in', (eb) => eb.selectFrom('job_statuses').select('id').where('is_open', '=', true))
    .select([
      sql<number>`(count(*) filter (where t.breached))::int`.as('breached'),
      sql<number>`(count(*) filter (where not t.breached))::int`.as('at_risk'),
    ])
    .executeTakeFirstOrThrow();
}

/** Statuses with code and name, in their display order. */
export function statuses(db: DbOrTrx) {
  return db.selectFrom('job_statuses').select(['id', 'code', 'name', 'sort_order']).orderBy('sort_order').execute();
}

/**
 * Live certificates (not deleted) expiring in [fromDate, toDate] (ISO dates) of the contractors
 * the scope may open: an agency's (or every agency's for SysOps), or the contractor's own.
 */
export async function certificatesExpiring(db: DbOrTrx, scope: JobScope, fromDate: string, toDate: string): Promise<number> {
  let q = db
    .selectFrom('contractor_certifications as cc')
    .where('cc.deleted_at', 'is', null)
    .where('cc.expires_on', '>=', fromDate)
    .where('cc.expires_on', '<=', toDate);
  if (scope.kind === 'agency' || scope.kind === 'branch') q = q.where('cc.agency_id', '=', scope.agencyId);
  else if (scope.kind === 'contractor') q = q.where('cc.contractor_id', '=', scope.contractorId);
  else if (scope.kind !== 'all') return 0;
  const row = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}
