/**
 * buildApp: the composition root. Creates the Fastify instance, registers the request pipeline,
 * the OpenAPI generator and every module explicitly (no autoload), and checks at ready time that
 * every route declares a permission key (docs/security.md promise 7).
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { errorBody } from '../http/envelope.ts';
import { errorHandler, frameworkErrorHandler } from '../http/error-handler.ts';
import { boundIntegers, closeQuerystring } from '../http/input-guard.ts';
import { registerConsole, type ConsoleShell } from '../http/console.ts';
import { registerDocsRoutes, registerOpenApi } from '../http/openapi.ts';
import { registerMetrics } from '../http/metrics.ts';
import { maskedRequest } from '../http/log-masking.ts';
import { registerRequestIdLog, requestIdFor } from '../http/request-id.ts';
import { traceLogMixin } from '../lib/tracing.ts';
import { registerMethodChecks } from '../http/methods.ts';
import { registerSecurityHeaders } from '../http/security-headers.ts';
import { assertRoutePermissions, registerPipeline, type Lifecycle, type PresentedCredentials } from '../http/pipeline.ts';
import { registerIdempotency } from '../http/idempotency.ts';
import { registerReadHandlers } from '../http/read-handlers.ts';
import { assertUploadScopes } from '../http/upload.ts';
import type { App } from '../http/route-types.ts';
import { serializerCompiler } from '../http/serialization.ts';
import { parseFormBody, validatorCompiler } from '../http/validation.ts';
import { activityLogRoutes } from '../modules/people/admin/index.ts';
import { branchesRoutes } from '../modules/people/admin/index.ts';
import { rateLimitRoutes } from '../modules/people/admin/index.ts';
import { rolesRoutes } from '../modules/people/admin/index.ts';
import { branchAgentsRoutes } from '../modules/jobs/agents/index.ts';
import { AppError } from '../core/errors.ts';
import { authenticate, authRoutes, cachedAccountOf, createTokenCache, gatheredTokenLookup, SESSION_COOKIE, ssoRoutes } from '../modules/people/auth/index.ts';
import { recordActivity } from '../core/activity/index.ts';
import { jobsRoutes } from '../modules/jobs/jobs/index.ts';
import { jobNotesRoutes } from '../modules/jobs/job-notes/index.ts';
import { conversationsRoutes, inboundMailRoutes } from '../modules/jobs/conversations/index.ts';
import { smsRoutes } from '../modules/messaging/sms/index.ts';
import { jobFilesRoutes } from '../modules/jobs/job-files/index.ts';
import { fileIntegrityRoutes } from '../modules/jobs/job-files/index.ts';
import { calendarRoutes } from '../modules/jobs/calendar/index.ts';
import { systemRoutes } from '../modules/platform/system/index.ts';
import { backupRoutes } from '../modules/platform/backups/index.ts';
import { usersRoutes } from '../modules/people/users/index.ts';
import { slaRulesRoutes } from '../modules/jobs/sla-rules/index.ts';
import { devicesRoutes } from '../modules/platform/devices/index.ts';
import { timeRangesRoutes } from '../modules/jobs/time-ranges/index.ts';
import { appearanceRoutes } from '../modules/platform/appearance/index.ts';
import { workflowEngineRoutes } from '../modules/jobs/workflow-engine/index.ts';
import { addressesRoutes } from '../modules/people/addresses/index.ts';
import { tenantsRoutes } from '../modules/people/tenants/index.ts';
import { complianceRoutes } from '../modules/jobs/compliance/index.ts';
import { hazardsRoutes } from '../modules/jobs/hazards/index.ts';
import { tenanciesRoutes } from '../modules/jobs/tenancies/index.ts';
import { reportingRoutes } from '../modules/jobs/reporting/index.ts';
import { contractorsRoutes } from '../modules/people/contractors/index.ts';
import { gdprRoutes, smsReplyConsent } from '../modules/platform/gdpr/index.ts';
import { outboxLag, platformRoutes, queueFigures } from '../modules/platform/platform/index.ts';
import { webhooksRoutes } from '../modules/messaging/webhooks/index.ts';
import { slaRoutes } from '../modules/jobs/sla-reports/index.ts';
import { dashboardRoutes } from '../modules/insight/dashboard/index.ts';
import { analyticsRoutes } from '../modules/insight/analytics/index.ts';
import { searchRoutes } from '../modules/insight/search/index.ts';
import { reportSubscriptionsRoutes, reportsRoutes } from '../modules/insight/reports/index.ts';
import { weatherRoutes } from '../modules/jobs/weather/index.ts';
import { messagingRoutes } from '../modules/messaging/messaging/index.ts';
import { noticesRoutes } from '../modules/messaging/notices/index.ts';
import { BlacklistGuard, blacklistRoutes, loginThrottleTripped } from '../modules/platform/security/index.ts';
import { moneyRoutes } from '../modules/money/money/index.ts';
import { findLandlordRef, landlordsRoutes } from '../modules/money/landlords/index.ts';
import { rechargesRoutes } from '../modules/money/recharges/index.ts';
import { worksOrdersRoutes } from '../modules/money/works-orders/index.ts';
import { agenciesRoutes } from '../modules/platform/agencies/index.ts';
import { importsRoutes } from '../modules/platform/imports/index.ts';
import { LiveHub, liveRoutes } from '../modules/jobs/live/index.ts';
import { mcpRoutes } from '../modules/platform/mcp/index.ts';

export interface BuildOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** A ready pino logger (the server's: pretty in a terminal); takes precedence over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Shared draining flag (set by the server on SIGTERM). */
  lifecycle?: Lifecycle;
}

