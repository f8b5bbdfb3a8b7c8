/** Schemas of the notice endpoints (docs/messaging.md "Notices"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
const Severity = Type.Unsafe<(typeof SEVERITIES)[number]>({ type: 'string', enum: [...SEVERITIES], description: 'info | warning | critical' });
/** A notice's window edge: a timestamp of at most 40 characters. */
const WindowTime = (description: string) => DateTime({ maxLength: 40, description });
const NullableDateTime = (description: string) => Type.Union([WindowTime(description), Type.Null()]);
const NullableString = (o: Record<string, unknown> = {}) => Type.Union([Type.String(o), Type.Null()]);

export const Notice = Type.Object(
  {
    uuid: Uuid(),
    title: Type.String(),
    body: Type.String(),
    severity: Type.String({ description: 'info | warning | critical' }),
    branch_uuid: NullableString({ format: 'uuid', description: 'only this branch; null: every branch' }),
    branch_name: NullableString(),
    role_code: NullableString({ description: 'only this role; null: every role' }),
    starts_at: DateTime(),
    expires_at: NullableDateTime('null: never expires'),
    created_by: NullableString({ description: 'author name' }),
    created_at: DateTime(),
    updated_at: DateTime(),
    read_count: Type.Integer({ description: 'users who marked it read' }),
  },
  { description: 'A notice to the users of an agency, optionally of one branch and/or role' },
);
export type NoticeDto = Static<typeof Notice>;

export const CurrentNotice = Type.Object({
  uuid: Uuid(),
  title: Type.String(),
  body: Type.String(),
  severity: Type.String(),
  starts_at: DateTime(),
  expires_at: NullableDateTime('null: never expires'),
  read_at: NullableDateTime('when the caller marked it read; null: unread'),
});
export type CurrentNoticeDto = Static<typeof CurrentNotice>;

export const NoticeRead = Type.Object({
  user_uuid: Uuid(),
  name: Type.String(),
  read_at: DateTime(),
});

/** Text without NUL characters (PostgreSQL text cannot hold them). */
const NO_NUL = '^[^\\u0000]*$';

const fields = {
  title: Type.String({ minLength: 1, maxLength: 200, pattern: NO_NUL, description: '1 to 200 characters' }),
  body: Type.String({ minLength: 1, maxLength: 5_000, pattern: NO_NUL, description: '1 to 5,000 characters (plain text)' }),
  severity: Severity,
  branch_uuid: Type.Union([Uuid(), Type.Null()], { description: "a branch of the agency; null or absent: every branch" }),
  role_code: Type.Union([Type.String({ minLength: 1, maxLength: 100, pattern: NO_NUL }), Type.Null()], { description: 'a role code (agent, tenant, ...); null or absent: every role' }),
  starts_at: WindowTime('when it shows (default now)'),
  expires_at: NullableDateTime('when it stops showing; after starts_at'),
};

export const CreateNoticeBody = Type.Object(
  {
    title: fields.title,
    body: fields.body,
    severity: Type.Optional(fields.severity),
    branch_uuid: Type.Optional(fields.branch_uuid),
    role_code: Type.Optional(fields.role_code),
    starts_at: Type.Optional(fields.starts_at),
    expires_at: Type.Optional(fields.expires_at),
  },
  { additionalProperties: false },
);
export type CreateNoticeInput = Static<typeof CreateNoticeBody>;

export const UpdateNoticeBody = Type.Object(
  {
    title: Type.Optional(fields.title),
    body: Type.Optional(fields.body),
    severity: Type.Optional(fields.severity),
    branch_uuid: Type.Optional(fields.branch_uuid),
    role_code: Type.Optional(fields.role_code),
    starts_at: Type.Optional(fields.starts_at),
    expires_at: Type.Optional(fields.expires_at),
  },
  { additionalProperties: false },
);
export type UpdateNoticeInput = Static<typeof UpdateNoticeBody>;

export const ListNoticesQuery = Type.Object(
  { state: Type.Optional(Type.Unsafe<'active' | 'scheduled' | 'expired'>({ type: 'string', enum: ['active', 'scheduled', 'expired'] })), ...Pagination },
  { additionalProperties: false },
);
export type ListNoticesQuery = Static<typeof ListNoticesQuery>;

export const CurrentNoticesQuery = Type.Object(
  { unread: Type.Optional(Type.Boolean({ description: 'true: only the ones the caller has not read' })), ...Pagination },
  { additionalProperties: false },
);
export type CurrentNoticesQuery = Static<typeof CurrentNoticesQuery>;

export const NoticeParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });
