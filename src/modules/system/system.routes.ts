/**
 * GET /api/system/status (spec 4.17; API.md), and liveness and readiness for orchestrators at
 * /api/system/health/live and /api/system/health/ready.
 */
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.ts';
import { pingDatabase } from '../../db/database.ts';
import { DataEnvelope, ok, responses } from '../../http/envelope.ts';
import { errorBody } from '../../http/envelope.ts';
import type { Lifecycle } from '../../http/pipeline.ts';
import type { App } from '../../http/route-types.ts';
import { QueueBacklogCheck } from '../platform/index.ts';

type Check = 'ok' | 'down' | 'not_configured';

const Status = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
  version: Type.String(),
  uptime_s: Type.Optional(Type.Integer({ description: 'seconds since start (authenticated callers only)' })),
  checks: Type.Optional(
    Type.Object({
      database: Type.String({ description: 'ok | down' }),
      database_engine: Type.String({ description: 'pglite | postgres' }),
      cache: Type.String({ description: 'ok | down | not_configured (Redis)' }),
      rate_limit_store: Type.String({ description: 'redis | memory' }),
    }),
  ),
});

async function pingRedis(deps: AppDeps): Promise<Check> {
  if (!deps.redis) return 'not_configured';
  if (deps.redis.status !== 'ready') return 'down';
  try {
    await Promise.race([deps.redis.ping(), new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 1000))]);
    return 'ok';
  } catch {
    return 'down';
  }
}

/** Registers the system status and health routes. */
export function systemRoutes(deps: AppDeps, lifecycle: Lifecycle) {
  const backlog = new QueueBacklogCheck(deps);
  let lastWarnedAt = 0;
  return async function plugin(app: App): Promise<void> {
    /** GET /api/system/status: overall status; details only for authenticated callers. */
    app.get('/api/system/status', {
      config: { permission: 'public', rateLimit: {} },
      schema: {
        tags: ['system'],
        summary: 'Platform status',
        description:
          "Public. status is 'ok', 'degraded' (Redis down: the service keeps serving with in-memory rate limits) or " +
          "'down' (database unreachable, answered with 503). uptime_s and checks are shown to authenticated callers only.",
        // 503 carries the same data envelope with status 'down' (not the error envelope).
        response: { ...responses(DataEnvelope(Status), [429]), 503: DataEnvelope(Status) },
      },
      handler: async (request, reply) => {
        const [database, cache] = await Promise.all([pingDatabase(deps.db).then((up): Check => (up ? 'ok' : 'down')), pingRedis(deps)]);
        const status = database === 'down' ? 'down' : cache === 'down' ? 'degraded' : 'ok';
        const data: Record<string, unknown> = { status, version: deps.config.version };
        if (request.auth) {
          data.uptime_s = Math.floor((Date.now() - deps.startedAt.getTime()) / 1000);
          data.checks = { database, database_engine: deps.engine, cache, rate_limit_store: deps.limiter.backend };
        }
        if (status === 'down') void reply.status(503);
        return ok(data as never, `Platform status: ${status}`);
      },
    });

    /** Liveness: the process answers. Never touches the database. */
    app.get('/api/system/health/live', {
      config: { permission: 'public' },
      schema: { tags: ['system'], summary: 'Liveness probe', response: responses(DataEnvelope(Type.Object({ status: Type.String() })), [429]) },
      handler: async () => ok({ status: 'ok' }, 'Alive'),
    });

    /**
     * Readiness: the process is not shutting down, the database answers, and Redis answers when
     * REDIS_URL is set (without it logins answer 503, so a balancer should route elsewhere); else 503.
     */
    app.get('/api/system/health/ready', {
      config: { permission: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Readiness probe',
        description:
          '200 when the database answers, Redis answers (when configured) and the process is not shutting down; else 503. ' +
          'A queue over its backlog thresholds (CARETAKER_QUEUE_BACKLOG_WARN, CARETAKER_QUEUE_BACKLOG_WARN_AGE_S) is named in ' +
          '`warnings` while the answer stays 200 (docs/operations.md).',
        response: responses(
          DataEnvelope(Type.Object({ status: Type.String(), warnings: Type.Optional(Type.Array(Type.String(), { description: 'queue backlog warnings' })) })),
          [429, 503],
        ),
      },
      handler: async (request, reply) => {
        if (lifecycle.draining) return reply.status(503).send(errorBody('Shutting down'));
        if (!(await pingDatabase(deps.db))) return reply.status(503).send(errorBody('Database unreachable'));
        if ((await pingRedis(deps)) === 'down') return reply.status(503).send(errorBody('Redis unreachable'));
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
