/** SQL for jobs (spec 4.16; docs/jobs.md). Scope rules come from job-visibility.ts; no other rules here. */
import { sql, type Expression, type ExpressionBuilder, type InsertQueryBuilder, type InsertResult, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Database, JobTable, NewJob } from '../../db/schema.ts';
import type { DbOrTrx } from '../../db/types.ts';
import { QueryTemplates, slot } from '../../db/query-templates.ts';
import { visibleTo, type JobScope } from './job-visibility.ts';
import { jobSlaColumns, jobSlaState } from '../sla/index.ts';

type JobUpdate = Updateable<JobTable>;

/**
 * Base query: jobs (alias `j`) joined with status `s`, type `jt`, branch `b`, address `ad`,
 * tenant `te` and contractor `c`, limited to the scope and to jobs not soft-deleted.
 * Signature kept stable for other modules (notes, documents, calendar).
 */
export function jobsQuery(db: DbOrTrx, scope: JobScope) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .innerJoin('job_types as jt', 'jt.id', 'j.job_type_id')
    .innerJoin('branches as b', 'b.id', 'j.branch_id')
    .leftJoin('addresses as ad', 'ad.id', 'j.address_id')
    .leftJoin('tenants as te', 'te.id', 'j.tenant_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope));
}

/** jobsQuery plus trade `tr`, time range `tmr` and owning agent `ag`: what the wire shape needs. */
export function jobDetailQuery(db: DbOrTrx, scope: JobScope) {
  return jobsQuery(db, scope)
    .leftJoin('trades as tr', 'tr.id', 'j.trade_id')
    .leftJoin('job_time_ranges as tmr', 'tmr.id', 'j.time_range_id')
    .leftJoin('users as ag', 'ag.id', 'j.agent_user_id')
    .select((eb) => jobSlaColumns(eb));
}

/** Columns available on jobsQuery alone (kept for other modules). */
export const JOB_COLUMNS = [
  'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 'j.status_id', 's.name as status',
  'j.job_type_id', 'jt.name as job_type', 'b.uuid as branch_uuid', 'b.name as branch_name',
  'ad.uuid as address_uuid', 'ad.postcode', 'te.uuid as tenant_uuid', 'c.uuid as contractor_uuid',
  'j.estimated_cost_pence', 'j.agreed_cost_pence', 'j.currency', 'j.created_at', 'j.updated_at',
  'j.scheduled_for', 'j.completed_at',
] as const;

/** Columns of the full wire shape (jobDetailQuery). */
export const JOB_DETAIL_COLUMNS = [
  'j.id', 'j.uuid', 'j.agency_id', 'j.branch_id', 'j.reference', 'j.title', 'j.description', 'j.priority',
  'j.status_id', 's.name as status', 's.is_open', 'j.on_hold_from_status_id',
  'j.job_type_id', 'jt.name as job_type', 'j.trade_id', 'tr.name as trade',
  'b.uuid as branch_uuid', 'b.name as branch_name',
  'ad.uuid as address_uuid', 'ad.line1 as address_line1', 'ad.line2 as address_line2', 'ad.town', 'ad.postcode',
  'j.tenant_id', 'te.uuid as tenant_uuid', 'te.name as tenant_name', 'j.reported_by_user_id',
  'j.contractor_id', 'c.uuid as contractor_uuid', 'c.company_name as contractor_name', 'j.contractor_accepted_at',
  'ag.uuid as agent_uuid', 'ag.name as agent_name', 'j.time_range_id', 'tmr.range_label as time_range',
  'j.estimated_cost_pence', 'j.agreed_cost_pence', 'j.currency', 'j.created_at', 'j.updated_at',
  'j.approved_at', 'j.assigned_at', 'j.scheduled_for', 'j.attended_at', 'j.completed_at', 'j.invoiced_at',
  'j.closed_at', 'j.cancelled_at',
] as const;

export type JobRow = NonNullable<Awaited<ReturnType<typeof findJobById>>>;

