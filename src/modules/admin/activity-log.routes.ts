/** GET /api/admin/activity-log (spec 4.6): the paginated audit log. Rules live in activity-log.service.ts. */
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.ts';
import { ListEnvelope, list, responses } from '../../http/envelope.ts';
import { Pagination } from '../../http/pagination.ts';
import { DateTime, IsoDate } from '../../http/schema-primitives.ts';
import { requireAuth, type App } from '../../http/route-types.ts';
import { COUNT_CAP } from '../activity/index.ts';
import { readActivityLog } from './activity-log.service.ts';

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

const Query = Type.Object(
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

/** Registers the activity-log route. */
export function activityLogRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    app.get('/api/admin/activity-log', {
      config: { permission: 'api.admin.activity-log.manage' },
      schema: {
        tags: ['administration'],
        summary: 'Read the activity (audit) log',
        description:
          'Newest first. An agency administrator sees the entries of their agency; SysOps see all. ' +
          'from_date and to_date are UTC dates; to_date includes the whole day. count is the number of entries ' +
          `matching the filters, exact up to ${COUNT_CAP}; above that it is ${COUNT_CAP} and the header ` +
          'X-Count-Capped: true is sent. For deep pages use the keyset cursors: before=<ID of the last entry> for the ' +
          'next page, after=<ID of the first entry> for the previous one (offset still applies on top).',
        querystring: Query,
        response: responses(ListEnvelope(ActivityLogEntry), [400, 401, 403, 429]),
      },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        const { entries, total, capped } = await readActivityLog(deps, auth, request.query);
        if (capped) void reply.header('x-count-capped', 'true');
        return list(entries, total, 'Activity log retrieved');
      },
    });
  };
}
