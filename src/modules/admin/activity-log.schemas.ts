/** Wire shapes of GET /api/admin/activity-log (spec 2.3, 4.6). */
import { Type } from 'typebox';
import { Pagination } from '../../http/pagination.ts';
import { DateTime, IsoDate } from '../../http/schema-primitives.ts';

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
  },
  { description: 'ActivityLogEntry (spec 2.3)' },
);

/** Query of GET /api/admin/activity-log (spec 4.6). */
export const ActivityLogQuery = Type.Object(
  {
    user_id: Type.Optional(Type.Integer({ minimum: 0 })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    from_date: Type.Optional(IsoDate('entries on or after this UTC date')),
    to_date: Type.Optional(IsoDate('entries on or before this UTC date (inclusive)')),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'keyset cursor: entries older than the entry with this ID (next page)' })),
    after: Type.Optional(Type.Integer({ minimum: 1, description: 'keyset cursor: entries newer than the entry with this ID (previous page)' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
