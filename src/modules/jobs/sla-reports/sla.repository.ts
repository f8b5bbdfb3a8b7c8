/**
 * SQL of the SLA read endpoints (docs/sla.md): the breaches list, the clocks of one job, the
 * compliance report and the agency settings. Visibility comes from the jobs module's `jobsQuery`
 * (the same scope as the jobs list); no rules here.
 */
import { sql, type RawBuilder } from 'kysely';
import type { SortDirection } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { jobsQuery, type JobScope } from '../jobs/index.ts';

/** Filters of the breaches list (ids resolved by the service). */
export interface BreachFilter {
  states: string[];
  branchId?: number;
  contractorId?: number;
  priority?: number;
  jobTypeId?: number;
  /** due_at >= from */
  from?: Date;
  /** due_at < to */
  to?: Date;
  order: SortDirection;
  limit: number;
  offset: number;
}

function clocksOfVisibleJobs(db: DbOrTrx, scope: JobScope) {
  return jobsQuery(db, scope)
    .innerJoin('sla_clocks as sc', 'sc.job_id', 'j.id')
    .innerJoin('branch_sla_rules as r', 'r.id', 'sc.rule_id');
}

/** One page of clocks of visible jobs matching the filter, by due_at (id breaks ties), and the total. */
export async function listBreaches(db: DbOrTrx, scope: JobScope, f: BreachFilter) {
  let q = clocksOfVisibleJobs(db, scope).where('sc.state', 'in', f.states);
  if (f.branchId !== undefined) q = q.where('j.branch_id', '=', f.branchId);
  if (f.contractorId !== undefined) q = q.where('j.contractor_id', '=', f.contractorId);
  if (f.priority !== undefined) q = q.where('j.priority', '=', f.priority);
  if (f.jobTypeId !== undefined) q = q.where('j.job_type_id', '=', f.jobTypeId);
  if (f.from !== undefined) q = q.where('sc.due_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('sc.due_at', '<', f.to);
  const [rows, total] = await Promise.all([
    q
      .select([
        'sc.id', 'sc.state', 'sc.started_at', 'sc.due_at', 'sc.at_risk_at', 'sc.stopped_at', 'sc.breached_at',
        'j.uuid as job_uuid', 'j.reference', 'j.title', 'j.priority', 'j.job_type_id', 'jt.name as job_type',
        's.name as status', 'b.uuid as branch_uuid', 'b.name as branch_name',
        'c.uuid as contractor_uuid', 'c.company_name as contractor_name',
        'r.uuid as rule_uuid', 'r.description as rule_description', 'r.calendar', 'r.minimum_response_days', 'r.response_hours',
      ])
      .orderBy('sc.due_at', f.order)
      .orderBy('sc.id', f.order)
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type BreachRow = Awaited<ReturnType<typeof listBreaches>>['rows'][number];

/** Every clock of one job with its rule, by due_at. */
export function listJobClocks(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('sla_clocks as sc')
    .innerJoin('branch_sla_rules as r', 'r.id', 'sc.rule_id')
    .select([
      'sc.id', 'sc.state', 'sc.started_at', 'sc.due_at', 'sc.at_risk_at', 'sc.stopped_at', 'sc.paused_seconds', 'sc.breached_at',
      'r.id as rule_id', 'r.uuid as rule_uuid', 'r.description', 'r.job_status_from_id', 'r.job_status_to_id', 'r.job_type_id',
      'r.job_priority', 'r.date_field_to_compare', 'r.date_field_to_track', 'r.minimum_response_days', 'r.response_hours', 'r.calendar',
      'r.deleted_at as rule_deleted_at',
    ])
    .where('sc.job_id', '=', jobId)
    .orderBy('sc.due_at')
    .orderBy('sc.id')
    .execute();
}

/** What the engine needs to count time left on one job: its dates, history and agency settings. */
export async function jobTiming(db: DbOrTrx, jobId: number) {
  const job = await db
    .selectFrom('jobs as j')
    .innerJoin('agencies as a', 'a.id', 'j.agency_id')
    .selectAll('j')
    .select(['a.uk_region', 'a.sla_at_risk_percent'])
    .where('j.id', '=', jobId)
    .executeTakeFirstOrThrow();
  const history = await db
    .selectFrom('job_status_history')
    .select(['to_status_id', 'created_at'])
    .where('job_id', '=', jobId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { job, history };
}

export const GROUPS = ['branch', 'contractor', 'job_type', 'priority'] as const;
export type ComplianceGroup = (typeof GROUPS)[number];

const GROUP_KEY: Record<ComplianceGroup, { key: RawBuilder<string | null>; name: RawBuilder<string | null> }> = {
  branch: { key: sql`b.uuid::text`, name: sql`b.name` },
  contractor: { key: sql`c.uuid::text`, name: sql`c.company_name` },
  job_type: { key: sql`jt.id::text`, name: sql`jt.name` },
  priority: { key: sql`j.priority::text`, name: sql`'Priority ' || j.priority::text` },
};

/**
 * Compliance per group over the clocks of visible jobs started in [from, to): met, breached,
 * still running (running, at_risk, paused) and the median minutes from start to stop of the
 * stopped ones; one page of groups by name, and the number of groups.
 */
export async function compliance(db: DbOrTrx, scope: JobScope, f: { group: ComplianceGroup; from: Date; to: Date; limit: number; offset: number }) {
  const g = GROUP_KEY[f.group];
  const grouped = clocksOfVisibleJobs(db, scope)
    .where('sc.state', '<>', 'not_applicable')
    .where('sc.started_at', '>=', f.from)
    .where('sc.started_at', '<', f.to)
    .select([
      g.key.as('group_key'),
      g.name.as('group_name'),
      sql<number>`count(*) filter (where sc.state = 'met')::int`.as('met'),
      sql<number>`count(*) filter (where sc.state = 'breached')::int`.as('breached'),
      sql<number>`count(*) filter (where sc.state in ('running', 'at_risk', 'paused'))::int`.as('running'),
      sql<string>`string_agg(distinct r.calendar, ',' order by r.calendar)`.as('calendars'),
      sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from sc.stopped_at - sc.started_at) / 60) filter (where sc.stopped_at is not null and sc.state in ('met', 'breached'))`.as('median_minutes'),
    ])
    .groupBy([g.key, g.name]);
  const [rows, total] = await Promise.all([
    db.selectFrom(grouped.as('g')).selectAll().orderBy('group_name').orderBy('group_key').limit(f.limit).offset(f.offset).execute(),
    db.selectFrom(grouped.as('g')).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** The SLA settings of an agency by id. */
export function agencySettings(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select(['id', 'uuid', 'name', 'uk_region', 'sla_at_risk_percent']).where('id', '=', agencyId).executeTakeFirst();
}

/** An agency by uuid (id only). */
export function agencyByUuid(db: DbOrTrx, uuid: string) {
  return db.selectFrom('agencies').select(['id']).where('uuid', '=', uuid).executeTakeFirst();
}

/** Replaces an agency's office hours with one row per open weekday (0 = Monday). */
export async function replaceOfficeHours(db: DbOrTrx, agencyId: number, days: Array<{ weekday: number; opens_minute: number; closes_minute: number }>, now: Date) {
  await db.deleteFrom('agency_office_hours').where('agency_id', '=', agencyId).execute();
  if (days.length) await db.insertInto('agency_office_hours').values(days.map((d) => ({ ...d, agency_id: agencyId, updated_at: now }))).execute();
}

/** Changes an agency's SLA settings. */
export async function updateAgencySettings(db: DbOrTrx, agencyId: number, set: { uk_region?: string; sla_at_risk_percent?: number }, now: Date) {
  await db.updateTable('agencies').set({ ...set, updated_at: now }).where('id', '=', agencyId).execute();
}
