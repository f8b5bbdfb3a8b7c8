/**
 * The request pipeline (docs/architecture.md "Request flow"), registered once on the root instance:
 *
 * onRequest: draining check -> rate limit per IP -> authenticate -> rate limit per account ->
 * authorize (route's permission key; 403 before any body is read) ; preValidation: NUL and lone
 * surrogates refused, then on the write routes only (a route hook) unknown body fields named in
 * X-Ignored-Fields, CSRF on POST, PUT, PATCH and DELETE, and the body's `csrf_token` field
 * removed ; onSend: rate-limit and security headers.
 *
 * The CSRF field belongs to the pipeline, not to the routes: an onRoute hook adds the optional
 * `csrf_token` property to the body schema of every write that takes a token (so the OpenAPI
 * document describes it), and the preValidation hook checks the token and removes the field, so
 * no route schema declares it and no handler or service sees it.
 *
 * Every route declares `config.permission`; `assertRoutePermissions` refuses to start otherwise.
 * The pipeline depends on no feature module: authentication and the activity log are injected as
 * `PipelineServices` by the composition root (src/main/app.ts; docs/architecture.md, layers).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Readable } from 'node:stream';
import type { AppDeps } from '../app-deps.ts';
import { isValidRoutePermission } from '../permissions/catalogue.ts';
import type { AuthContext } from '../core/auth-context.ts';
import { consumeCsrfToken, dropCsrfField, presentedCsrfToken, takesCsrfToken, withCsrfField } from './csrf.ts';
import { AppError } from '../core/errors.ts';
import { reportIgnoredFields } from './ignored-fields.ts';
import { isUpload } from './upload.ts';
import { assertCleanInput } from './input-guard.ts';
import { rateLimitError, rateLimitHeaders, type LimitResult, type RequestCount } from '../core/rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Permission key from the catalogue, or 'public' | 'authenticated' | 'bearer'. */
    permission?: string;
    /** false on the few writes that need no CSRF token (the token-issuing endpoints). */
    csrf?: boolean;
    /** Refuse with 503 when the shared rate-limit store is down (login, token issue). */
    failClosed?: boolean;
    /** Per-route overrides of the configured rate limits. */
    rateLimit?: { ipMax?: number; accountMax?: number; windowS?: number };
    /**
     * false on public routes whose answer is the same for everyone (the console's files,
     * src/http/console.ts): a session cookie or bearer token sent along is not looked up, so the
     * answer keeps its own caching headers instead of `no-store`.
     */
    credentials?: boolean;
    /**
     * false on a read whose handler sends its answer outside onSend (a hijacked reply: the
     * Server-Sent Events stream), so it never runs overlapped with its admission.
     */
    overlap?: boolean;
  }
  interface FastifyRequest {
    /** The caller; null on public routes without credentials. */
    auth: AuthContext | null;
    /** The tightest rate-limit state seen for this request, for the response headers. */
    rateLimit: LimitResult | null;
    /**
     * Set on a multipart upload that carries no X-CSRF-Token: consumes the token of its form
     * field `csrf_token` once the upload reader (src/http/upload.ts) has read the form, before
     * the handler acts (spec 5.3). Null otherwise.
     */
    deferredCsrf: ((token: string | undefined) => Promise<void>) | null;
    /**
     * Set on an overlapped read (see `registerPipeline`): the request's rate-limit count and
     * auth-epoch check, still in flight while the handler runs. onSend awaits it before any byte
     * of the answer is sent, and answers its error instead. Null otherwise.
     */
    admission: Promise<void> | null;
    /**
     * The request's rate-limit round trip (both counters and the auth epoch, one Redis script):
     * `read` is null when Redis did not answer it. A handler that needs to know whether Redis
     * answers may await it instead of asking Redis again (GET /api/system/status). Null before
     * onRequest counted the request.
     */
    limitTrip: Promise<RequestCount> | null;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * How recent (milliseconds) the epoch an overlapped read authenticates under must be: a change to
 * the caller's own access made on another instance within this time before the request is answered
 * 503 "retry" instead of served under the new access (see `overlappedRead`).
 */
const OVERLAP_EPOCH_AGE_MS = 1_000;

/**
 * True when two lookups of one token grant the same access: account, token, role, scope and
 * permission keys. An overlapped read's answer is released only when its caller's access did
 * not change while it ran.
 */
function sameAccess(a: AuthContext, b: AuthContext): boolean {
  if (a.userId !== b.userId || a.tokenId !== b.tokenId || a.roleId !== b.roleId || a.agencyId !== b.agencyId || a.branchId !== b.branchId) return false;
  if (a.contractorId !== b.contractorId || a.tenantId !== b.tenantId || a.landlordId !== b.landlordId || a.level !== b.level) return false;
  if (a.permissions.size !== b.permissions.size) return false;
  for (const key of a.permissions) if (!b.permissions.has(key)) return false;
  return true;
}

/** True when `auth` may use a route that needs `permission` (a catalogue key, or the markers `authenticated` and `bearer`). */
function grants(auth: AuthContext, permission: string): boolean {
  return permission === 'authenticated' || permission === 'bearer' || auth.permissions.has(permission);
}

/** What the pipeline asks the blacklist (src/modules/platform/security BlacklistGuard). */
export interface BlockCheck {
  isAddressBlocked(ip: string): Promise<boolean>;
  isAccountBlocked(userId: number): Promise<boolean>;
}

/** 403 for a blacklisted address or account (the same text for both, no detail). */
const blocked = () => new AppError('forbidden', 'Access denied');

/** Draining flag shared with the shutdown code: true once SIGTERM arrives. */
export interface Lifecycle {
  draining: boolean;
}

function routeKey(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  return url ? `${request.method} ${url}` : 'unmatched';
}

function tighter(a: LimitResult | null, b: LimitResult): LimitResult {
  if (!a) return b;
  return b.remaining / b.limit < a.remaining / a.limit ? b : a;
}

/** Text of the route's required access, for OpenAPI and errors. */
export function routePermission(route: Pick<RouteOptions, 'config'>): string | undefined {
  return (route.config as { permission?: string } | undefined)?.permission;
}

/** Throws at start-up when a route lacks a valid `config.permission` (docs/security.md promise 7). */
export function assertRoutePermissions(routes: RouteOptions[]): void {
  const missing = routes
    .filter((r) => !isValidRoutePermission(routePermission(r)))
    .map((r) => `${String(r.method)} ${r.url} (${String(routePermission(r) ?? 'no permission')})`);
  if (missing.length > 0) {
    throw new Error(`Refusing to start: routes without a valid permission key: ${missing.join(', ')}`);
  }
}

/** Credentials a request presents: the Authorization header and the session cookie, either may be absent. */
export interface PresentedCredentials {
  authorization?: string | undefined;
  sessionCookie?: string | undefined;
}

/** What the pipeline needs from the feature modules, supplied by the composition root (src/main/app.ts). */
export interface PipelineServices {
  /** Name of the session cookie (spec 5.2). */
  sessionCookie: string;
  /**
   * Resolves the caller (spec 5.1, 5.2).
   * @param epoch the auth epoch read before the call (src/core/auth-epoch.ts); null forbids reusing a cached lookup
   * @throws AppError 401 for missing or bad credentials
   */
  authenticate(presented: PresentedCredentials, epoch: string | null): Promise<AuthContext>;
  /**
   * The account (and its agency, null for SysOps) of a token looked up before by this process, so
   * the address's, account's and agency's rate limits go in one Redis round trip; undefined when unknown.
   */
  cachedAccount(presented: PresentedCredentials): { userId: number; agencyId: number | null } | undefined;
  /** Records a refused request (`authorization.deny`, resource type `route`) in the activity log at `at`. */
  recordDenial(auth: AuthContext, ip: string, at: Date, details: { method: string; route: string | undefined; permission: string }): Promise<void>;
  /** The blacklist copy, checked first on every request (docs/security.md promise 28; src/modules/platform/security). */
  blacklist: BlockCheck;
}

/**
 * Registers the pipeline hooks on the root instance.
 * @param lifecycle the draining flag set on SIGTERM
 * @param services authentication, the activity log and the blacklist copy (src/modules/platform/security), injected by the composition root
 */
export function registerPipeline(app: FastifyInstance, deps: AppDeps, lifecycle: Lifecycle, services: PipelineServices): void {
  const { authenticate, sessionCookie, blacklist } = services;
  const { limiter, config } = deps;
  app.decorateRequest('auth', null);
  app.decorateRequest('rateLimit', null);
  app.decorateRequest('deferredCsrf', null);
  app.decorateRequest('admission', null);
  app.decorateRequest('limitTrip', null);

  /**
   * The writes' preValidation, after the input guard: unknown body fields named in
   * X-Ignored-Fields, an absent body read as {}, the CSRF token consumed (or left to the upload
   * reader), then the body's csrf_token field removed.
   */
  const checkWrite = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!WRITE_METHODS.has(request.method)) return;
    reportIgnoredFields(request, reply);
    // A write without a body (CSRF token in the header) validates as an empty object, so a route's
    // required fields are reported by name instead of "body".
    if (request.body === undefined || request.body === null) request.body = {};
    if (request.routeOptions.config.csrf !== false && request.auth) {
      const presented = presentedCsrfToken(request);
      // A multipart form is read by the upload route itself (src/http/upload.ts); its csrf_token
      // field is checked there, before the handler acts. Only routes that declare multipart take
      // one (src/http/methods.ts answers 415 elsewhere).
      if (presented === undefined && isUpload(request)) {
        const auth = request.auth;
        request.deferredCsrf = (token) => consumeCsrfToken(deps, auth, token);
        return;
      }
      await consumeCsrfToken(deps, request.auth, presented);
    }
    // The token has done its work: validation and the handler see the body without it.
    dropCsrfField(request.body);
  };

  // Every route added after this: the body schema of a CSRF-checked write declares the optional
  // csrf_token field (a schema that still declares it itself is left as it is).
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: unknown } | undefined;
    if (schema?.body && takesCsrfToken(route)) schema.body = withCsrfField(schema.body);
    const methods = [route.method].flat().map((m) => String(m).toUpperCase());
    // A route hook on the writes only: a read runs none of their checks.
    if (methods.some((m) => WRITE_METHODS.has(m))) route.preValidation = [checkWrite, ...[route.preValidation ?? []].flat()] as RouteOptions['preValidation'];
  });

  const note = (request: FastifyRequest, result: LimitResult) => {
    request.rateLimit = tighter(request.rateLimit, result);
    if (!result.allowed) throw rateLimitError(result);
  };

  /** Accounts refused by a rate limit, with the end of that window (ms since epoch): their reads are not overlapped until then. */
  const refused = new Map<number, number>();
  const refusedRecently = (userId: number): boolean => {
    const until = refused.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    refused.delete(userId);
    return false;
  };
  const noteFor = (request: FastifyRequest, userId: number, result: LimitResult) => {
    if (result.allowed) return note(request, result);
    if (refused.size >= 10_000) refused.clear();
    refused.set(userId, result.resetAt * 1000);
    note(request, result);
  };

  /**
   * Counts a request against its agency's limit, all its routes and accounts together
   * (docs/operations.md "Fairness between agencies"), so one agency's traffic cannot take the
   * instances' time from the others; counted in the default window (an account of no agency,
   * SysOps, has none).
   */
  const agencyCounter = (agencyId: number) => ({ key: `agency:${agencyId}`, max: config.rateLimit.agencyMax });

  /**
   * An overlapped read (docs/architecture.md "Overlapped reads"): a GET or HEAD from a token this
   * process has looked up before starts its handler while the request's Redis round trip (rate
   * limits and auth epoch) is in flight, instead of after it. The caller is authenticated from
   * the token cache under the epoch this process read last; when the round trip returns, the
   * counts are checked as usual (429), and if the epoch moved the token is looked up again and
   * the answer is released only when the access is the same (else 401, 403, or 503 "retry").
   * onSend awaits that admission before any byte is written, so nothing is answered that the
   * ordinary order would have refused. Anything unusual (no cached lookup, a lookup that would
   * refuse, a blocked account, a missing permission, an account refused in its current window)
   * returns null, and the request takes the ordinary order.
   * @returns the admission (`admitted` rejects with the error to answer), or null to wait as usual
   */
  const overlappedRead = async (
    request: FastifyRequest,
    counting: Promise<RequestCount>,
    credentials: PresentedCredentials,
    permission: string,
    knownAccount: number,
    countAccount: (trip: RequestCount, userId: number) => Promise<LimitResult>,
    agencyCount: (trip: RequestCount, agencyId: number | null) => Promise<LimitResult> | null,
  ): Promise<{ admitted: Promise<void> } | null> => {
    const epochUsed = deps.authEpoch.lastKnown(OVERLAP_EPOCH_AGE_MS);
    if (epochUsed === null) return null;
    const auth = await authenticate(credentials, epochUsed).catch(() => null);
    if (!auth || auth.userId !== knownAccount || (await blacklist.isAccountBlocked(auth.userId))) return null;
    if (!grants(auth, permission)) return null;
    request.auth = auth;
    const admitted = counting.then(async (trip) => {
      noteFor(request, auth.userId, trip.first);
      const epoch = deps.authEpoch.current(trip.read);
      if (epoch !== epochUsed) {
        const fresh = await authenticate(credentials, epoch);
        if (!sameAccess(auth, fresh)) {
          const changed = new AppError('unavailable', 'Your access changed while this request ran. Please retry.');
          changed.headers = { 'retry-after': '1' };
          throw changed;
        }
      }
      noteFor(request, auth.userId, await countAccount(trip, auth.userId));
      const agency = await agencyCount(trip, auth.agencyId);
      if (agency) noteFor(request, auth.userId, agency);
    });
    return { admitted };
  };

  app.addHook('onRequest', async (request, reply) => {
    if (lifecycle.draining) {
      void reply.header('connection', 'close');
      throw new AppError('unavailable', 'The service is shutting down. Please retry.');
    }
    // Blacklisted address: refused before any database or rate-limit work (in-process copy).
    if (await blacklist.isAddressBlocked(request.ip)) throw blocked();
    const cfg = request.routeOptions.config;
    const route = routeKey(request);
    // An administrator's override of this route (GET/PUT /api/admin/rate-limits) wins.
    const limits = { ...cfg.rateLimit, ...(await deps.rateLimitRules.lookup(route)) };
    const windowS = limits.windowS ?? config.rateLimit.windowS;
    const failClosed = cfg.failClosed === true;
    const accountCounter = (userId: number) => ({ key: `acct:${route}:${userId}`, max: limits.accountMax ?? config.rateLimit.accountMax });

    const permission = cfg.permission ?? 'public';
    const presented = {
      authorization: request.headers.authorization,
      sessionCookie: request.cookies?.[sessionCookie],
    };
    const credentials = permission === 'bearer' ? { authorization: presented.authorization } : presented;
    // One round trip: the address's counter, the account's and its agency's when this process
    // knows the token's account, and the auth epoch that says whether a cached token lookup may be
    // used. The agency's counter shares the trip when the route keeps the default window.
    const known = permission === 'public' ? undefined : services.cachedAccount(credentials);
    const knownAccount = known?.userId;
    const knownAgency = known && known.agencyId !== null && windowS === config.rateLimit.windowS ? known.agencyId : null;
    const counting = limiter.consumeRequest(
      { key: `ip:${route}:${request.ip}`, max: limits.ipMax ?? config.rateLimit.ipMax },
      knownAccount === undefined ? null : accountCounter(knownAccount),
      knownAgency === null ? null : agencyCounter(knownAgency),
      windowS,
      deps.authEpoch.redisKey ?? '',
      { failClosed },
    );
    // Awaited below (or by the admission); until then a refusal of a fail-closed route must not
    // count as an unhandled rejection.
    counting.catch(() => undefined);
    request.limitTrip = counting;
    // The account's count: from the round trip when it counted this account, else counted now.
    const countAccount = async (trip: RequestCount, userId: number): Promise<LimitResult> => {
      if (trip.second && knownAccount === userId) return trip.second;
      const counter = accountCounter(userId);
      return limiter.consume(counter.key, counter.max, windowS, { failClosed });
    };
    // The agency's count: from the round trip when it counted this agency, else counted now (none for SysOps).
    const agencyCount = (trip: RequestCount, agencyId: number | null): Promise<LimitResult> | null => {
      if (agencyId === null) return null;
      if (trip.third && knownAgency === agencyId) return Promise.resolve(trip.third);
      const counter = agencyCounter(agencyId);
      return limiter.consume(counter.key, counter.max, config.rateLimit.windowS, { failClosed });
    };
    if (knownAccount !== undefined && limiter.backend === 'redis' && READ_METHODS.has(request.method) && cfg.overlap !== false && !refusedRecently(knownAccount)) {
      const overlapped = await overlappedRead(request, counting, credentials, permission, knownAccount, countAccount, agencyCount);
      if (overlapped) {
        // Marked handled here; onSend awaits it (and sees its error) before any byte is sent.
        overlapped.admitted.catch(() => undefined);
        request.admission = overlapped.admitted;
        return;
      }
    }
    const trip = await counting;
    note(request, trip.first);
    const epoch = deps.authEpoch.current(trip.read);

    if (permission === 'public') {
      // Public routes may still tell an authenticated caller more (status details).
      if (cfg.credentials !== false && (presented.authorization || presented.sessionCookie)) {
        request.auth = await authenticate(presented, epoch).catch(() => null);
        if (request.auth && (await blacklist.isAccountBlocked(request.auth.userId))) throw blocked();
      }
      return;
    }
    if (permission === 'bearer' && !presented.authorization) throw new AppError('invalid_bearer');
    const auth = await authenticate(credentials, epoch);
    request.auth = auth;
    if (await blacklist.isAccountBlocked(auth.userId)) throw blocked();
    note(request, await countAccount(trip, auth.userId));
    const agency = await agencyCount(trip, auth.agencyId);
    if (agency) note(request, agency);

    if (!grants(auth, permission)) {
      await services.recordDenial(auth, request.ip, deps.clock.now(), { method: request.method, route: request.routeOptions.url, permission });
      throw new AppError('forbidden');
    }
  });

  // NUL and lone surrogates anywhere in path, query or body: 400 before any other work. A callback
  // hook (it awaits nothing); the writes' checks below are route hooks of the writes.
  app.addHook('preValidation', (request, _reply, done) => {
    assertCleanInput(request);
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // An overlapped read's answer waits for its admission; a refusal replaces it (the error's
    // answer passes through here again, with nothing left to wait for).
    const admission = request.admission;
    if (admission) {
      request.admission = null;
      await admission.catch((err: unknown) => {
        // The refused answer is not sent: a file being streamed is closed.
        if (payload instanceof Readable) payload.destroy();
        throw err;
      });
    }
    if (request.rateLimit && !reply.hasHeader('x-ratelimit-limit')) {
      void reply.headers(rateLimitHeaders({ ...request.rateLimit, allowed: true }));
    }
    // While draining, every answer closes its connection, so keep-alive clients move to another
    // instance and the process need not wait for their idle timeout.
    if (lifecycle.draining) void reply.header('connection', 'close');
    // X-Content-Type-Options, X-Frame-Options and Referrer-Policy: src/http/security-headers.ts, from onRequest.
    if (request.auth || request.routeOptions.config.permission !== 'public') {
      void reply.header('cache-control', 'no-store');
    }
    if (request.protocol === 'https') {
      void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    return payload;
  });
}
