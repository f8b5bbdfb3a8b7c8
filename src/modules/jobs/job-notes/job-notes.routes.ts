/**
 * Case notes of a job (docs/job-notes.md): GET/POST /api/jobs/{uuid}/notes and
 * PUT /api/jobs/{uuid}/notes/{note_uuid}. There is deliberately no DELETE: a note is evidence.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { CreateNoteBody, JobParams, ListNotesQuery, Note, NoteParams, UpdateNoteBody } from './job-notes.schemas.ts';
import { createJobNote, listJobNotes, updateJobNote } from './job-notes.service.ts';

const PERMISSION = 'api.jobs.notes.manage';

/** Registers the case-note routes. */
export function jobNotesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/{uuid}/notes: the notes of a visible job the caller may read, newest first. */
    app.get('/api/jobs/:uuid/notes', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'List the case notes of a job',
        description:
          "Staff see every note; a tenant sees notes shared with tenants ('tenant', 'both'); a contractor notes shared " +
          "with contractors ('contractor', 'both'). Newest first. A job outside the caller's scope is 404.",
        params: JobParams,
        querystring: ListNotesQuery,
        response: responses(ListEnvelope(Note), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listJobNotes(deps, requireAuth(request), request.params.uuid, request.query);
        return list(rows, total, 'Notes retrieved');
      },
    });

    /** POST /api/jobs/{uuid}/notes: adds a case note. */
    app.post('/api/jobs/:uuid/notes', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'Add a case note to a job',
        description:
          "Staff choose the visibility (default 'internal'); a tenant's note is always 'tenant' (shared with staff), a " +
          "contractor's always 'contractor'. Needs a CSRF token. Notes cannot be deleted.",
        params: JobParams,
        body: CreateNoteBody,
        response: responses(DataEnvelope(Note), [400, 401, 403, 404, 413, 429], 201),
      },
      handler: async (request, reply) => {
        const note = await createJobNote(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(note, 'Note added');
      },
    });

    /** PUT /api/jobs/{uuid}/notes/{note_uuid}: the author edits a note within 15 minutes. */
    app.put('/api/jobs/:uuid/notes/:note_uuid', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'Edit a case note (author only, within 15 minutes)',
        description:
          'Replaces body (and, for staff, visibility). Only the author (else 403), only until editable_until, 15 minutes ' +
          'after creation (else 409). Needs a CSRF token.',
        params: NoteParams,
        body: UpdateNoteBody,
        response: responses(DataEnvelope(Note), [400, 401, 403, 404, 409, 413, 429]),
      },
      handler: async (request) => {
        const { uuid, note_uuid } = request.params;
        const note = await updateJobNote(deps, requireAuth(request), actorOf(request), uuid, note_uuid, request.body);
        return ok(note, 'Note updated');
      },
    });
  };
}
