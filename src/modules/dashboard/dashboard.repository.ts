/** SQL of the dashboard (docs/insight.md "Dashboard"). Scope rules come from the jobs module. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/types.ts';
import { visibleTo, type JobScope } from '../jobs/job-visibility.ts';

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

/**
 * One scan of the visible jobs grouped by (status, priority), each group carrying the windowed
 * counts; the service rolls the at most 55 groups up.
 */
export function jobGroups(db: DbOrTrx, scope: JobScope, w: DashboardWindows) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .groupBy(['j.status_id', 's.code', 's.name', 's.is_open', 's.sort_order', 'j.priority'])
    .select([
      'j.status_id', 's.code', 's.name', 's.is_open', 's.sort_order', 'j.priority',
      sql<number>`count(*)::int`.as('n'),
      sql<number>`(count(*) filter (where j.created_at >= ${w.todayStart}))::int`.as('new_today'),
      sql<number>`(count(*) filter (where j.created_at >= ${w.weekStart}))::int`.as('new_week'),
      sql<number>`(count(*) filter (where j.scheduled_for < ${w.now} and j.attended_at is null
        and s.code in (${sql.join(AWAITING_VISIT.map((c) => sql.lit(c)))})))::int`.as('overdue'),
      sql<number>`(count(*) filter (where j.scheduled_for >= ${w.todayStart} and j.scheduled_for < ${w.tomorrowStart}
        and s.code <> 'cancelled'))::int`.as('visits_today'),
      sql<number>`(count(*) filter (where j.scheduled_for >= ${w.tomorrowStart} and j.scheduled_for < ${w.dayAfterStart}
        and s.code <> 'cancelled'))::int`.as('visits_tomorrow'),
    ])
    .orderBy('s.sort_order')
    .orderBy('j.priority')
    .execute();
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
