/**
 * `Idempotency-Key` on every write (docs/api.md "Idempotency-Key"), one mechanism in the request
 * pipeline rather than per route. An authenticated POST, PUT, PATCH or DELETE carrying the header
 * (1 to 255 printable ASCII characters) is tied to its caller, its route ("METHOD /path?query")
 * and the SHA-256 of the route and its body (JSON and form bodies canonically, without
 * `csrf_token`; multipart bodies as their text fields and the file's SHA-256, src/http/upload.ts):
 *
 * - preHandler: a key already stored for the caller answers at once: another request under it is
 *   422; the first answer, once stored, is sent again (status, body, content-type and location)
 *   with `Idempotent-Replayed: true`; a first request still running is waited for up to 2 s, then
 *   409 with Retry-After: 1;
 * - handler: runs with the key's claim in `claimScope`: the first transaction the handler opens
 *   inserts the key's row (src/db/idempotency-claim.ts), so it commits with the write or not at
 *   all, and a concurrent duplicate is stopped before it writes;
 * - onSend: stores the answer in the claimed row (a 2xx answer of a handler that wrote nothing is
 *   stored too, so a repeat gets it).
 *
 * Keys live IDEMPOTENCY_TTL_S (24 h). The token-issuing writes (`config.csrf === false`: login,
 * mobile-auth) ignore the header: their answers carry credentials that are not kept. No other
 * secret is kept either (docs/security.md "Stored idempotent answers"): before a JSON answer is
 * stored, every field named in SECRET_FIELDS (a webhook's signing secret, a calendar feed key and
 * its URL, any token or password) is taken out, and the replay says which in
 * `Idempotent-Withheld` (paths such as `data.secret`).
 */
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { claimScope, ClaimTaken, type KeyClaim } from '../db/idempotency-claim.ts';
import { findStoredAnswer, IDEMPOTENCY_TTL_S, insertAnswered, releaseKey, storeAnswer, type StoredAnswer } from '../db/idempotency.repository.ts';
import { addSeconds } from '../lib/clock.ts';
import { responses } from './envelope.ts';
import { AppError, conflict, invalidParam } from '../core/errors.ts';
import { requestHash } from './idempotency.ts';
import type { App } from './route-types.ts';
import { isUpload } from './upload.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key claim of this write, or null. */
    idempotency: KeyClaim | null;
    /** True when the answer is a replay of the stored first answer. */
    idempotencyReplayed: boolean;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY = /^[\x21-\x7E]{1,255}$/;
/** Headers of the first answer that a replay repeats. */
const KEPT_HEADERS = ['content-type', 'location', 'x-ignored-fields'];

/**
 * Answer fields that carry a secret shown once (docs/security.md "Stored idempotent answers"):
 * never stored in a replayable answer, at any depth of the JSON body.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'secret', 'previous_secret', 'token', 'key', 'feed_url', 'password', 'temporary_password', 'api_key', 'access_token', 'refresh_token', 'recovery_codes',
]);

/**
 * The answer text to store for a replay: a JSON answer without its SECRET_FIELDS.
 * @param text the answer as sent
 * @param contentType its Content-Type
 * @returns the text to store and the dotted paths withheld (empty: stored as sent)
 */
