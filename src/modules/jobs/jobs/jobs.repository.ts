/**
 * SQL for jobs (spec 4.16; docs/jobs.md), and who sees which jobs, the rule beside its SQL
 * (`jobScope`, `visibleTo`): SysOps all; an agency admin or API account its agency's; an agent its
 * branch's and those of branches of the agency that share; a contractor only jobs assigned to it;
 * a tenant only jobs it reported or at its addresses; a landlord login only the jobs at the
 * properties its landlord owns a share of. Outside that a job does not exist for the caller (404).
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool, type Updateable } from 'kysely';
import type { SortDirection } from '../../../db/sort-order.ts';
import type { Database, JobTable, NewJob } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { columnParams, PreparedQuery, type Params, type Value } from '../../../db/prepared.ts';
import { counterUpsert } from '../../../db/counters.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { jobSlaColumns, jobSlaState } from '../sla/index.ts';

type JobUpdate = Updateable<JobTable>;

/** Which jobs a caller sees; `Id` is a number, or a parameter of a prepared statement standing for one. */
export type JobScope<Id extends Value<number> = number> =
  | { kind: 'all' }
  | { kind: 'agency'; agencyId: Id }
  | { kind: 'branch'; agencyId: Id; branchId: Id }
  | { kind: 'contractor'; contractorId: Id }
  | { kind: 'tenant'; tenantId: Id; userId: Id }
  | { kind: 'landlord'; landlordId: Id }
  | { kind: 'none' };

/** The caller's job scope, from role and links. */
export function jobScope(auth: AuthContext): JobScope {
  if (auth.roleCode === 'sysops') return { kind: 'all' };
  if (auth.contractorId !== null) return { kind: 'contractor', contractorId: auth.contractorId };
  if (auth.tenantId !== null) return { kind: 'tenant', tenantId: auth.tenantId, userId: auth.userId };
  // A landlord login: the jobs at the properties its landlord record owns a share of (docs/landlords.md "Landlord logins").
  if (auth.landlordId !== null) return { kind: 'landlord', landlordId: auth.landlordId };
  if (auth.agencyId === null) return { kind: 'none' };
  if (auth.roleCode === 'agent' || (auth.branchId !== null && auth.level < 80 && auth.roleCode !== 'api')) {
    if (auth.branchId === null) return { kind: 'none' };
    return { kind: 'branch', agencyId: auth.agencyId, branchId: auth.branchId };
  }
  return { kind: 'agency', agencyId: auth.agencyId };
}

/** True when the caller may see internal fields (costs, internal notes): not tenants. */
export function seesInternalFields(scope: JobScope): boolean {
  return scope.kind !== 'tenant';
}

/**
 * A where-clause over table alias `j` (jobs) limiting rows to the scope; use as
 * `.where((eb) => visibleTo(eb, scope))`. The one place of the visibility rule, the branch
 * sharing included (the money module's moneyVisible uses it too).
 */
export function visibleTo(eb: ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>, scope: JobScope<Value<number>>) {
  switch (scope.kind) {
    case 'all':
      return eb.lit(true);
    case 'agency':
      return eb('j.agency_id', '=', scope.agencyId);
    case 'branch':
      return eb.or([
        eb('j.branch_id', '=', scope.branchId),
        eb('j.branch_id', 'in', eb
          .selectFrom('branches as sb')
          .select('sb.id')
          .where('sb.agency_id', '=', scope.agencyId)
          .where('sb.sharing_enabled', '=', true)),
      ]);
    case 'contractor':
      return eb('j.contractor_id', '=', scope.contractorId);
    case 'tenant':
      return eb.or([
        eb('j.tenant_id', '=', scope.tenantId),
        eb('j.reported_by_user_id', '=', scope.userId),
        eb('j.address_id', 'in', eb.selectFrom('tenant_addresses as ta').select('ta.address_id').where('ta.tenant_id', '=', scope.tenantId)),
      ]);
    case 'landlord':
      return eb('j.address_id', 'in', eb.selectFrom('landlord_properties as lp').select('lp.address_id').where('lp.landlord_id', '=', scope.landlordId));
    case 'none':
      return eb.lit(false);
  }
}

