/**
 * SQL of planned maintenance (docs/compliance.md "Planned maintenance"): schedules, the
 * properties each one covers, and the occurrences raised with their jobs and certificates. No
 * rules here.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { newUuid } from '../../../lib/crypto.ts';

/** The columns a schedule is written with. */
export interface ScheduleFields {
  address_id: number | null;
  type_id: number | null;
  title: string;
  description: string;
  rrule: string;
  starts_on: string;
  lead_days: number;
  contractor_id: number | null;
  trade_id: number | null;
  priority: number;
  active_from: string;
}

/** Inserts a schedule; returns its id and uuid. */
export function insertSchedule(db: DbOrTrx, row: ScheduleFields & { agency_id: number; created_by_user_id: number | null }, now: Date) {
  return db
    .insertInto('maintenance_schedules')
    .values({ ...row, uuid: newUuid(), created_at: now, updated_at: now })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}

/** Changes a schedule's columns. */
export async function updateSchedule(db: DbOrTrx, id: number, set: Partial<ScheduleFields> & { retired_at?: Date }, now: Date): Promise<void> {
  await db.updateTable('maintenance_schedules').set({ ...set, updated_at: now }).where('id', '=', id).execute();
}

const dateText = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

/** A schedule with its property, type, contractor and trade, as the API shows it. */
function scheduleQuery(db: DbOrTrx) {
  return db
    .selectFrom('maintenance_schedules as s')
    .leftJoin('addresses as a', 'a.id', 's.address_id')
    .leftJoin('compliance_item_types as t', 't.id', 's.type_id')
    .leftJoin('contractors as k', 'k.id', 's.contractor_id')
    .leftJoin('trades as tr', 'tr.id', 's.trade_id')
    .select([
      's.id', 's.uuid', 's.agency_id', 's.address_id', 's.type_id', 's.title', 's.description', 's.rrule', 's.lead_days', 's.contractor_id',
      's.trade_id', 's.priority', 's.retired_at', 's.created_at', 's.updated_at',
      dateText('s.starts_on').as('starts_on'), dateText('s.active_from').as('active_from'),
      'a.uuid as address_uuid', 'a.line1', 'a.town', 'a.postcode',
      't.code as type_code', 't.name as type_name', 't.interval_months', 't.required_document',
      'k.uuid as contractor_uuid', 'k.company_name as contractor_name', 'tr.name as trade_name',
    ]);
}
export type ScheduleRow = Awaited<ReturnType<ReturnType<typeof scheduleQuery>['executeTakeFirstOrThrow']>>;

/** A schedule by uuid within an agency (any agency for null), or undefined. */
export function findSchedule(db: DbOrTrx, agencyId: number | null, uuid: string) {
  return scheduleQuery(db)
    .where('s.uuid', '=', uuid)
    .$if(agencyId !== null, (q) => q.where('s.agency_id', '=', agencyId!))
    .executeTakeFirst();
}

/** Filters of the schedule list (ids resolved by the service). */
export interface ScheduleFilter {
  agencyId: number | null;
  state: 'active' | 'retired' | 'all';
  addressId?: number;
  typeId?: number;
  contractorId?: number;
  limit: number;
  offset: number;
}

