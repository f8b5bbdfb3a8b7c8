/**
 * Case notes of a job (docs/job-notes.md).
 *
 * Who sees what: staff (SysOps, admin, API account, agent) see every note of the jobs they can
 * see; a tenant sees the notes shared with tenants ('tenant', 'both'); a contractor those shared
 * with contractors ('contractor', 'both'). Who writes what: staff any visibility (default
 * 'internal'); a tenant only 'tenant' notes (shared with staff); a contractor only 'contractor'.
 * A note is edited only by its author within 15 minutes of creation (then 409) and is never
 * deleted: the record is evidence.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { addSeconds, SECONDS, toIso } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findVisibleJob } from '../job-access/index.ts';
import type { JobScope } from '../jobs/index.ts';
import { emitEvent } from '../../../events/index.ts';
import * as repo from './job-notes.repository.ts';
import type { CreateNoteInput, ListNotesInput, NoteDto, NoteVisibility, UpdateNoteInput } from './job-notes.schemas.ts';

/** How long the author may edit a note after creating it, in seconds. */
export const NOTE_EDIT_WINDOW_S = 15 * SECONDS.minute;

/** The visibilities a scope may read; null means all (staff). */
export function readableVisibilities(scope: JobScope): readonly NoteVisibility[] | null {
  if (scope.kind === 'tenant') return ['tenant', 'both'];
  if (scope.kind === 'contractor') return ['contractor', 'both'];
  if (scope.kind === 'none' || scope.kind === 'landlord') return [];
  return null;
}

/**
 * The visibility a new or edited note gets.
 * @throws 400 "Invalid or missing required parameter: visibility" when a tenant or contractor
 *   asks for anything but its own audience
 */
function writableVisibility(scope: JobScope, requested: NoteVisibility | undefined, fallback: NoteVisibility): NoteVisibility {
  const own = scope.kind === 'tenant' ? 'tenant' : scope.kind === 'contractor' ? 'contractor' : null;
  if (own === null) return requested ?? fallback;
  if (requested !== undefined && requested !== own) throw invalidParam('visibility');
  return own;
}

function cleanBody(body: string): string {
  const text = body.trim();
  if (text.length === 0) throw invalidParam('body');
  return text;
}


/** Wire shape of a note row. */
export function toNoteDto(row: repo.NoteRow): NoteDto {
  return {
    uuid: row.uuid,
    job_uuid: row.job_uuid,
    body: row.body,
    visibility: row.visibility,
    author_uuid: row.author_uuid ?? null,
    // A note the system wrote, or one whose author's account is gone, is signed by the agency.
    author_name: row.author_name ?? row.agency_name,
    author_role: row.author_role ?? null,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    edited_at: row.edited_at === null ? null : toIso(row.edited_at),
    editable_until: addSeconds(new Date(row.created_at), NOTE_EDIT_WINDOW_S).toISOString(),
  };
}

/**
 * GET /api/jobs/{uuid}/notes: one page of the notes of a visible job the caller may read,
 * newest first.
 * @returns { rows: NoteDto[], total }
 * @throws 404 "Job not found"
 */
export async function listJobNotes(deps: AppDeps, auth: AuthContext, jobUuid: string, q: ListNotesInput) {
  const { job, scope } = await findVisibleJob(deps.db, auth, jobUuid);
  let visibilities = readableVisibilities(scope);
  if (q.visibility !== undefined) visibilities = visibilities === null || visibilities.includes(q.visibility) ? [q.visibility] : [];
  const { rows, total } = await repo.listNotes(deps.db, job.id, visibilities, q);
  return { rows: rows.map(toNoteDto), total };
}

/**
 * POST /api/jobs/{uuid}/notes: adds a note, with its activity entry in one transaction.
 * @returns the note as NoteDto
 * @throws 400 for an empty body or a visibility the caller may not write, 404 "Job not found"
 */
export async function createJobNote(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: CreateNoteInput): Promise<NoteDto> {
  const { job, scope } = await findVisibleJob(deps.db, auth, jobUuid);
  const visibility = writableVisibility(scope, input.visibility, 'internal');
  const body = cleanBody(input.body);
  const now = deps.clock.now();
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertNote(trx, { uuid, jobId: job.id, authorId: auth.userId, body, visibility, at: now });
    await recordActivity(trx, actor, now, {
      action: 'job_note.create',
      resourceType: 'job_note',
      resourceId: id,
      agencyId: job.agencyId,
      details: { job_uuid: job.uuid, note_uuid: uuid, visibility },
    });
    await emitEvent(trx, now, {
      name: 'job.note_added',
      agencyId: job.agencyId,
      payload: { job_id: job.id, job_uuid: job.uuid, reference: job.reference, branch_id: job.branchId, note_id: id, visibility },
    });
  });
  const row = await repo.findNote(deps.db, job.id, uuid, null);
  if (!row) throw new AppError('internal');
  return toNoteDto(row);
}

/**
 * PUT /api/jobs/{uuid}/notes/{note_uuid}: the author corrects a note within 15 minutes of its
 * creation (deps.clock). The change and its activity entry are one transaction.
 * @returns the edited note
 * @throws 404 "Job not found" / "Note not found" (also for notes the caller may not read),
 *   403 when the caller is not the author, 409 when the 15-minute window has passed,
 *   400 for an empty body or a visibility the caller may not write
 */
export async function updateJobNote(
  deps: AppDeps,
  auth: AuthContext,
  actor: Actor,
  jobUuid: string,
  noteUuid: string,
  input: UpdateNoteInput,
): Promise<NoteDto> {
  const { job, scope } = await findVisibleJob(deps.db, auth, jobUuid);
  const note = await repo.findNote(deps.db, job.id, noteUuid, readableVisibilities(scope));
  if (!note) throw notFound('Note');
  if (note.author_user_id !== auth.userId) throw forbidden('Only the author may edit a note');
  const visibility = writableVisibility(scope, input.visibility, note.visibility);
  const body = cleanBody(input.body);
  const now = deps.clock.now();
  const windowStart = addSeconds(now, -NOTE_EDIT_WINDOW_S);
  const closed = conflict('A note can only be edited within 15 minutes of its creation');
  if (new Date(note.created_at) <= windowStart) throw closed;
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.updateNote(trx, note.id, auth.userId, windowStart, { body, visibility, at: now }))) throw closed;
    await recordActivity(trx, actor, now, {
      action: 'job_note.update',
      resourceType: 'job_note',
      resourceId: note.id,
      agencyId: job.agencyId,
      details: { job_uuid: job.uuid, note_uuid: note.uuid, visibility },
    });
  });
  const row = await repo.findNote(deps.db, job.id, noteUuid, null);
  if (!row) throw new AppError('internal');
  return toNoteDto(row);
}
