/** GET /api/admin/activity-log (spec 4.6): the paginated audit log. Rules live in activity-log.service.ts. */
import type { AppDeps } from '../../../app-deps.ts';
import { ListEnvelope, listOfJson, responses } from '../../../http/envelope.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { COUNT_CAP } from '../../../core/activity/index.ts';
import { ActivityLogEntry, ActivityLogQuery } from './activity-log.schemas.ts';
import { readActivityLogJson } from './activity-log.service.ts';

export { ActivityLogEntry } from './activity-log.schemas.ts';


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
        querystring: ActivityLogQuery,
        response: responses(ListEnvelope(ActivityLogEntry), [400, 401, 403, 429]),
      },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        // The page is written as JSON by the database (src/db/json-sql.ts); the bytes are those of list().
        const { json, total, capped } = await readActivityLogJson(deps, auth, request.query);
        if (capped) void reply.header('x-count-capped', 'true');
        return reply.type('application/json; charset=utf-8').send(listOfJson(json, total, 'Activity log retrieved'));
      },
    });
  };
}
