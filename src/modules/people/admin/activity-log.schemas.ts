/** Wire shapes of GET /api/admin/activity-log (spec 2.3, 4.6). */
import { Type } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable } from '../../../http/schema-primitives.ts';

/** One entry on the wire (spec 2.3): `user_id` 0 when no account was identified. */
export const ActivityLogEntry = Type.Object(
  {
    ID: Type.Integer(),
    user_id: Type.Integer({ description: '0 when no account was identified (a failed login with an unknown e-mail)' }),
    user_name: Type.String(),
    action: Type.String({ description: '<resource>.<verb>' }),
    resource_type: Type.String(),
    resource_id: Type.Union([Type.Integer(), Type.Null()]),
    ip_address: Type.String(),
    created_at: DateTime(),
    // Only with ?resources=true (beyond spec 2.3; docs/api.md):
    resource_uuid: Type.Optional(Nullable(Type.String({ description: 'uuid of the job, invoice, user, tenant, contractor or address named; null for other records or when gone' }))),
    resource_label: Type.Optional(Nullable(Type.String({ description: "the record's name: a job's reference, an invoice's number, a person's or firm's name, an address's postcode" }))),
    from_status: Type.Optional(Nullable(Type.String({ description: "a job move's status before (job.transition and the like); null otherwise" }))),
    to_status: Type.Optional(Nullable(Type.String({ description: "a job move's status after; null otherwise" }))),
  },
  { description: 'ActivityLogEntry (spec 2.3)' },
);

/** Query of GET /api/admin/activity-log (spec 4.6). */
export const ActivityLogQuery = Type.Object(
  {
    user_id: Type.Optional(Type.Integer({ minimum: 0 })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    resources: Type.Optional(
      Type.Boolean({ description: "true: each entry also carries resource_uuid, resource_label, from_status and to_status (the console's readable log)" }),
    ),
    action_prefix: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'actions starting with this text: "job." for every job action, "auth." for sign-ins' }),
    ),
    from_date: Type.Optional(IsoDate('entries on or after this UTC date')),
    to_date: Type.Optional(IsoDate('entries on or before this UTC date (inclusive)')),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'keyset cursor: entries older than the entry with this ID (next page)' })),
    after: Type.Optional(Type.Integer({ minimum: 1, description: 'keyset cursor: entries newer than the entry with this ID (previous page)' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
