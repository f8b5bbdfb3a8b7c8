/**
 * GET /api/system/status (spec 4.17; docs/api.md), behind authentication like every /api endpoint
 * (spec 5), and the unauthenticated liveness and readiness probes for load balancers and
 * orchestrators outside /api: GET /livez and GET /readyz (docs/operations.md).
 */
import { Type, type TSchema } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { pingDatabase } from '../../../db/database.ts';
import { answersWithin } from '../../../lib/concurrency.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { errorBody } from '../../../http/envelope.ts';
import { ERROR_TABLE } from '../../../core/errors.ts';
import type { Lifecycle } from '../../../http/pipeline.ts';
import type { RequestCount } from '../../../core/rate-limit.ts';
import type { App } from '../../../http/route-types.ts';
import { QueueBacklogCheck } from '../platform/index.ts';

type Check = 'ok' | 'down' | 'not_configured';

const Status = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
  version: Type.String(),
  uptime_s: Type.Integer({ description: 'seconds since start' }),
  checks: Type.Object({
      database: Type.String({ description: 'ok | down' }),
      database_engine: Type.String({ description: 'pglite | postgres' }),
      cache: Type.String({ description: 'ok | down | not_configured (Redis)' }),
      rate_limit_store: Type.String({ description: 'redis | memory' }),
  }),
});

/** 503 of the status: the error envelope (spec 7) with the status beside it. */
const STATUS_DOWN: Record<number, TSchema> = {
  503: Type.Object({ success: Type.Literal(false), error: Type.String(), data: Status }, { description: 'Database unreachable (status down)' }),
};

const Probe = DataEnvelope(Type.Object({ status: Type.String() }));

/** Redis's PING within a second: 'ok', 'down' (no answer, an error, or not connected) or 'not_configured'. */
async function pingRedis(deps: AppDeps): Promise<Check> {
  if (!deps.redis) return 'not_configured';
  if (deps.redis.status !== 'ready') return 'down';
  return (await answersWithin(deps.redis.ping(), 1_000)) ? 'ok' : 'down';
}

/**
 * Redis's check for the status read: 'ok' when Redis answered this request's own rate-limit round
 * trip (src/http/pipeline.ts `limitTrip`), so no second command asks what that one just showed;
 * otherwise (the trip fell back to memory, or there was none) a PING within a second, as
 * `pingRedis`.
 * @param limitTrip the request's rate-limit round trip, or null
 */
async function redisCheck(deps: AppDeps, limitTrip: Promise<RequestCount> | null): Promise<Check> {
  if (!deps.redis) return 'not_configured';
  const trip = limitTrip ? await limitTrip.catch(() => null) : null;
  if (trip && trip.read !== null) return 'ok';
  return pingRedis(deps);
}

/**
 * What readiness needs from parts built by the composition root (src/main/app.ts), passed in
 * explicitly: `blacklistFeedProblem()` is why blacklist changes of other instances do not arrive
 * through Redis, or null when they do (docs/security.md "Blacklist").
 */
export interface ReadinessChecks {
  blacklistFeedProblem: () => string | null;
}

/**
 * Registers the system status and health routes. `lifecycle` tells readiness whether the process
 * is draining; `readiness` carries the blacklist feed's check (docs/operations.md).
 */
export function systemRoutes(deps: AppDeps, lifecycle: Lifecycle, readiness: ReadinessChecks) {
  const backlog = new QueueBacklogCheck(deps);
  let lastWarnedAt = 0;
  return async function plugin(app: App): Promise<void> {
    /**
     * GET /api/system/status: overall status and its checks, for any authenticated caller.
     * 200 { status: ok | degraded, version, uptime_s, checks }; 503 in the error envelope with the
     * same `data` (status down) when the database is unreachable.
     */
    app.get('/api/system/status', {
      config: { permission: 'authenticated', rateLimit: {} },
      schema: {
        tags: ['system'],
        summary: 'Platform status',
        description:
          "status is 'ok', 'degraded' (Redis down: the service keeps serving with in-memory rate limits) or " +
          "'down' (database unreachable: 503 in the error envelope, the same data beside `error`). Load balancers " +
          'use the unauthenticated GET /livez and GET /readyz instead.',
        response: { ...responses(DataEnvelope(Status), [401, 429]), ...STATUS_DOWN },
      },
      handler: async (request, reply) => {
        const [database, cache] = await Promise.all([pingDatabase(deps.db).then((up): Check => (up ? 'ok' : 'down')), redisCheck(deps, request.limitTrip)]);
        const status = database === 'down' ? 'down' : cache === 'down' ? 'degraded' : 'ok';
        const data = {
          status,
          version: deps.config.version,
          uptime_s: Math.floor((Date.now() - deps.startedAt.getTime()) / 1000),
          checks: { database, database_engine: deps.engine, cache, rate_limit_store: deps.limiter.backend },
        };
        if (status === 'down') return reply.status(503).send(errorBody(ERROR_TABLE.unavailable.message(), { data }) as never);
        return ok(data as never, `Platform status: ${status}`);
      },
    });

    /** GET /livez: liveness, the process answers. Never touches the database. No authentication. */
    app.get('/livez', {
      config: { permission: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness probe',
        description: 'For orchestrators (restart when it fails): 200 while the process runs; never touches the database. No authentication.',
        response: responses(Probe, [429]),
      },
      handler: async () => ok({ status: 'ok' }, 'Alive'),
    });

    /**
     * Readiness: the process is not shutting down, the database answers, and Redis answers when
     * REDIS_URL is set (without it logins answer 503, so a balancer should route elsewhere) and the
     * blacklist change feed is subscribed (docs/security.md "Blacklist"); else 503.
     */
    app.get('/readyz', {
      config: { permission: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Readiness probe',
        description:
          'For load balancers (route elsewhere when it fails): 200 when the database answers, Redis answers (when ' +
          'configured), the blacklist change feed is subscribed (when Redis is configured) and the process is not shutting down; ' +
          'else 503 in the error envelope. No authentication. A queue over its backlog thresholds (CARETAKER_QUEUE_BACKLOG_WARN, ' +
          'CARETAKER_QUEUE_BACKLOG_WARN_AGE_S) is named in `warnings` while the answer stays 200 (docs/operations.md).',
        response: responses(
          DataEnvelope(Type.Object({ status: Type.String(), warnings: Type.Optional(Type.Array(Type.String(), { description: 'queue backlog warnings' })) })),
          [429, 503],
        ),
      },
      handler: async (request, reply) => {
        if (lifecycle.draining) return reply.status(503).send(errorBody('Shutting down'));
        if (!(await pingDatabase(deps.db))) return reply.status(503).send(errorBody('Database unreachable'));
        if ((await pingRedis(deps)) === 'down') return reply.status(503).send(errorBody('Redis unreachable'));
        const feed = readiness.blacklistFeedProblem();
        if (feed) return reply.status(503).send(errorBody(feed));
        const warnings = await backlog.warnings();
        if (warnings.length === 0) return ok({ status: 'ready' }, 'Ready');
        if (Date.now() - lastWarnedAt >= 60_000) {
          lastWarnedAt = Date.now();
          request.log.warn({ warnings }, 'queue backlog over its threshold');
        }
        return ok({ status: 'ready', warnings }, 'Ready, with warnings');
      },
    });
  };
}
