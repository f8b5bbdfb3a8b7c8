/** Rate-limit settings per route, read and changed at run time by SysOps (docs/api.md "Rate limits"). */
import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { Pagination } from '../../../http/pagination.ts';
import { actorOf, type App } from '../../../http/route-types.ts';
import { listRouteLimits, setRouteLimits } from './rate-limits.service.ts';

const Settings = { ip_max: Type.Integer(), account_max: Type.Integer(), window_s: Type.Integer({ description: 'seconds' }) };

const RouteLimits = Type.Object(
  {
    route: Type.String({ description: 'METHOD /path, as registered' }),
    method: Type.String(),
    path: Type.String(),
    ...Settings,
    overridden: Type.Boolean({ description: 'true when an administrator changed this route' }),
    defaults: Type.Object(Settings, { description: 'the configured settings without the override' }),
  },
  { description: 'Effective rate-limit settings of one route: requests per window per IP and per account' },
);

const Query = Type.Object(
  { q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'part of the route, e.g. /api/jobs' })), ...Pagination },
  { additionalProperties: false },
);

const Value = (max: number, description: string) => Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: max }), Type.Null()], { description }));

const Body = Type.Object(
  {
    route: Type.String({ minLength: 3, maxLength: 300, description: 'METHOD /path as listed, e.g. "GET /api/jobs/manage"' }),
    ip_max: Value(1_000_000, 'requests per window per IP address; null or absent: the default'),
    account_max: Value(1_000_000, 'requests per window per account; null or absent: the default'),
    window_s: Value(86_400, 'window length in seconds; null or absent: the default'),
    reset: Type.Optional(Type.Boolean({ description: 'true: remove the override and return to the defaults' })),
  },
  { additionalProperties: false },
);

/**
 * Registers GET and PUT /api/admin/rate-limits.
 * @param routes the app's registered routes (filled while modules register; read per request)
 */
export function rateLimitRoutes(deps: AppDeps, routes: RouteOptions[]) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/admin/rate-limits: effective settings of every API route. */
    app.get('/api/admin/rate-limits', {
      config: { permission: 'api.admin.rate-limits.manage' },
      schema: {
        tags: ['administration'],
        summary: 'List the rate-limit settings of every route',
        description: 'Per route: requests allowed per window per IP (ip_max) and per account (account_max), the window in seconds, whether an administrator overrode them, and the configured defaults. SysOps only.',
        querystring: Query,
        response: responses(ListEnvelope(RouteLimits), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await listRouteLimits(deps, routes, request.query.q);
        const { limit, offset } = request.query;
        return list(rows.slice(offset, offset + limit), rows.length, 'Rate limits retrieved');
      },
    });

    /** PUT /api/admin/rate-limits: overrides (or resets) the settings of one route. */
    app.put('/api/admin/rate-limits', {
      config: { permission: 'api.admin.rate-limits.manage' },
      schema: {
        tags: ['administration'],
        summary: 'Change the rate-limit settings of one route',
        description:
          'Sets ip_max, account_max and/or window_s of a route (values left out or null keep the default), or reset=true to return to the defaults. ' +
          'Takes effect at once on this instance and within 5 seconds on the others. SysOps only.',
        body: Body,
        response: responses(DataEnvelope(RouteLimits), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await setRouteLimits(deps, routes, actorOf(request), request.body), 'Rate limits updated'),
    });
  };
}
