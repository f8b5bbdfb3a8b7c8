/** SQL of the retention schedule and its periodic task (docs/gdpr.md "Retention"); the rules are in retention.service.ts. */
import type { DbOrTrx } from '../../../db/types.ts';

/** The agency's own periods (kinds without a row take the default). */
export function periodsOf(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('retention_periods').select(['record_kind', 'months', 'updated_at']).where('agency_id', '=', agencyId).execute();
}

/** Sets one period of the agency. */
export async function upsertPeriod(db: DbOrTrx, row: { agency_id: number; record_kind: string; months: number; updated_by_user_id: number | null; updated_at: Date }): Promise<void> {
  await db.insertInto('retention_periods').values(row)
    .onConflict((oc) => oc.columns(['agency_id', 'record_kind']).doUpdateSet({ months: row.months, updated_by_user_id: row.updated_by_user_id, updated_at: row.updated_at }))
    .execute();
}

/** Every agency's id. */
export async function agencyIds(db: DbOrTrx): Promise<number[]> {
  return (await db.selectFrom('agencies').select('id').orderBy('id').execute()).map((r) => r.id);
}

/** Records that an erasure kept (restricted) until `until`. */
export async function insertRetained(db: DbOrTrx, rows: Array<{ agency_id: number; subject_type: 'tenant' | 'landlord'; subject_id: number; record_kind: string; table_name: string; record_id: number; retained_until: string; created_at: Date }>): Promise<void> {
  if (rows.length) await db.insertInto('gdpr_retained').values(rows).execute();
}

/** Kept records whose retention has ended by `today` (London date) and that are not released yet. */
export function dueRetained(db: DbOrTrx, today: string) {
  return db.selectFrom('gdpr_retained').select(['id', 'table_name', 'record_id']).where('released_at', 'is', null).where('retained_until', '<=', today).orderBy('id').execute();
}

/** Releases a kept hazard: the copy of the written summary is cleared. */
export async function releaseHazardSummary(db: DbOrTrx, hazardId: number): Promise<void> {
  await db.updateTable('job_hazards').set({ summary_text: null }).where('id', '=', hazardId).execute();
}

/** Marks a kept record released. */
export async function markReleased(db: DbOrTrx, id: number, now: Date): Promise<void> {
  await db.updateTable('gdpr_retained').set({ released_at: now }).where('id', '=', id).execute();
}

/** Deletes the agency's message log older than `cutoff` (deliveries no longer queued, SMS rows, digest lines sent); returns the rows deleted. */
export async function deleteMessageLog(db: DbOrTrx, agencyId: number, cutoff: Date): Promise<number> {
  const old = db.selectFrom('message_deliveries').select('id').where('agency_id', '=', agencyId).where('status', '<>', 'queued').where('created_at', '<', cutoff);
  const sms = await db.deleteFrom('sms_messages').where('agency_id', '=', agencyId)
    .where((eb) => eb.or([eb('created_at', '<', cutoff), eb('delivery_id', 'in', old)])).executeTakeFirst();
  const deliveries = await db.deleteFrom('message_deliveries').where('agency_id', '=', agencyId).where('status', '<>', 'queued').where('created_at', '<', cutoff).executeTakeFirst();
  const digest = await db.deleteFrom('notification_digest_items').where('agency_id', '=', agencyId).where('sent_at', '<', cutoff).executeTakeFirst();
  return Number(sms.numDeletedRows) + Number(deliveries.numDeletedRows) + Number(digest.numDeletedRows);
}

/** Deletes the sessions and tokens of the agency's accounts that expired or were revoked before `cutoff`; returns how many. */
export async function deleteEndedSessions(db: DbOrTrx, agencyId: number, cutoff: Date): Promise<number> {
  const r = await db.deleteFrom('auth_tokens')
    .where('user_id', 'in', db.selectFrom('users').select('id').where('agency_id', '=', agencyId))
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The files (not deleted) of the agency's jobs closed or cancelled before `cutoff`, at most `limit`. */
export function filesOfOldJobs(db: DbOrTrx, agencyId: number, cutoff: Date, limit: number) {
  return db.selectFrom('job_files as f').innerJoin('jobs as j', 'j.id', 'f.job_id').select(['f.id', 'f.storage_key'])
    .where('f.agency_id', '=', agencyId).where('f.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('j.closed_at', '<', cutoff), eb('j.cancelled_at', '<', cutoff)]))
    .orderBy('f.id').limit(limit).execute();
}

/** Marks files deleted by retention or erasure (no user: the system did it). */
export async function markFilesDeleted(db: DbOrTrx, ids: number[], now: Date): Promise<void> {
  if (ids.length) await db.updateTable('job_files').set({ deleted_at: now, deleted_by_user_id: null, integrity: 'missing' }).where('id', 'in', ids).execute();
}
