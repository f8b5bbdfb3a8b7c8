/** SQL for jobs (spec 4.16). Scope rules come from job-visibility.ts; no other rules here. */
import { sql } from 'kysely';
import type { NewJob } from '../../db/schema.ts';
import type { DbOrTrx } from '../activity/activity.repository.ts';
import { visibleTo, type JobScope } from './job-visibility.ts';

/** Base query: jobs joined with the names and uuids the wire shape needs, limited to the scope. */
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

export const JOB_COLUMNS = [
  'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 'j.status_id', 's.name as status',
  'j.job_type_id', 'jt.name as job_type', 'b.uuid as branch_uuid', 'b.name as branch_name',
  'ad.uuid as address_uuid', 'ad.postcode', 'te.uuid as tenant_uuid', 'c.uuid as contractor_uuid',
  'j.estimated_cost_pence', 'j.agreed_cost_pence', 'j.currency', 'j.created_at', 'j.updated_at',
  'j.scheduled_for', 'j.completed_at',
] as const;

/** One page of visible jobs, newest first, and the total. */
export async function listJobs(db: DbOrTrx, scope: JobScope, page: { limit: number; offset: number }) {
  const base = jobsQuery(db, scope);
  const [rows, total] = await Promise.all([
    base.select(JOB_COLUMNS).orderBy('j.created_at', 'desc').orderBy('j.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** One visible job by id, or undefined. */
export function findJobById(db: DbOrTrx, scope: JobScope, id: number) {
  return jobsQuery(db, scope).select(JOB_COLUMNS).where('j.id', '=', id).executeTakeFirst();
}

/**
 * Takes the next number of a per-agency counter atomically (row lock on the counter).
 * @returns 1 for the first call, then 2, 3, ...
 */
export async function nextCounter(db: DbOrTrx, agencyId: number, name: string): Promise<number> {
  const row = await db
    .insertInto('agency_counters')
    .values({ agency_id: agencyId, name, value: 1 })
    .onConflict((oc) => oc.columns(['agency_id', 'name']).doUpdateSet({ value: sql`agency_counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

/** Inserts a job; returns its id. */
export async function insertJob(db: DbOrTrx, job: NewJob): Promise<number> {
  const row = await db.insertInto('jobs').values(job).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A branch of the agency by uuid (any agency when agencyId is null), open or closed. */
export function findBranch(db: DbOrTrx, uuid: string, agencyId: number | null) {
  let q = db.selectFrom('branches').select(['id', 'agency_id', 'closed_at']).where('uuid', '=', uuid);
  if (agencyId !== null) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** The open branches of an agency. */
export function openBranches(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('branches').select(['id', 'agency_id']).where('agency_id', '=', agencyId).where('closed_at', 'is', null).execute();
}

/** True when the job type id exists. */
export async function jobTypeExists(db: DbOrTrx, id: number): Promise<boolean> {
  return (await db.selectFrom('job_types').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** An address of the agency by uuid. */
export function findAddress(db: DbOrTrx, uuid: string, agencyId: number) {
  return db.selectFrom('addresses').select(['id', 'branch_id']).where('uuid', '=', uuid).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** A tenant of the agency by uuid. */
export function findTenant(db: DbOrTrx, uuid: string, agencyId: number) {
  return db.selectFrom('tenants').select(['id']).where('uuid', '=', uuid).where('agency_id', '=', agencyId).where('erased_at', 'is', null).executeTakeFirst();
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
