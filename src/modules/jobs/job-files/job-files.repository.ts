/** SQL for job documents and photos (docs/job-files.md). Rules live in job-files.service.ts. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { FileKind } from './file-policy.ts';

/** Live (not deleted) files of one kind of a job; internal ones only when `withInternal`. */
function filesQuery(db: DbOrTrx, jobId: number, kind: FileKind, withInternal: boolean) {
  let q = db
    .selectFrom('job_files as f')
    .innerJoin('jobs as j', 'j.id', 'f.job_id')
    .leftJoin('users as u', 'u.id', 'f.uploaded_by_user_id')
    .where('f.job_id', '=', jobId)
    .where('f.kind', '=', kind)
    .where('f.deleted_at', 'is', null);
  if (!withInternal) q = q.where('f.internal', '=', false);
  return q;
}

const FILE_COLUMNS = [
  'f.id', 'f.uuid', 'f.kind', 'f.storage_key', 'f.original_filename', 'f.mime', 'f.ext', 'f.size_bytes', 'f.sha256',
  'f.description', 'f.internal', 'f.uploaded_by_user_id', 'f.created_at', 'j.uuid as job_uuid',
  'u.uuid as uploaded_by_uuid', 'u.name as uploaded_by_name',
] as const;

/** One page of files, newest first, and the total. */
export async function listFiles(db: DbOrTrx, jobId: number, kind: FileKind, withInternal: boolean, page: { limit: number; offset: number }) {
  const base = filesQuery(db, jobId, kind, withInternal);
  const [rows, total] = await Promise.all([
    base.select(FILE_COLUMNS).orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export type FileRow = Awaited<ReturnType<typeof listFiles>>['rows'][number];

/** One live file of a job by uuid. */
export function findFile(db: DbOrTrx, jobId: number, kind: FileKind, uuid: string, withInternal: boolean) {
  return filesQuery(db, jobId, kind, withInternal).select(FILE_COLUMNS).where('f.uuid', '=', uuid).executeTakeFirst();
}

export interface NewFileRow {
  uuid: string;
  jobId: number;
  agencyId: number;
  kind: FileKind;
  storageKey: string;
  filename: string;
  mime: string;
  ext: string;
  size: number;
  sha256: string;
  description: string | null;
  internal: boolean;
  uploaderId: number | null;
  at: Date;
}

/** Inserts a file record; returns its id. */
export async function insertFile(db: DbOrTrx, f: NewFileRow): Promise<number> {
  const row = await db
    .insertInto('job_files')
    .values({
      uuid: f.uuid,
      job_id: f.jobId,
      agency_id: f.agencyId,
      kind: f.kind,
      storage_key: f.storageKey,
      original_filename: f.filename,
      mime: f.mime,
      ext: f.ext,
      size_bytes: f.size,
      sha256: f.sha256,
      description: f.description,
      internal: f.internal,
      uploaded_by_user_id: f.uploaderId,
      created_at: f.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks a live file deleted; returns false when it was already deleted. */
export async function softDeleteFile(db: DbOrTrx, id: number, userId: number, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('job_files')
    .set({ deleted_at: at, deleted_by_user_id: userId })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Stored files for the integrity scan (deleted ones too: their bytes are kept), by id. */
export async function filesForScan(db: DbOrTrx, agencyId: number | null, page: { limit: number; offset: number }) {
  let q = db.selectFrom('job_files as f').innerJoin('jobs as j', 'j.id', 'f.job_id');
  if (agencyId !== null) q = q.where('f.agency_id', '=', agencyId);
  const [rows, total] = await Promise.all([
    q.select(['f.id', 'f.uuid', 'f.kind', 'f.sha256', 'j.uuid as job_uuid']).orderBy('f.id').limit(page.limit).offset(page.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** One stored file by id, for verification. */
export function findStoredFile(db: DbOrTrx, id: number) {
  return db.selectFrom('job_files').select(['id', 'uuid', 'storage_key', 'sha256']).where('id', '=', id).executeTakeFirst();
}

/** Records the outcome of an integrity check. */
export async function markIntegrity(db: DbOrTrx, id: number, status: 'ok' | 'mismatch' | 'missing', at: Date): Promise<void> {
  await db.updateTable('job_files').set({ integrity: status, verified_at: at }).where('id', '=', id).execute();
}

/** Live files of a job by uuid, any kind (internal ones only when `withInternal`): what a conversation message may attach. */
export async function findLiveFiles(db: DbOrTrx, jobId: number, uuids: readonly string[], withInternal: boolean) {
  if (uuids.length === 0) return [];
  let q = db.selectFrom('job_files').select(['id', 'uuid', 'internal']).where('job_id', '=', jobId).where('uuid', 'in', uuids).where('deleted_at', 'is', null);
  if (!withInternal) q = q.where('internal', '=', false);
  return q.execute();
}