/**
 * Base query: jobs (alias `j`) joined with status `s`, type `jt`, branch `b`, address `ad`,
 * tenant `te` and contractor `c`, limited to the scope and to jobs not soft-deleted.
 * Signature kept stable for other modules (notes, documents, calendar).
 */
export function jobsQuery(db: DbOrTrx, scope: JobScope<Value<number>>) {
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
export function jobDetailQuery(db: DbOrTrx, scope: JobScope<Value<number>>) {
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

/**
 * Filters of the list. The branch, contractor, tenant and agent are given by uuid and resolved in
 * the same statement, inside `refAgencyId` (an unknown uuid, or one of another agency, matches
 * nothing). A value may be a parameter of a prepared statement standing for it
 * (jobs-list.repository.ts).
 */
export interface JobFilter {
  statusId?: Value<number>;
  jobTypeId?: Value<number>;
  priority?: Value<number>;
  branchUuid?: Value<string>;
  contractorUuid?: Value<string>;
  /** a tenant not erased */
  tenantUuid?: Value<string>;
  /** the job's property (addresses.uuid) */
  addressUuid?: Value<string>;
  /** the job's owning agent (agent_user_id) */
  agentUuid?: Value<string>;
  /** the agency the uuids above resolve in; absent: any agency (SysOps) */
  refAgencyId?: Value<number>;
  /** created_at >= from */
  from?: Value<Date>;
  /** created_at < to */
  to?: Value<Date>;
  /** ILIKE pattern, already escaped and wrapped in %...% */
  pattern?: Value<string>;
  /** state of the job's most urgent SLA clock (docs/sla.md) */
  slaState?: Value<string>;
  sort: 'created_at' | 'updated_at' | 'priority' | 'scheduled_for';
  order: SortDirection;
  limit: Value<number>;
  offset: Value<number>;
}

/**
 * The list filters as one where-clause over alias `j`: jobs columns, the SLA summary's state, and
 * the uuids of the filter resolved by scalar subqueries (each a unique-index lookup, run once per
 * statement; NULL when unknown, which matches no job).
 */
export function matchesFilter(eb: ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>, f: JobFilter) {
  const conds: Expression<SqlBool>[] = [];
  if (f.statusId !== undefined) conds.push(eb('j.status_id', '=', f.statusId));
  if (f.jobTypeId !== undefined) conds.push(eb('j.job_type_id', '=', f.jobTypeId));
  if (f.priority !== undefined) conds.push(eb('j.priority', '=', f.priority));
  const ref = f.refAgencyId;
  if (f.branchUuid !== undefined) {
    const id = eb.selectFrom('branches as fb').select('fb.id').where('fb.uuid', '=', f.branchUuid);
    conds.push(eb('j.branch_id', '=', ref === undefined ? id : id.where('fb.agency_id', '=', ref)));
  }
  if (f.contractorUuid !== undefined) {
    const id = eb.selectFrom('contractors as fc').select('fc.id').where('fc.uuid', '=', f.contractorUuid);
    conds.push(eb('j.contractor_id', '=', ref === undefined ? id : id.where('fc.agency_id', '=', ref)));
  }
  if (f.tenantUuid !== undefined) {
    const id = eb.selectFrom('tenants as ft').select('ft.id').where('ft.uuid', '=', f.tenantUuid).where('ft.erased_at', 'is', null);
    conds.push(eb('j.tenant_id', '=', ref === undefined ? id : id.where('ft.agency_id', '=', ref)));
  }
  if (f.agentUuid !== undefined) {
    const id = eb.selectFrom('users as fu').select('fu.id').where('fu.uuid', '=', f.agentUuid);
    conds.push(eb('j.agent_user_id', '=', ref === undefined ? id : id.where('fu.agency_id', '=', ref)));
  }
  if (f.addressUuid !== undefined) {
    const id = eb.selectFrom('addresses as fa').select('fa.id').where('fa.uuid', '=', f.addressUuid);
    conds.push(eb('j.address_id', '=', ref === undefined ? id : id.where('fa.agency_id', '=', ref)));
  }
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
  return jobDetailQuery(db, scope).select(JOB_DETAIL_COLUMNS).where('j.id', '=', id).executeTakeFirst();
}

/** The job detail by id, whatever the scope: a named prepared statement (src/db/prepared.ts). */
export const JOB_BY_ID = new PreparedQuery('job_by_id', (db, _shape: 'any', p: Params<{ id: number }>) =>
  jobDetailQuery(db, { kind: 'all' }).select(JOB_DETAIL_COLUMNS).where('j.id', '=', p('id')),
);

/**
 * Any job by id (not deleted), whatever the scope, or undefined (the read after a write): the
 * prepared statement JOB_BY_ID, planned once per connection.
 */
export async function findAnyJobById(db: DbOrTrx, id: number): Promise<JobRow | undefined> {
  const [row] = await JOB_BY_ID.run(db, 'any', { id });
  return row;
}

/** The tenant's mobile, else phone (null when neither, or erased). */
export async function findTenantPhone(db: DbOrTrx, tenantId: number): Promise<string | null> {
  const row = await db
    .selectFrom('tenants')
    .select(sql<string | null>`coalesce(nullif(mobile, ''), nullif(phone, ''))`.as('phone'))
    .where('id', '=', tenantId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return row?.phone ?? null;
}

/** The query of findJobByUuid (its SQL is checked in: src/db/sql/job-detail.sql). */
export function jobByUuidQuery(db: DbOrTrx, scope: JobScope, uuid: string) {
  return jobDetailQuery(db, scope).select(JOB_DETAIL_COLUMNS).where('j.uuid', '=', uuid);
}

/** One visible job by uuid, or undefined. */
export function findJobByUuid(db: DbOrTrx, scope: JobScope, uuid: string) {
  return jobByUuidQuery(db, scope, uuid).executeTakeFirst();
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

/** Appends a history row. */
export async function insertHistory(db: DbOrTrx, row: HistoryRow) {
  await db.executeQuery(historyInsert(db, row));
}

/** A status-history row: the job, the move (from null at creation), who and when. */
export interface HistoryRow {
  jobId: number;
  from: number | null;
  to: number;
  byUserId: number | null;
  note: string | null;
  at: Date;
}

/** historyInsert's statement: a named prepared statement (src/db/prepared.ts). */
const HISTORY_INSERT = new PreparedQuery('history_insert', (db, _shape: 'one', p: Params<HistoryRow>) =>
  db.insertInto('job_status_history').values({ job_id: p('jobId'), from_status_id: p('from'), to_status_id: p('to'), by_user_id: p('byUserId'), note: p('note'), created_at: p('at') }),
);

/** The insert of a history row, not yet run (for src/db/pipeline.ts). */
export function historyInsert(db: DbOrTrx, row: HistoryRow) {
  return HISTORY_INSERT.statement(db, 'one', row);
}

const NEXT_JOB_ID = new PreparedQuery('next_job_id', (db, _shape: 'one', _p: Params<object>) =>
  db.selectNoFrom(sql<number>`nextval(pg_get_serial_sequence('jobs', 'id'))::int`.as('id')),
);

/**
 * The next job id from the jobs' sequence, not yet run (for src/db/pipeline.ts): its one row holds
 * the `id`. Taken before the insert, so that the statements after it can go with it.
 */
export function nextJobIdQuery(db: DbOrTrx) {
  return NEXT_JOB_ID.statement(db, 'one', {});
}

/** The columns a new job is written with (jobInsert); the others take their defaults. */
const NEW_JOB_COLUMNS = [
  'id', 'uuid', 'agency_id', 'branch_id', 'title', 'description', 'priority', 'status_id', 'job_type_id', 'trade_id', 'address_id',
  'tenant_id', 'agent_user_id', 'reported_by_user_id', 'estimated_cost_pence', 'agreed_cost_pence', 'created_at', 'updated_at',
] as const;

/** A new job's values: every column of NEW_JOB_COLUMNS (null where it has none); the reference is taken by the insert. */
export type NewJobRow = { [C in (typeof NEW_JOB_COLUMNS)[number]]-?: Exclude<NewJob[C], undefined> } & { id: number };

/**
 * A job reference from its counter value, in SQL: `JOB-` and the number with zeros to six digits
 * (`JOB-000123`; `JOB-1234567` past a million), docs/jobs.md.
 */
const formatReference = (value: Expression<number>) => sql<string>`'JOB-' || lpad(${value}::text, greatest(6, length(${value}::text)), '0')`;

/**
 * The insert of a new job with the agency's next reference taken in the same statement: the
 * counter's upsert (src/db/counters.ts) is a common table expression of the insert, so its row is
 * locked from this statement to the commit and no longer while the server builds the statements
 * (docs/architecture.md "Job creation").
 */
const JOB_INSERT = new PreparedQuery('job_insert', (db, _shape: 'one', p: Params<NewJobRow>) =>
  db
    .with('counter', (qc) => counterUpsert(qc, p('agency_id'), 'job_reference'))
    .insertInto('jobs')
    .values((eb) => ({ ...columnParams(p, NEW_JOB_COLUMNS), reference: eb.selectFrom('counter').select((c) => formatReference(c.ref('counter.value')).as('reference')) })),
);

/**
 * The insert of a job with its id taken (nextJobIdQuery) and its reference taken by the statement
 * itself (JOB_INSERT), not yet run: a named prepared statement (src/db/prepared.ts).
 */
export function jobInsert(db: DbOrTrx, job: NewJobRow) {
  return JOB_INSERT.statement(db, 'one', job);
}

/** A page of a job's history, oldest first (prepared: HISTORY_PAGE). */
const HISTORY_PAGE = new PreparedQuery('history_page', (db, _shape: 'page', p: Params<{ jobId: number; limit: number; offset: number }>) =>
  db
    .selectFrom('job_status_history as h')
    .where('h.job_id', '=', p('jobId'))
    .leftJoin('job_statuses as fs', 'fs.id', 'h.from_status_id')
    .innerJoin('job_statuses as ts', 'ts.id', 'h.to_status_id')
    .leftJoin('users as u', 'u.id', 'h.by_user_id')
    .select(['h.id', 'h.from_status_id', 'fs.name as from_status', 'h.to_status_id', 'ts.name as to_status', 'u.uuid as by_user_uuid', 'u.name as by_user_name', 'h.note', 'h.created_at'])
    .orderBy('h.created_at', 'asc')
    .orderBy('h.id', 'asc')
    .limit(p('limit'))
    .offset(p('offset')),
);

/** The number of a job's history rows (prepared: HISTORY_COUNT). */
const HISTORY_COUNT = new PreparedQuery('history_count', (db, _shape: 'count', p: Params<{ jobId: number }>) =>
  db.selectFrom('job_status_history as h').where('h.job_id', '=', p('jobId')).select(sql<number>`count(*)::int`.as('n')),
);

/**
 * A page of a job's history, oldest first, and the total: two named prepared statements. The
 * history is partitioned by month (docs/operations.md "History partitions and retention") and read by
 * job, so every partition is a candidate: planned at each request, the page took about 7 ms of
 * planning to 0.7 ms of running (bench/README.md "The job page, the property page and a write mix").
 * @param page limit (rows) and offset (rows skipped)
 */
export async function listHistory(db: DbOrTrx, jobId: number, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    HISTORY_PAGE.run(db, 'page', { jobId, limit: page.limit, offset: page.offset }),
    HISTORY_COUNT.run(db, 'count', { jobId }),
  ]);
  return { rows, total: total[0]!.n };
}

/** Inserts a job; returns its id. */
export async function insertJob(db: DbOrTrx, job: NewJob): Promise<number> {
  const row = await db.insertInto('jobs').values(job).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A branch, tenant or contractor by uuid (any agency when agencyId is null): the owning modules' lookups. */
export { findBranchRef as findBranch } from '../../people/admin/index.ts';
export { findTenantRef as findTenant } from '../../people/tenants/index.ts';
export { findContractorRef as findContractor } from '../../people/contractors/index.ts';

/**
 * What decides a placement read's text: where the job's agency comes from (the caller's own,
 * `caller`; the named branch's for SysOps, `branch`; the reporting tenant's, `tenant`) and which
 * references the body names: only those are read (without a branch, the agency's open branches are
 * read instead, to choose one).
 */
export interface PlacementShape {
  agencyFrom: 'caller' | 'branch' | 'tenant';
  named: { branch: boolean; address: boolean; tenant: boolean; jobType: boolean; trade: boolean };
}

/** The values of a placement read; a uuid or id not given is null (it then matches nothing). */
export interface PlacementValues {
  agencyId: number | null;
  tenantId: number | null;
  branchUuid: string | null;
  addressUuid: string | null;
  tenantUuid: string | null;
  jobTypeId: number | null;
  tradeId: number | null;
}

/** What a new job's placement is decided from (job-placement.ts), every reference resolved inside the job's agency. */
export interface PlacementFacts {
  /** The job's agency, or null when the branch (SysOps) or the tenant is unknown. */
  agency_id: number | null;
  /** The branch named by `branch_uuid` (inside the agency; any agency for SysOps), and whether it is closed. */
  branch_id: number | null;
  branch_agency_id: number | null;
  branch_closed: boolean | null;
  /** The agency's open branches, by id (empty when none). */
  open_branch_ids: number[];
  /** The address named by `address_uuid`, inside the agency, and its branch. */
  address_id: number | null;
  address_branch_id: number | null;
  /** The tenant named by `tenant_uuid`, inside the agency and not erased. */
  tenant_id: number | null;
  /** A reporting tenant's own addresses (by id) and their branches, in the same order (empty for staff). */
  own_address_ids: number[];
  own_address_branch_ids: Array<number | null>;
  /** Whether `job_type_id` exists, and whether `trade_id` is a trade the agency sees (platform-wide or its own). */
  job_type_found: boolean;
  trade_found: boolean;
}

const PLACEMENT_FACTS = new PreparedQuery('placement_facts', (db, shape: PlacementShape, p: Params<PlacementValues>) => {
  const { named } = shape;
  // The job's agency: a value, or a one-row subquery; every reference is joined inside it.
  const agency = shape.agencyFrom === 'caller' ? p('agencyId')
    : shape.agencyFrom === 'branch' ? db.selectFrom('branches').select('agency_id').where('uuid', '=', p('branchUuid'))
      : db.selectFrom('tenants').select('agency_id').where('id', '=', p('tenantId'));
  // A reference the body does not name is not read: its join matches nothing.
  const nothing = sql<boolean>`false`;
  const noIds = sql<number[]>`'{}'::int[]`;
  // A reporting tenant's own addresses and their branches, both arrays from one aggregate (joined for tenants only).
  const forTenant = shape.agencyFrom === 'tenant';
  const own = db
    .selectFrom('tenant_addresses as ta')
    .innerJoin('addresses as a', 'a.id', 'ta.address_id')
    .where('ta.tenant_id', '=', p('tenantId'))
    .select([sql<number[] | null>`array_agg(a.id order by a.id)`.as('ids'), sql<Array<number | null> | null>`array_agg(a.branch_id order by a.id)`.as('branch_ids')]);
  return db
    .selectFrom(db.selectNoFrom(sql<number | null>`(${agency})::int`.as('agency_id')).as('ag'))
    .leftJoin('branches as b', (j) => (named.branch ? j.on('b.uuid', '=', p('branchUuid')).onRef('b.agency_id', '=', 'ag.agency_id') : j.on(nothing)))
    .leftJoin('addresses as ad', (j) => (named.address ? j.on('ad.uuid', '=', p('addressUuid')).onRef('ad.agency_id', '=', 'ag.agency_id') : j.on(nothing)))
    .leftJoin('tenants as tn', (j) => (named.tenant ? j.on('tn.uuid', '=', p('tenantUuid')).onRef('tn.agency_id', '=', 'ag.agency_id').on('tn.erased_at', 'is', null) : j.on(nothing)))
    .$if(forTenant, (q) => q.leftJoinLateral(own.as('own'), (j) => j.onTrue()))
    .select((eb) => [
      'ag.agency_id',
      'b.id as branch_id',
      'b.agency_id as branch_agency_id',
      sql<boolean | null>`b.closed_at is not null`.as('branch_closed'),
      named.branch ? noIds.as('open_branch_ids') : eb.fn.coalesce(
        eb.selectFrom('branches as ob').select(sql<number[]>`array_agg(ob.id order by ob.id)`.as('ids')).whereRef('ob.agency_id', '=', 'ag.agency_id').where('ob.closed_at', 'is', null),
        noIds,
      ).as('open_branch_ids'),
      'ad.id as address_id',
      'ad.branch_id as address_branch_id',
      'tn.id as tenant_id',
      forTenant ? sql<number[]>`coalesce(own.ids, '{}')`.as('own_address_ids') : noIds.as('own_address_ids'),
      forTenant ? sql<Array<number | null>>`coalesce(own.branch_ids, '{}')`.as('own_address_branch_ids') : sql<Array<number | null>>`'{}'::int[]`.as('own_address_branch_ids'),
      named.jobType ? eb.exists(eb.selectFrom('job_types').select('id').where('id', '=', p('jobTypeId'))).as('job_type_found') : nothing.as('job_type_found'),
      named.trade
        ? eb.exists(eb.selectFrom('trades').select('id').where('id', '=', p('tradeId')).where((t) => t.or([t('agency_id', 'is', null), t('agency_id', '=', t.ref('ag.agency_id'))]))).as('trade_found')
        : nothing.as('trade_found'),
    ]);
});

/**
 * Everything a new job's placement is decided from, in one statement (every job creation runs it;
 * the rules are in job-placement.ts): the job's agency, the branch, address and tenant named by the
 * body inside it, its open branches, a reporting tenant's own addresses, and whether the job type
 * and the trade are known to it.
 * @param shape where the agency comes from: the caller (`agencyId`), the branch (SysOps, by
 *   `branchUuid`) or the tenant (`tenantId`), and which references the body names (only those
 *   are read; a `*_found` of one not named is false)
 */
export async function placementFacts(db: DbOrTrx, shape: PlacementShape, values: PlacementValues): Promise<PlacementFacts> {
  const [row] = await PLACEMENT_FACTS.run(db, shape, values);
  return { ...row!, job_type_found: row!.job_type_found === true, trade_found: row!.trade_found === true };
}

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

/** Every status with its flags, in sort order. */
export function listStatuses(db: DbOrTrx) {
  return db.selectFrom('job_statuses').select(['id', 'code', 'name', 'is_open']).orderBy('sort_order').orderBy('id').execute();
}

/** Every job type, by id. */
export function listJobTypes(db: DbOrTrx) {
  return db.selectFrom('job_types').select(['id', 'code', 'name']).orderBy('id').execute();
}

/** A visible job's id, uuid, agency, reference and branch by uuid (not deleted), or undefined: no joins. */
export function findVisibleJobRef(db: DbOrTrx, scope: JobScope, uuid: string) {
  return db
    .selectFrom('jobs as j')
    .select(['j.id', 'j.uuid', 'j.agency_id', 'j.reference', 'j.branch_id'])
    .where('j.uuid', '=', uuid)
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .executeTakeFirst();
}

/**
 * Which of these jobs (uuids) the scope sees, by the one visibility rule (`visibleTo`); deleted
 * jobs are left out. The live updates authorise each event with it (docs/live-updates.md).
 * @returns the visible uuids (a subset of `uuids`, any order)
 */
export async function visibleJobUuids(db: DbOrTrx, scope: JobScope, uuids: readonly string[]): Promise<string[]> {
  if (uuids.length === 0 || scope.kind === 'none') return [];
  const rows = await db
    .selectFrom('jobs as j')
    .select('j.uuid')
    .where('j.uuid', 'in', [...uuids])
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .execute();
  return rows.map((r) => r.uuid);
}

/**
 * How many of a job's invoices (kind `invoice`, credit notes left out) are drafts and how many
 * were issued and not voided (issued, part paid, paid or overdue): the money rule of the
 * lifecycle's Completed -> Invoiced and -> Closed moves (docs/jobs.md "Invoiced and Closed").
 */
export async function invoiceStateOfJob(db: DbOrTrx, jobId: number): Promise<{ drafts: number; issued: number }> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'draft').as('drafts'),
      eb.fn.countAll<number>().filterWhere('status', 'in', ['issued', 'part_paid', 'paid', 'overdue']).as('issued'),
    ])
    .where('job_id', '=', jobId)
    .where('kind', '=', 'invoice')
    .executeTakeFirstOrThrow();
  return { drafts: Number(row.drafts), issued: Number(row.issued) };
}

/** A property of the agency by id (its branch), or undefined. */
export function findAgencyAddress(db: DbOrTrx, agencyId: number, id: number) {
  return db.selectFrom('addresses').select(['id', 'branch_id']).where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** The tenants linked to a property (ids, at most two: the caller only needs to know whether there is exactly one). */
export async function addressTenantIds(db: DbOrTrx, addressId: number): Promise<number[]> {
  const rows = await db.selectFrom('tenant_addresses').select('tenant_id').where('address_id', '=', addressId).orderBy('tenant_id').limit(2).execute();
  return rows.map((r) => r.tenant_id);
}