/** Filters of the list (ids already resolved from uuids; -1 matches nothing). */
export interface JobFilter {
  statusId?: number;
  jobTypeId?: number;
  priority?: number;
  branchId?: number;
  contractorId?: number;
  tenantId?: number;
  agentUserId?: number;
  /** created_at >= from */
  from?: Date;
  /** created_at < to */
  to?: Date;
  /** ILIKE pattern, already escaped and wrapped in %...% */
  pattern?: string;
  /** state of the job's most urgent SLA clock (docs/sla.md) */
  slaState?: string;
  sort: 'created_at' | 'updated_at' | 'priority' | 'scheduled_for';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/**
 * Runs `fn` with the planner keeping the written join order (`join_collapse_limit = 1`, scoped
 * to a transaction). The job detail query joins ten tables; searching their orders cost about
 * 11 ms of planning per request on PostgreSQL against under 1 ms of execution, and the written
 * order (jobs first, then the tables it points at) is the one the planner picks anyway.
 */
export async function inWrittenJoinOrder<T>(db: DbOrTrx, fn: (q: DbOrTrx) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    await sql`set local join_collapse_limit = 1`.execute(db);
    try {
      return await fn(db);
    } finally {
      await sql`set local join_collapse_limit to default`.execute(db);
    }
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local join_collapse_limit = 1`.execute(trx);
    return fn(trx);
  });
}

/** The list filters as one where-clause over alias `j` (jobs columns only). */
export function matchesFilter(eb: ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>, f: JobFilter) {
  const conds: Expression<SqlBool>[] = [];
  if (f.statusId !== undefined) conds.push(eb('j.status_id', '=', f.statusId));
  if (f.jobTypeId !== undefined) conds.push(eb('j.job_type_id', '=', f.jobTypeId));
  if (f.priority !== undefined) conds.push(eb('j.priority', '=', f.priority));
  if (f.branchId !== undefined) conds.push(eb('j.branch_id', '=', f.branchId));
  if (f.contractorId !== undefined) conds.push(eb('j.contractor_id', '=', f.contractorId));
  if (f.tenantId !== undefined) conds.push(eb('j.tenant_id', '=', f.tenantId));
  if (f.agentUserId !== undefined) conds.push(eb('j.agent_user_id', '=', f.agentUserId));
  if (f.from !== undefined) conds.push(eb('j.created_at', '>=', f.from));
  if (f.to !== undefined) conds.push(eb('j.created_at', '<', f.to));
  if (f.slaState !== undefined) conds.push(eb(jobSlaState(eb), '=', f.slaState));
  if (f.pattern !== undefined) {
    const p = f.pattern;
    conds.push(eb.or([eb('j.reference', 'ilike', p), eb('j.title', 'ilike', p), eb('j.description', 'ilike', p)]));
  }
  return eb.and(conds);
}

/** One visible job by id, or undefined. */
export function findJobById(db: DbOrTrx, scope: JobScope, id: number) {
  return inWrittenJoinOrder(db, (q) => jobDetailQuery(q, scope).select(JOB_DETAIL_COLUMNS).where('j.id', '=', id).executeTakeFirst());
}

const byIdTemplates = new QueryTemplates(1);

/**
 * Any job by id (not deleted), whatever the scope, or undefined: findJobById for the `all` scope.
 * On PostgreSQL (`postgres` true) it runs as one named prepared statement, compiled once per
 * process and planned once per connection, so it needs no SET LOCAL around it (the ten-table join
 * costs about 11 ms to plan from scratch); in a write's transaction that saves two round trips.
 * On PGlite it is findJobById.
 */
export async function findAnyJobById(db: DbOrTrx, id: number, postgres: boolean): Promise<JobRow | undefined> {
  if (!postgres) return findJobById(db, { kind: 'all' }, id);
  const [row] = await byIdTemplates.rows(db, undefined, 'job_by_id', () => jobDetailQuery(db, { kind: 'all' }).select(JOB_DETAIL_COLUMNS).where('j.id', '=', slot<number>('id')), { id });
  return row;
}

/** One visible job by uuid, or undefined. */
export function findJobByUuid(db: DbOrTrx, scope: JobScope, uuid: string) {
  return inWrittenJoinOrder(db, (q) => jobDetailQuery(q, scope).select(JOB_DETAIL_COLUMNS).where('j.uuid', '=', uuid).executeTakeFirst());
}

/** Locks a job row for the rest of the transaction and returns its current state. */
export function lockJob(trx: DbOrTrx, id: number) {
  return trx
    .selectFrom('jobs')
    .select(['id', 'uuid', 'reference', 'agency_id', 'branch_id', 'status_id', 'on_hold_from_status_id', 'contractor_id', 'trade_id', 'tenant_id', 'reported_by_user_id', 'contractor_accepted_at', 'deleted_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}
export type LockedJob = Awaited<ReturnType<typeof lockJob>>;

/**
 * Sets fields of a job only while it is still in `expectedStatus` (compare-and-set).
 * @returns true when the row was updated
 */
export async function updateJobIfStatus(db: DbOrTrx, id: number, expectedStatus: number, set: JobUpdate): Promise<boolean> {
  const r = await db.updateTable('jobs').set(set).where('id', '=', id).where('status_id', '=', expectedStatus).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Sets fields of a job (the caller holds its row lock and has checked the rules). */
export async function updateJobFields(db: DbOrTrx, id: number, set: JobUpdate): Promise<void> {
  await db.updateTable('jobs').set(set).where('id', '=', id).execute();
}

/** An address by id: its id and branch (the caller has resolved the agency). */
export function findAddressBranch(db: DbOrTrx, id: number) {
  return db.selectFrom('addresses').select(['id', 'branch_id']).where('id', '=', id).executeTakeFirst();
}

/** Appends a history row. */
export async function insertHistory(db: DbOrTrx, row: { jobId: number; from: number | null; to: number; byUserId: number | null; note: string | null; at: Date }) {
  await db
    .insertInto('job_status_history')
    .values({ job_id: row.jobId, from_status_id: row.from, to_status_id: row.to, by_user_id: row.byUserId, note: row.note, created_at: row.at })
    .execute();
}

/** A page of a job's history, oldest first, and the total. */
export async function listHistory(db: DbOrTrx, jobId: number, page: { limit: number; offset: number }) {
  const base = db.selectFrom('job_status_history as h').where('h.job_id', '=', jobId);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('job_statuses as fs', 'fs.id', 'h.from_status_id')
      .innerJoin('job_statuses as ts', 'ts.id', 'h.to_status_id')
      .leftJoin('users as u', 'u.id', 'h.by_user_id')
      .select(['h.id', 'h.from_status_id', 'fs.name as from_status', 'h.to_status_id', 'ts.name as to_status', 'u.uuid as by_user_uuid', 'u.name as by_user_name', 'h.note', 'h.created_at'])
      .orderBy('h.created_at', 'asc')
      .orderBy('h.id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/**
 * Gives a job its reference from the agency's `job_reference` counter in one statement (the
 * counter row's upsert and the job's update), as `formatReference` writes it: JOB- and the number
 * padded to six digits, and writes the job's creation event (given the reference as an SQL
 * expression) in the same statement. The counter row stays locked until the caller's transaction
 * ends, so callers take it last, and then wait on each other for the commit only (docs/jobs.md:
 * references have no gaps).
 * @param event the outbox insert (the events module's outboxInsert) given the reference
 * @returns the reference
 */
export async function assignReference(
  trx: DbOrTrx,
  jobId: number,
  agencyId: number,
  event: (reference: RawBuilder<string>) => InsertQueryBuilder<Database, 'outbox', InsertResult>,
): Promise<string> {
  const row = await trx
    .with('c', (db) =>
      db
        .insertInto('agency_counters')
        .values({ agency_id: agencyId, name: 'job_reference', value: 1 })
        .onConflict((oc) => oc.columns(['agency_id', 'name']).doUpdateSet({ value: sql`agency_counters.value + 1` }))
        .returning('value'),
    )
    .with('u', (db) =>
      db
        .updateTable('jobs')
        .from('c')
        .set({ reference: sql<string>`'JOB-' || case when length(c.value::text) >= 6 then c.value::text else lpad(c.value::text, 6, '0') end` })
        .where('jobs.id', '=', jobId)
        .returning('jobs.reference'),
    )
    .with('o', () => event(sql<string>`(select reference from u)`))
    .selectFrom('u')
    .select('u.reference')
    .executeTakeFirstOrThrow();
  return row.reference;
}

/**
 * Inserts a new job, its first status-history row (from nothing to the job's status, at its
 * creation time) and its activity entry in one statement.
 * @param job the row (status_id and created_at are the history row's status and time)
 * @param byUserId the reporting user, or null
 * @param entry the activity entry's insert (the activity module's activityInsert) given the new
 *   job's id as an SQL expression
 * @param alsoRead an SQL value read by the same statement (what starting the job's SLA clocks
 *   needs: the SLA module's startInputsSql), so that it costs no statement of its own
 * @returns the new job's id and that value
 */
export async function insertJobWithHistory(
  db: DbOrTrx,
  job: NewJob & { status_id: number; created_at: Date },
  byUserId: number | null,
  entry: (jobId: RawBuilder<number>) => InsertQueryBuilder<Database, 'activity_log', InsertResult>,
  alsoRead: RawBuilder<unknown>,
): Promise<{ id: number; read: unknown }> {
  const row = await db
    .with('j', (q) => q.insertInto('jobs').values(job).returning('id'))
    .with('a', () => entry(sql<number>`(select id from j)`))
    .insertInto('job_status_history')
    .columns(['job_id', 'from_status_id', 'to_status_id', 'by_user_id', 'note', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('j')
        .select([
          'j.id',
          sql<null>`null::integer`.as('from_status_id'),
          sql<number>`${job.status_id}::integer`.as('to_status_id'),
          sql<number | null>`${byUserId}::integer`.as('by_user_id'),
          sql<null>`null::text`.as('note'),
          sql<Date>`${job.created_at}::timestamptz`.as('created_at'),
        ]),
    )
    .returning(['job_id', alsoRead.as('also_read')])
    .executeTakeFirstOrThrow();
  return { id: row.job_id, read: row.also_read };
}

/** Inserts a job; returns its id. */
export async function insertJob(db: DbOrTrx, job: NewJob): Promise<number> {
  const row = await db.insertInto('jobs').values(job).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A branch, tenant or contractor by uuid (any agency when agencyId is null): the owning modules' lookups. */
export { findBranchRef as findBranch } from '../admin/index.ts';
export { findTenantRef as findTenant } from '../tenants/index.ts';
export { findContractorRef as findContractor } from '../contractors/index.ts';

/** The open branches of an agency. */
export function openBranches(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('branches').select(['id', 'agency_id']).where('agency_id', '=', agencyId).where('closed_at', 'is', null).execute();
}

/** True when a row with this id exists in the lookup table. */
export async function lookupExists(db: DbOrTrx, table: 'job_types' | 'trades' | 'job_statuses', id: number): Promise<boolean> {
  return (await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** True when the job type id exists (used by other modules, e.g. SLA rules). */
export function jobTypeExists(db: DbOrTrx, id: number): Promise<boolean> {
  return lookupExists(db, 'job_types', id);
}

/**
 * The agency-scoped resolver of a time slot named in a body (docs/security.md promise 24): a live
 * global slot or one of the agency's own; another agency's slot answers like a missing one.
 */
export function findTimeRange(db: DbOrTrx, id: number, agencyId: number) {
  return db.selectFrom('job_time_ranges').select(['id']).where('id', '=', id).where('retired_at', 'is', null)
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)]))
    .executeTakeFirst();
}

/** An address of the agency by uuid. */
export function findAddress(db: DbOrTrx, uuid: string, agencyId: number) {
  return db.selectFrom('addresses').select(['id', 'branch_id']).where('uuid', '=', uuid).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** A user of the agency by uuid (any agency when agencyId is null). */
export function findUser(db: DbOrTrx, uuid: string, agencyId: number | null) {
  let q = db.selectFrom('users').select(['id']).where('uuid', '=', uuid);
  if (agencyId !== null) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** Address ids linked to a tenant. */
export async function tenantAddressIds(db: DbOrTrx, tenantId: number): Promise<number[]> {
  const rows = await db.selectFrom('tenant_addresses').select('address_id').where('tenant_id', '=', tenantId).execute();
  return rows.map((r) => r.address_id);
}

/** The agency of a tenant. */
export function tenantAgency(db: DbOrTrx, tenantId: number) {
  return db.selectFrom('tenants').select(['agency_id']).where('id', '=', tenantId).executeTakeFirst();
}

/** Every status with its flags, in sort order. */
export function listStatuses(db: DbOrTrx) {
  return db.selectFrom('job_statuses').select(['id', 'code', 'name', 'is_open']).orderBy('sort_order').orderBy('id').execute();
}

/** Every job type, by id. */
export function listJobTypes(db: DbOrTrx) {
  return db.selectFrom('job_types').select(['id', 'code', 'name']).orderBy('id').execute();
}