/** Paths whose values never reach a log line (docs/security.md promise 18). */
export const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.csrf_token',
];

/**
 * Builds the application.
 * @param deps configuration, database, clock, rate-limit store, Redis
 * @returns a Fastify instance ready to `listen` or `inject`
 * @throws Error at ready time when a route lacks a permission key
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const lifecycle = options.lifecycle ?? { draining: false };
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : {
          logger:
            options.logger === false
              ? false
              : { level: deps.config.logLevel, redact: { paths: REDACT, censor: '[redacted]' }, serializers: { req: maskedRequest }, ...traceLogMixin(), ...(typeof options.logger === 'object' ? options.logger : {}) },
        }),
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A client's X-Request-Id only when it is a bounded safe token (src/http/request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdFor,
    // During shutdown the pipeline's draining check answers 503 in the spec's envelope.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised by the router before any route runs (over-long or malformed paths) get the
    // spec's envelope too (docs/security.md promise 27).
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  registerRequestIdLog(app);
  // Client routes of the console (GET /jobs/<uuid>, /accept-invitation?token=...) get its app
  // shell; everything else, every /api and /docs path included, the spec's 404 envelope.
  const consoleApp: { shell?: ConsoleShell } = {};
  app.setNotFoundHandler(async (request, reply) => {
    if (consoleApp.shell && (await consoleApp.shell(request, reply))) return reply;
    return reply.status(404).send(errorBody(`Route ${request.method} ${request.url.split('?')[0]} not found`));
  });

  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // int32 bounds on every request integer without its own (docs/security.md promise 27).
    // No unknown query parameter passes silently (docs/api.md "Decisions").
    closeQuerystring(route);
    const schema = route.schema as Record<string, unknown> | undefined;
    for (const part of ['body', 'querystring', 'params']) boundIntegers(schema?.[part]);
    routes.push(route as RouteOptions);
  });
  app.addHook('onReady', async () => assertRoutePermissions(routes));

  registerSecurityHeaders(app);
  await app.register(cookie);
  // Form bodies are coerced like query strings (src/http/validation.ts).
  await app.register(formbody, { parser: parseFormBody });
  // Multipart parsing is registered by the modules with upload routes, on their scope only
  // (src/http/upload.ts registerUploadParsing); a route that takes multipart elsewhere stops the start.
  assertUploadScopes(app);
  await registerOpenApi(app, deps.config.version);
  // The blacklist is checked first in the pipeline, from an in-process copy (docs/security.md promise 28).
  const blacklist = new BlacklistGuard(deps, app.log);
  await blacklist.start();
  app.addHook('onClose', async () => blacklist.stop());
  const loginGuard = { accountBlocked: (userId: number) => blacklist.isAccountBlocked(userId), throttled: (ip: string) => loginThrottleTripped(deps, blacklist, ip) };
  // Token lookups reused for a few seconds under an unchanged auth epoch (docs/security.md).
  const tokenCache = createTokenCache();
  // 405 and 415 from the registered routes, before the pipeline authenticates (docs/api.md "Errors").
  registerMethodChecks(app);
  registerPipeline(app, deps, lifecycle, {
    sessionCookie: SESSION_COOKIE,
    authenticate: (presented, epoch) => authenticate(deps, presented, { cache: tokenCache, epoch }),
    cachedAccount: (presented) => cachedAccountOf(tokenCache, presented),
    recordDenial: (auth, ip, at, details) =>
      recordActivity(deps.db, { auth, ip }, at, { action: 'authorization.deny', resourceType: 'route', details }),
    blacklist,
  });
  // Read-your-writes with a read replica (docs/operations.md "Read replicas"): a signed-in person's
  // write notes the primary's WAL position before its answer is sent (src/db/replica.ts noteWrite).
  // Registered only with a replica: without one, requests pay no hook for it.
  if (deps.reads.hasReplica) {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.auth && request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') await deps.reads.noteWrite(request.auth.userId);
      return payload;
    });
  }
  // Live updates: one hub per instance, fed by the database's notifications (docs/live-updates.md).
  // A session-ending change (revocation, logout, a disabled or blocked account, a suspended agency)
  // ends the streams it concerns at once, on every instance (docs/live-updates.md "When a stream
  // ends"); on `all` (the blacklist, roles) the blacklist copy is read afresh first.
  const liveHub = new LiveHub(deps, {
    onError: (err) => app.log.error({ err: err.message }, 'live updates: delivery failed'),
    onAuthChange: (change) => {
      if (change === 'all') blacklist.invalidate();
    },
  });
  // The streams' session checks (one per stream and heartbeat) read their tokens in gathered queries.
  const liveTokenLookup = gatheredTokenLookup(deps);
  const liveAuth = {
    sessionCookie: SESSION_COOKIE,
    stillSignedIn: async (presented: PresentedCredentials, userId: number) => {
      // A refusal (AppError) ends the stream; a failed check (the database unreachable, its pool
      // exhausted) is thrown, and the stream stays until a check can be made (live.service.ts).
      const auth = await authenticate(deps, presented, { cache: tokenCache, epoch: null }, liveTokenLookup).catch((err: unknown) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      return auth !== null && auth.userId === userId && !(await blacklist.isAccountBlocked(userId));
    },
  };
  registerIdempotency(app, deps);
  registerReadHandlers(app);
  registerMetrics(app, deps, { queueFigures: () => queueFigures(deps.db), outboxLag: () => outboxLag(deps.db) });

  const modules: Array<(app: App) => Promise<void>> = [
    authRoutes(deps, loginGuard),
    ssoRoutes(deps, loginGuard),
    usersRoutes(deps, findLandlordRef),
    activityLogRoutes(deps),
    jobsRoutes(deps),
    systemRoutes(deps, lifecycle, { blacklistFeedProblem: () => blacklist.subscriptionProblem() }),
    backupRoutes(deps),
    slaRulesRoutes(deps),
    devicesRoutes(deps),
    timeRangesRoutes(deps),
    appearanceRoutes(deps),
    workflowEngineRoutes(deps),
    jobNotesRoutes(deps),
    conversationsRoutes(deps),
    inboundMailRoutes(deps),
    smsRoutes(deps, smsReplyConsent),
    jobFilesRoutes(deps),
    fileIntegrityRoutes(deps),
    calendarRoutes(deps),
    addressesRoutes(deps),
    tenantsRoutes(deps),
    contractorsRoutes(deps),
    gdprRoutes(deps),
    rolesRoutes(deps),
    branchesRoutes(deps),
    rateLimitRoutes(deps, routes),
    branchAgentsRoutes(deps),
    webhooksRoutes(deps),
    slaRoutes(deps),
    dashboardRoutes(deps),
    analyticsRoutes(deps),
    searchRoutes(deps),
    reportSubscriptionsRoutes(deps),
    reportsRoutes(deps),
    weatherRoutes(deps),
    messagingRoutes(deps),
    noticesRoutes(deps),
    blacklistRoutes(deps, blacklist),
    moneyRoutes(deps),
    landlordsRoutes(deps),
    rechargesRoutes(deps),
    worksOrdersRoutes(deps),
    platformRoutes(deps),
    complianceRoutes(deps),
    hazardsRoutes(deps),
    tenanciesRoutes(deps),
    reportingRoutes(deps),
    agenciesRoutes(deps),
    importsRoutes(deps),
    liveRoutes(deps, liveHub, liveAuth),
    mcpRoutes(deps, routes),
  ];
  for (const mod of modules) await app.register(mod);
  await registerDocsRoutes(app);
  consoleApp.shell = await registerConsole(app);
  return app;
}