export function withholdSecrets(text: string, contentType: string | undefined): { text: string; withheld: string[] } {
  if (!contentType?.includes('json')) return { text, withheld: [] };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { text, withheld: [] };
  }
  const withheld: string[] = [];
  const walk = (value: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${at}[${i}]`));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const path = at ? `${at}.${k}` : k;
      if (SECRET_FIELDS.has(k) && v !== null) withheld.push(path);
      else out[k] = walk(v, path);
    }
    return out;
  };
  const kept = walk(body, '');
  return withheld.length === 0 ? { text, withheld } : { text: JSON.stringify(kept), withheld };
}
const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress';
const OTHER_REQUEST = 'Idempotency-Key reused with a different request';

/** The header as documented on every write. */
export const IdempotencyKeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7E]+$',
  description:
    'Optional. The same key with the same request from the same account within 24 h answers the first answer again ' +
    '(header Idempotent-Replayed: true) and changes nothing; another request under the key is 422; while the first ' +
    'request runs, 409 with Retry-After. A secret shown once (a signing secret, a key, a token) is not kept: the replay ' +
    'omits it and names it in Idempotent-Withheld. docs/api.md "Idempotency-Key".',
});

interface StoredKey {
  request_hash: string;
  route: string | null;
  response_status: number | null;
  response_text: string | null;
  response_body: unknown;
  response_headers: unknown;
}

function findStored(deps: AppDeps, claim: Pick<KeyClaim, 'userId' | 'key'>): Promise<StoredKey | undefined> {
  return findStoredAnswer(deps.db, claim.userId, claim.key, deps.clock.now());
}

/** Sends the stored first answer with Idempotent-Replayed: true. */
function replay(request: FastifyRequest, reply: FastifyReply, stored: StoredKey & { response_status: number }): FastifyReply {
  request.idempotencyReplayed = true;
  const headers = (typeof stored.response_headers === 'string' ? JSON.parse(stored.response_headers) : stored.response_headers) as Record<string, string> | null;
  void reply.code(stored.response_status);
  for (const [name, value] of Object.entries(headers ?? {})) void reply.header(name, value);
  void reply.header('idempotent-replayed', 'true');
  if (stored.response_text !== null) return reply.send(stored.response_text);
  // A row written by job creation's own key handling (before this mechanism): the envelope as JSON.
  const body = typeof stored.response_body === 'string' ? stored.response_body : JSON.stringify(stored.response_body);
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Answers a request whose key is taken: 422 for another request, the replay once the first answer
 * is stored (waiting up to 2 s for it), else 409.
 */
async function answerTaken(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, claim: KeyClaim, first: StoredKey | undefined): Promise<FastifyReply> {
  let stored = first;
  for (let waited = 0; ; waited += 100) {
    if (!stored) break;
    if (stored.request_hash !== claim.hash || (stored.route !== null && stored.route !== claim.route)) throw new AppError('unprocessable', OTHER_REQUEST);
    if (stored.response_status !== null) return replay(request, reply, { ...stored, response_status: stored.response_status });
    if (waited >= 2_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    stored = await findStored(deps, claim);
  }
  const err = conflict(IN_PROGRESS);
  err.headers = { 'retry-after': '1' };
  throw err;
}

/** The route's schema with the header and the 409 and 422 answers documented. */
function documentRoute(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as { headers?: TSchema & { properties?: Record<string, TSchema>; required?: string[] }; response?: Record<number, TSchema>; hide?: boolean };
  const existing = schema.headers;
  schema.headers = Type.Object({ ...(existing?.properties ?? {}), 'idempotency-key': Type.Optional(IdempotencyKeyHeader) });
  if (existing?.required) (schema.headers as { required?: string[] }).required = existing.required;
  if (schema.response) {
    const errors = responses(Type.Null(), [409, 422]);
    schema.response[409] ??= errors[409]!;
    schema.response[422] ??= errors[422]!;
  }
}

/**
 * Registers the mechanism (after the pipeline, so its hooks run after authentication, CSRF and
 * validation): every write route added later gets the preHandler and onSend hooks and the wrapped
 * handler; reads get nothing. Call before any route is added.
 */
export function registerIdempotency(app: App, deps: AppDeps): void {
  app.decorateRequest('idempotency', null);
  app.decorateRequest('idempotencyReplayed', false);

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map((m) => String(m).toUpperCase());
    if (!methods.some((m) => WRITES.has(m)) || (route.config as { csrf?: boolean } | undefined)?.csrf === false) return;
    documentRoute(route);
    // Route hooks, on the writes only: a read pays for no idempotency hook. No route declares
    // its own preHandler or onSend, so these run where the global hooks did (after the pipeline's).
    route.preHandler = [claimKey, ...[route.preHandler ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), storeClaimedAnswer] as RouteOptions['onSend'];
    const handler = route.handler;
    route.handler = async function idempotentHandler(this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const claim = request.idempotency;
      if (!claim) return handler.call(this as never, request, reply);
      try {
        return await claimScope.run(claim, () => handler.call(this as never, request, reply));
      } catch (err) {
        if (!(err instanceof ClaimTaken)) throw err;
        return answerTaken(deps, request, reply, claim, await findStored(deps, claim));
      }
    };
  });

  /** preHandler: the key's claim, or the stored answer sent at once (see the file comment). */
  async function claimKey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!WRITES.has(request.method) || !request.auth || request.routeOptions.config.csrf === false) return;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY.test(key)) throw invalidParam('Idempotency-Key');
    const route = `${request.method} ${request.url}`;
    const now = deps.clock.now();
    const claim: KeyClaim = {
      userId: request.auth.userId,
      key,
      route,
      hash: isUpload(request) ? undefined : requestHash(route, request.body),
      now,
      expiresAt: addSeconds(now, IDEMPOTENCY_TTL_S),
      state: 'pending',
      outside: false,
      existing: false,
    };
    const stored = await findStored(deps, claim);
    request.idempotency = claim;
    // A multipart body is compared once it is read (src/http/upload.ts), unless the route differs.
    if (stored && (claim.hash !== undefined || (stored.route !== null && stored.route !== route))) {
      await answerTaken(deps, request, reply, claim, stored);
    } else if (stored) {
      claim.existing = true;
    }
  }

  /** onSend: the answer stored under the claimed key (see the file comment). */
  async function storeClaimedAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const claim = request.idempotency;
    if (!claim || request.idempotencyReplayed || claim.existing) return payload;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const status = reply.statusCode;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const safe = withholdSecrets(text ?? '', headers['content-type']);
    if (safe.withheld.length > 0) headers['idempotent-withheld'] = safe.withheld.join(', ');
    const answer: StoredAnswer = { response_status: status, response_text: safe.text, response_headers: JSON.stringify(headers) };
    try {
      if (claim.state === 'committed' && claim.outside && status >= 500) {
        // A lone write claimed the key and then failed: free the key for the retry.
        await releaseKey(deps.db, claim.userId, claim.key);
      } else if (claim.state === 'committed') {
        await storeAnswer(deps.db, claim.userId, claim.key, answer);
      } else if (claim.state === 'pending' && status < 400 && claim.hash !== undefined) {
        await insertAnswered(deps.db, { user_id: claim.userId, key: claim.key, request_hash: claim.hash, route: claim.route, created_at: claim.now, expires_at: claim.expiresAt, ...answer });
      }
    } catch (err) {
      request.log.warn({ err: (err as Error).message }, 'the answer of an Idempotency-Key could not be stored');
    }
    return payload;
  }
}
