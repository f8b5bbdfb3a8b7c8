/** SQL for case notes (docs/job-notes.md). Rules live in job-notes.service.ts. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { NoteVisibility } from './job-notes.schemas.ts';

/** Notes of a job joined with author and job uuid; `visibilities` null means every note. */
function notesQuery(db: DbOrTrx, jobId: number, visibilities: readonly NoteVisibility[] | null) {
  let q = db
    .selectFrom('job_notes as n')
    .innerJoin('jobs as j', 'j.id', 'n.job_id')
    .innerJoin('agencies as a', 'a.id', 'j.agency_id')
    .leftJoin('users as u', 'u.id', 'n.author_user_id')
    .leftJoin('roles as r', 'r.id', 'u.role_id')
    .where('n.job_id', '=', jobId);
  if (visibilities !== null) {
    q = visibilities.length > 0 ? q.where('n.visibility', 'in', visibilities) : q.where((eb) => eb.lit(false));
  }
  return q;
}

const NOTE_COLUMNS = [
  'n.id', 'n.uuid', 'n.author_user_id', 'n.body', 'n.visibility', 'n.created_at', 'n.updated_at', 'n.edited_at',
  'j.uuid as job_uuid', 'u.uuid as author_uuid', 'u.name as author_name', 'r.code as author_role', 'a.name as agency_name',
] as const;

/** One page of a job's notes, newest first, and the total. */
export async function listNotes(
  db: DbOrTrx,
  jobId: number,
  visibilities: readonly NoteVisibility[] | null,
  page: { limit: number; offset: number },
) {
  const base = notesQuery(db, jobId, visibilities);
  const [rows, total] = await Promise.all([
    base.select(NOTE_COLUMNS).orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export type NoteRow = Awaited<ReturnType<typeof listNotes>>['rows'][number];

/** One note of a job by uuid, limited to `visibilities`. */
export function findNote(db: DbOrTrx, jobId: number, uuid: string, visibilities: readonly NoteVisibility[] | null) {
  return notesQuery(db, jobId, visibilities).select(NOTE_COLUMNS).where('n.uuid', '=', uuid).executeTakeFirst();
}

/** Inserts a note; returns its id. */
export async function insertNote(
  db: DbOrTrx,
  note: { uuid: string; jobId: number; authorId: number; body: string; visibility: NoteVisibility; at: Date },
): Promise<number> {
  const row = await db
    .insertInto('job_notes')
    .values({
      uuid: note.uuid,
      job_id: note.jobId,
      author_user_id: note.authorId,
      body: note.body,
      visibility: note.visibility,
      created_at: note.at,
      updated_at: note.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Replaces body and visibility of a note, only while the author's edit window is open
 * (created_at > windowStart); returns false when the window closed meanwhile.
 */
export async function updateNote(
  db: DbOrTrx,
  id: number,
  authorId: number,
  windowStart: Date,
  change: { body: string; visibility: NoteVisibility; at: Date },
): Promise<boolean> {
  const r = await db
    .updateTable('job_notes')
    .set({ body: change.body, visibility: change.visibility, updated_at: change.at, edited_at: change.at })
    .where('id', '=', id)
    .where('author_user_id', '=', authorId)
    .where('created_at', '>', windowStart)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Inserts an internal note written by the system (no author), for events that reach a job from
 * outside an account: a landlord's answer by signed link (docs/landlords.md).
 */
export async function insertSystemNote(db: DbOrTrx, note: { uuid: string; jobId: number; body: string; at: Date }): Promise<void> {
  await db.insertInto('job_notes').values({
    uuid: note.uuid, job_id: note.jobId, author_user_id: null, body: note.body, visibility: 'internal', created_at: note.at, updated_at: note.at,
  }).execute();
}
