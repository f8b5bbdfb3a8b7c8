/**
 * SQL of the visit booking (docs/tenant-reporting.md "Booking the visit"): the tenant's
 * availability windows of a job, its timed visits (one `booked` at most), the contractor's busy
 * hours and the day-before reminders.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { JobVisitTable } from '../../../db/schema.ts';
import type { Insertable } from 'kysely';

/** The job's windows, earliest first. */
export function listWindows(db: DbOrTrx, jobId: number) {
  return db.selectFrom('job_visit_windows').select(['uuid', 'starts_at', 'ends_at', 'given_by', 'created_at'])
    .where('job_id', '=', jobId).orderBy('starts_at').orderBy('id').execute();
}

/** Replaces the job's windows by `windows` (the caller holds the job's lock). */
export async function replaceWindows(
  trx: DbOrTrx,
  job: { id: number; agency_id: number },
  windows: { uuid: string; starts_at: Date; ends_at: Date }[],
  by: { given_by: 'tenant' | 'link' | 'staff'; user_id: number | null },
  now: Date,
): Promise<void> {
  await trx.deleteFrom('job_visit_windows').where('job_id', '=', job.id).execute();
  if (windows.length === 0) return;
  await trx.insertInto('job_visit_windows').values(windows.map((w) => ({
    uuid: w.uuid, agency_id: job.agency_id, job_id: job.id, starts_at: w.starts_at, ends_at: w.ends_at, given_by: by.given_by, by_user_id: by.user_id, created_at: now,
  }))).execute();
}

const VISIT_COLUMNS = ['v.id', 'v.uuid', 'v.starts_at', 'v.ends_at', 'v.booked_by', 'v.state', 'v.missed_by', 'v.missed_note', 'v.missed_at', 'v.reminder_sent_at', 'v.created_at'] as const;

/** The job's visits, newest first (booked, moved and missed). */
export function listVisits(db: DbOrTrx, jobId: number) {
  return db.selectFrom('job_visits as v').select(VISIT_COLUMNS).where('v.job_id', '=', jobId).orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').execute();
}

/** The job's booked visit, or undefined. */
export function bookedVisit(db: DbOrTrx, jobId: number) {
  return db.selectFrom('job_visits as v').select(VISIT_COLUMNS).where('v.job_id', '=', jobId).where('v.state', '=', 'booked').executeTakeFirst();
}

/** Marks the job's booked visit as moved (another booking, a reassignment or a decline replaced it). */
export async function supersedeVisit(trx: DbOrTrx, jobId: number, now: Date): Promise<void> {
  await trx.updateTable('job_visits').set({ state: 'moved', updated_at: now }).where('job_id', '=', jobId).where('state', '=', 'booked').execute();
}

/** A new booked visit. */
export async function insertVisit(trx: DbOrTrx, row: Insertable<JobVisitTable>): Promise<void> {
  await trx.insertInto('job_visits').values(row).execute();
}

/** Records a booked visit as missed and by whom. @returns true when it was still booked */
export async function markMissed(trx: DbOrTrx, id: number, m: { missed_by: 'tenant' | 'contractor'; note: string | null }, now: Date): Promise<boolean> {
  const r = await trx.updateTable('job_visits').set({ state: 'missed', missed_by: m.missed_by, missed_note: m.note, missed_at: now, updated_at: now })
    .where('id', '=', id).where('state', '=', 'booked').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Locks the contractor's row: bookings of one contractor are made one at a time (no double booking between two jobs). */
export async function lockContractor(trx: DbOrTrx, contractorId: number): Promise<void> {
  await trx.selectFrom('contractors').select('id').where('id', '=', contractorId).forUpdate().executeTakeFirst();
}

/** A booking of the contractor on another job: a timed visit, or a date with a slot's hours. */
export interface BusyRow {
  reference: string;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  scheduled_for: Date | string | null;
  range_starts: string | null;
  range_ends: string | null;
}

/**
 * The contractor's bookings on its other live jobs (Assigned or Scheduled, not deleted) between
 * two London dates (inclusive): booked timed visits, and Scheduled jobs without one whose date
 * falls in the range (with their slot's HH:MM hours, null for a slot without hours).
 */
export async function contractorBookings(db: DbOrTrx, contractorId: number, exceptJobId: number, fromDate: string, toDate: string): Promise<BusyRow[]> {
  const result = await sql<BusyRow>`
    select j.reference, v.starts_at, v.ends_at, null as scheduled_for, null as range_starts, null as range_ends
      from job_visits v join jobs j on j.id = v.job_id
     where v.contractor_id = ${contractorId} and v.state = 'booked' and v.job_id <> ${exceptJobId}
       and j.deleted_at is null and j.status_id in (4, 5) and j.contractor_id = ${contractorId}
       and v.ends_at > (${fromDate}::date - 1) and v.starts_at < (${toDate}::date + 2)
    union all
    select j.reference, null, null, j.scheduled_for, t.starts_at, t.ends_at
      from jobs j left join job_time_ranges t on t.id = j.time_range_id
     where j.contractor_id = ${contractorId} and j.id <> ${exceptJobId} and j.deleted_at is null and j.status_id = 5
       and j.scheduled_for is not null
       and (j.scheduled_for at time zone 'UTC')::date between ${fromDate}::date and ${toDate}::date
       and not exists (select 1 from job_visits v2 where v2.job_id = j.id and v2.state = 'booked')
  `.execute(db);
  return result.rows;
}

/** The live time slots the agency sees that have hours, in list order. */
export function slotsWithHours(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('job_time_ranges').select(['id', 'range_label', 'starts_at', 'ends_at'])
    .where('retired_at', 'is', null).where('starts_at', 'is not', null).where('ends_at', 'is not', null)
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)]))
    .orderBy('sort_order').orderBy('id').execute();
}

/** Booked visits of Scheduled jobs starting in [from, to) whose reminder is not sent. */
export function dueReminders(trx: DbOrTrx, from: Date, to: Date) {
  return trx.selectFrom('job_visits as v').innerJoin('jobs as j', 'j.id', 'v.job_id')
    .select(['v.id', 'v.uuid', 'v.agency_id', 'v.contractor_id', 'v.starts_at', 'v.ends_at', 'j.id as job_id', 'j.uuid as job_uuid', 'j.reference', 'j.branch_id'])
    .where('v.state', '=', 'booked').where('v.reminder_sent_at', 'is', null).where('v.starts_at', '>=', from).where('v.starts_at', '<', to)
    .where('j.status_id', '=', 5).where('j.deleted_at', 'is', null)
    .orderBy('v.starts_at').execute();
}

/** Records the reminder of a visit as sent. @returns false when another scan sent it first */
export async function markReminded(trx: DbOrTrx, id: number, now: Date): Promise<boolean> {
  const r = await trx.updateTable('job_visits').set({ reminder_sent_at: now }).where('id', '=', id).where('reminder_sent_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