/** One page of schedules (newest first) and the number matching the filter. */
export async function listSchedules(db: DbOrTrx, f: ScheduleFilter) {
  const q = scheduleQuery(db)
    .$if(f.agencyId !== null, (q) => q.where('s.agency_id', '=', f.agencyId!))
    .$if(f.state === 'active', (q) => q.where('s.retired_at', 'is', null))
    .$if(f.state === 'retired', (q) => q.where('s.retired_at', 'is not', null))
    .$if(f.addressId !== undefined, (q) => q.where('s.address_id', '=', f.addressId!))
    .$if(f.typeId !== undefined, (q) => q.where('s.type_id', '=', f.typeId!))
    .$if(f.contractorId !== undefined, (q) => q.where('s.contractor_id', '=', f.contractorId!));
  const [rows, total] = await Promise.all([
    q.orderBy('s.id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** Every live schedule of every agency (the scheduler's scan). */
export function liveSchedules(db: DbOrTrx) {
  return scheduleQuery(db).where('s.retired_at', 'is', null).orderBy('s.id').execute();
}

/** One property a schedule covers, with the compliance item the work satisfies (if any). */
export interface Target {
  address_id: number;
  item_id: number | null;
}

/**
 * The properties a schedule covers: its own property (with its item of the schedule's type, if
 * any), or every property of the agency with an item of the schedule's type.
 */
export async function targetsOf(db: DbOrTrx, s: { agency_id: number; address_id: number | null; type_id: number | null }): Promise<Target[]> {
  if (s.address_id !== null) {
    const item = s.type_id === null ? undefined
      : await db.selectFrom('compliance_items').select('id').where('address_id', '=', s.address_id).where('type_id', '=', s.type_id).executeTakeFirst();
    return [{ address_id: s.address_id, item_id: item?.id ?? null }];
  }
  return db
    .selectFrom('compliance_items')
    .select(['address_id', 'id as item_id'])
    .where('agency_id', '=', s.agency_id)
    .where('type_id', '=', s.type_id!)
    .orderBy('address_id')
    .execute();
}

/** The (address, due date) pairs of a schedule already raised among `dues`. */
export async function raisedPairs(db: DbOrTrx, scheduleId: number, dues: readonly string[]): Promise<Set<string>> {
  if (dues.length === 0) return new Set();
  const rows = await db
    .selectFrom('maintenance_occurrences')
    .select(['address_id', dateText('due_on').as('due_on')])
    .where('schedule_id', '=', scheduleId)
    .where('due_on', 'in', dues)
    .execute();
  return new Set(rows.map((r) => `${r.address_id}/${r.due_on}`));
}

/**
 * Claims an occurrence: inserts its row unless it is there. A second worker claiming the same
 * occurrence waits for the first one's transaction and then finds it there.
 * @returns the new row's id, or undefined when it was already raised
 */
export async function claimOccurrence(db: DbOrTrx, row: { agency_id: number; schedule_id: number; address_id: number; item_id: number | null; due_on: string }, now: Date) {
  const r = await db
    .insertInto('maintenance_occurrences')
    .values({ ...row, created_at: now })
    .onConflict((oc) => oc.columns(['schedule_id', 'address_id', 'due_on']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/** Records the job an occurrence raised. */
export async function setOccurrenceJob(db: DbOrTrx, id: number, jobId: number): Promise<void> {
  await db.updateTable('maintenance_occurrences').set({ job_id: jobId }).where('id', '=', id).execute();
}

/** The raised occurrences of a schedule, latest due date first, with job and certificate. */
export function occurrencesOf(db: DbOrTrx, scheduleId: number, limit: number) {
  return db
    .selectFrom('maintenance_occurrences as o')
    .innerJoin('addresses as a', 'a.id', 'o.address_id')
    .leftJoin('jobs as j', 'j.id', 'o.job_id')
    .leftJoin('job_statuses as st', 'st.id', 'j.status_id')
    .leftJoin('compliance_items as i', 'i.id', 'o.item_id')
    .leftJoin('compliance_certificates as c', 'c.id', 'o.certificate_id')
    .select([
      dateText('o.due_on').as('due_on'), 'o.created_at', 'a.uuid as address_uuid', 'a.line1', 'a.town', 'a.postcode',
      'j.uuid as job_uuid', 'j.reference as job_reference', 'st.name as job_status', 'i.uuid as item_uuid', 'c.uuid as certificate_uuid',
    ])
    .where('o.schedule_id', '=', scheduleId)
    .orderBy('o.due_on', 'desc')
    .orderBy('o.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The occurrence a job was raised for when it is for a compliance item still without a
 * certificate from it, with what the certificate needs (type interval, job's contractor).
 */
export function occurrenceAwaitingCertificate(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('maintenance_occurrences as o')
    .innerJoin('compliance_items as i', 'i.id', 'o.item_id')
    .innerJoin('compliance_item_types as t', 't.id', 'i.type_id')
    .innerJoin('jobs as j', 'j.id', 'o.job_id')
    .select(['o.id', 'o.agency_id', 'o.item_id', 'i.uuid as item_uuid', 't.interval_months', 't.code as type_code', 'j.contractor_id', 'j.id as job_id', 'j.reference'])
    .where('o.job_id', '=', jobId)
    .where('o.certificate_id', 'is', null)
    .forUpdate('o')
    .executeTakeFirst();
}

/** Records the certificate taken from an occurrence's job. */
export async function setOccurrenceCertificate(db: DbOrTrx, id: number, certificateId: number): Promise<void> {
  await db.updateTable('maintenance_occurrences').set({ certificate_id: certificateId }).where('id', '=', id).execute();
}

/** A live document of a job by id (for the certificate), or undefined. */
export function jobDocument(db: DbOrTrx, jobId: number, fileId: number) {
  return db
    .selectFrom('job_files')
    .select(['id', 'created_at', 'original_filename'])
    .where('id', '=', fileId)
    .where('job_id', '=', jobId)
    .where('kind', '=', 'document')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
