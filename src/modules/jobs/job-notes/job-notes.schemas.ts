/** Schemas of the case-note endpoints (docs/job-notes.md). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';

export const NOTE_VISIBILITIES = ['internal', 'tenant', 'contractor', 'both'] as const;
export type NoteVisibility = (typeof NOTE_VISIBILITIES)[number];

const Visibility = Type.Union([Type.Literal('internal'), Type.Literal('tenant'), Type.Literal('contractor'), Type.Literal('both')], {
  description: "internal: staff only; tenant: shared with the job's tenant; contractor: shared with the job's contractor; both: shared with both",
});


export const Note = Type.Object(
  {
    uuid: Uuid(),
    job_uuid: Uuid(),
    body: Type.String(),
    visibility: Visibility,
    author_uuid: Nullable(Uuid()),
    author_name: Type.String({ description: "the author's name; the agency's name for a note the system wrote" }),
    author_role: Nullable(Type.String({ description: 'role code of the author: sysops, admin, agent, api, contractor, tenant or a custom role' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    edited_at: Nullable(DateTime()),
    editable_until: DateTime({ description: 'created_at + 15 minutes; the author may edit until then' }),
  },
  { description: 'A case note of a job. Notes are never deleted: the record is evidence.' },
);
export type NoteDto = Static<typeof Note>;

export const JobParams = Type.Object({ uuid: Uuid({ description: 'job uuid' }) });
export const NoteParams = Type.Object({
  uuid: Uuid({ description: 'job uuid' }),
  note_uuid: Uuid(),
});

export const ListNotesQuery = Type.Object(
  { visibility: Type.Optional(Visibility), ...Pagination },
  { additionalProperties: false },
);
export type ListNotesInput = Static<typeof ListNotesQuery>;

export const CreateNoteBody = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 10_000 }),
    visibility: Type.Optional(Visibility),
  },
  { additionalProperties: false },
);
export type CreateNoteInput = Static<typeof CreateNoteBody>;

export const UpdateNoteBody = CreateNoteBody;
export type UpdateNoteInput = CreateNoteInput;
