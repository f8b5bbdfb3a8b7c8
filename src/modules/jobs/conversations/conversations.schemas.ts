/** Schemas of the conversation endpoints (docs/conversations.md). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';

export const AUDIENCES = ['tenant', 'contractor', 'landlord', 'internal'] as const;
export type Audience = (typeof AUDIENCES)[number];

export const AudienceSchema = Type.Union([Type.Literal('tenant'), Type.Literal('contractor'), Type.Literal('landlord'), Type.Literal('internal')], {
  description: 'who the thread is with, besides the agency: tenant, contractor, landlord, or internal (staff only)',
});

export const Thread = Type.Object(
  {
    audience: AudienceSchema,
    uuid: Nullable(Uuid({ description: 'null until the first message of the thread' })),
    job_uuid: Uuid(),
    message_count: Type.Integer({ minimum: 0, description: 'messages and the case notes shown in the thread' }),
    unread_count: Type.Integer({ minimum: 0, description: "entries written by others after the caller's last read" }),
    last_message_at: Nullable(DateTime()),
    last_message_preview: Nullable(Type.String({ description: 'the first 140 characters of the newest entry' })),
    read_at: Nullable(DateTime({ description: 'when the caller last marked the thread read' })),
  },
  { description: "A job's conversation with one audience. Case notes appear in the threads their visibility maps onto (internal: internal; tenant: tenant; contractor: contractor; both: tenant and contractor)." },
);
export type ThreadDto = Static<typeof Thread>;

export const Attachment = Type.Object({
  uuid: Uuid(),
  kind: Type.String({ description: 'document or photo' }),
  filename: Type.String(),
  mime: Type.String(),
  size_bytes: Type.Integer({ minimum: 0 }),
  download_url: Type.String({ description: 'the job file download path' }),
});

export const Message = Type.Object(
  {
    uuid: Uuid(),
    job_uuid: Uuid(),
    audience: AudienceSchema,
    kind: Type.Union([Type.Literal('message'), Type.Literal('note')], { description: 'message: written in the conversation; note: a case note shown here (docs/job-notes.md)' }),
    channel: Type.String({ description: 'web, email, sms, or note for a case note' }),
    body: Type.String(),
    urgent: Type.Boolean({ description: 'sent by SMS even in quiet hours' }),
    author_uuid: Nullable(Uuid()),
    author_name: Type.String(),
    author_kind: Type.String({ description: 'staff, tenant, contractor, landlord or system' }),
    attachments: Type.Array(Attachment),
    created_at: DateTime(),
    created_at_text: Type.String({ description: 'the time for people, Europe/London: "Thu 26 Nov 2026, 18:07"' }),
  },
  { description: 'One entry of a thread.' },
);
export type MessageDto = Static<typeof Message>;

export const JobParams = Type.Object({ uuid: Uuid({ description: 'job uuid' }) });
export const ThreadParams = Type.Object({ uuid: Uuid({ description: 'job uuid' }), audience: AudienceSchema });

export const ListMessagesQuery = Type.Object({ ...Pagination }, { additionalProperties: false });
export type ListMessagesInput = Static<typeof ListMessagesQuery>;

export const PostMessageBody = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 10_000 }),
    attachment_uuids: Type.Optional(Type.Array(Uuid(), { maxItems: 10, description: 'documents or photos already uploaded to the job; internal files only in the internal thread' })),
    urgent: Type.Optional(Type.Boolean({ description: 'staff only: the SMS copy is sent even in quiet hours (default false)' })),
  },
  { additionalProperties: false },
);
export type PostMessageInput = Static<typeof PostMessageBody>;

export const ReadState = Type.Object({ audience: AudienceSchema, read_at: DateTime(), unread_count: Type.Integer({ minimum: 0 }) });
