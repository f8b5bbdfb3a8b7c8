/**
 * `Idempotency-Key` on every write (docs/api.md "Idempotency-Key"), one mechanism for every
 * route. An authenticated POST, PUT, PATCH or DELETE carrying the header (1 to 255 printable ASCII
 * characters) is tied to its caller, its route ("METHOD /path?query") and the SHA-256 of the route
 * and its body (JSON and form bodies canonically, without `csrf_token`; multipart bodies as their
 * text fields and the file's SHA-256, src/http/upload.ts). The steps are two hooks, declared in
 * this order after the request pipeline's (src/http/pipeline.ts: authentication, CSRF, validation):
 *
 * - preHandler: the key is claimed before the handler runs, in one statement of its own
 *   (idempotency.repository.ts claimKey: the key's row, without an answer, committed at once). A
 *   key already held by the caller answers at once instead: another request under it is 422; the
 *   first answer, once stored, is sent again (status, body, content-type and location) with
 *   `Idempotent-Replayed: true`; a first request still running is waited for up to 2 s, then 409
 *   with Retry-After: 1. A multipart body is claimed once the upload reader has read it and knows
 *   its hash (`KeyClaim.claimBody`, called by src/http/upload.ts before the handler acts).
 * - onSend: a 2xx or 3xx answer is stored in the claimed row; any other answer (the request
 *   changed nothing: writes run in transactions, and bad input changes nothing) releases the key,
 *   so a retry runs again.
 *
 * A concurrent duplicate therefore finds the claim and never runs its handler. A process that
 * stops between the claim and the answer leaves the key claimed without an answer: its repeats
 * are answered 409 until the key expires, the same as when it stops between a write's COMMIT and
 * the answer.
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
import { claimKey, findStoredAnswer, IDEMPOTENCY_TTL_S, releaseKey, storeAnswer, type KeyClaimRow, type StoredAnswer } from '../db/idempotency.repository.ts';
import { addSeconds } from '../lib/clock.ts';
import { responses } from './envelope.ts';
import { AppError, conflict, invalidParam } from '../core/errors.ts';
import type { App } from './route-types.ts';
import { isUpload } from './upload.ts';
import { requestHash } from './request-hash.ts';

export { IDEMPOTENCY_TTL_S };

/** One write's key: claimed before its handler (or, for a multipart body, once the body is read). */
export interface KeyClaim {
  userId: number;
  key: string;
  /** "METHOD /path?query". */
  route: string;
  /** SHA-256 (hex) of the route and the body; undefined until a multipart body is read. */
  hash: string | undefined;
  now: Date;
  expiresAt: Date;
  /** True once this request holds the key's row. */
  claimed: boolean;
  /**
   * Claims the key of a multipart body once it is read, with its hash (src/http/upload.ts calls
   * it before the handler acts; see claimUploadKey).
   */
  claimBody(hash: string): Promise<void>;
}

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
const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress';
const OTHER_REQUEST = 'Idempotency-Key reused with a different request';

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

type Answered = StoredKey & { response_status: number };

/**
 * Thrown by `KeyClaim.claimBody` when the multipart body's key already holds the same request's
 * answer: the error handler (src/http/error-handler.ts) sends that answer again.
 */
export class StoredAnswerReplay extends Error {
  readonly stored: Answered;

  constructor(stored: Answered) {
    super('Idempotency-Key replay');
    this.name = 'StoredAnswerReplay';
    this.stored = stored;
  }

  /** Sends the stored answer with Idempotent-Replayed: true. */
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return replay(request, reply, this.stored);
  }
}

/** Sends the stored first answer with Idempotent-Replayed: true. */
function replay(request: FastifyRequest, reply: FastifyReply, stored: Answered): FastifyReply {
  request.idempotencyReplayed = true;
  const headers = (typeof stored.response_headers === 'string' ? JSON.parse(stored.response_headers) : stored.response_headers) as Record<string, string> | null;
  void reply.code(stored.response_status);
  for (const [name, value] of Object.entries(headers ?? {})) void reply.header(name, value);
  void reply.header('idempotent-replayed', 'true');
  if (stored.response_text !== null) return reply.send(stored.response_text);
  // A row written before answers were stored as text: the envelope as JSON.
  const body = typeof stored.response_body === 'string' ? stored.response_body : JSON.stringify(stored.response_body);
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * The stored answer to replay for a key held by another request: waits up to 2 s for the first
 * request's answer.
 * @throws 422 for another request under the key; 409 with Retry-After: 1 while the first still runs
 */
async function takenAnswer(deps: AppDeps, claim: KeyClaim): Promise<Answered> {
  for (let waited = 0; ; waited += 100) {
    const stored = await findStoredAnswer(deps.db, claim.userId, claim.key, deps.clock.now());
    if (stored) {
      if (stored.request_hash !== claim.hash || (stored.route !== null && stored.route !== claim.route)) throw new AppError('unprocessable', OTHER_REQUEST);
      if (stored.response_status !== null) return { ...stored, response_status: stored.response_status };
    }
    if (waited >= 2_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const err = conflict(IN_PROGRESS);
  err.headers = { 'retry-after': '1' };
  throw err;
}

function claimRow(claim: KeyClaim & { hash: string }): KeyClaimRow {
  return { user_id: claim.userId, key: claim.key, request_hash: claim.hash, route: claim.route, created_at: claim.now, expires_at: claim.expiresAt };
}

/**
 * Claims the key of a multipart write once its body is read (KeyClaim.claimBody, called by
 * src/http/upload.ts before the handler acts).
 * @param hash requestHash of the route, the text fields and the file's SHA-256
 * @throws 422 another request under the key; 409 while the first still runs; StoredAnswerReplay
 *   when the same request was answered before (its answer is sent again)
 */
async function claimUploadKey(deps: AppDeps, claim: KeyClaim, hash: string): Promise<void> {
  if (claim.claimed) return;
  claim.hash = hash;
  if (await claimKey(deps.db, claimRow({ ...claim, hash }), claim.now)) {
    claim.claimed = true;
    return;
  }
  throw new StoredAnswerReplay(await takenAnswer(deps, claim));
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
 * Registers the mechanism on the root instance, after the request pipeline (so its hooks run
 * after authentication, CSRF and validation) and before any route: the preHandler that claims the
 * key and the onSend that stores or releases it (see the file comment), for every write; reads
 * return at once. Each write route's schema documents the header and the 409 and 422 answers.
 */
export function registerIdempotency(app: App, deps: AppDeps): void {
  app.decorateRequest('idempotency', null);
  app.decorateRequest('idempotencyReplayed', false);

  // The OpenAPI document only: the header and answers in each write route's schema.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map((m) => String(m).toUpperCase());
    if (methods.some((m) => WRITES.has(m)) && (route.config as { csrf?: boolean } | undefined)?.csrf !== false) documentRoute(route);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!WRITES.has(request.method) || !request.auth || request.routeOptions.config.csrf === false) return;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY.test(key)) throw invalidParam('Idempotency-Key');
    const route = `${request.method} ${request.url}`;
    const now = deps.clock.now();
    const claim: KeyClaim = {
      userId: request.auth.userId, key, route, hash: undefined, now, expiresAt: addSeconds(now, IDEMPOTENCY_TTL_S), claimed: false,
      claimBody: (hash) => claimUploadKey(deps, claim, hash),
    };
    request.idempotency = claim;
    if (isUpload(request)) {
      // The body's hash is known once the upload reader has read it (claimUploadKey); a key
      // already used on another route is refused now.
      const stored = await findStoredAnswer(deps.db, claim.userId, key, now);
      if (stored && stored.route !== null && stored.route !== route) throw new AppError('unprocessable', OTHER_REQUEST);
      return;
    }
    claim.hash = requestHash(route, request.body);
    if (await claimKey(deps.db, claimRow({ ...claim, hash: claim.hash }), now)) {
      claim.claimed = true;
      return;
    }
    return replay(request, reply, await takenAnswer(deps, claim));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim?.claimed || request.idempotencyReplayed) return payload;
    const status = reply.statusCode;
    try {
      if (status >= 400) {
        await releaseKey(deps.db, claim.userId, claim.key);
        return payload;
      }
      const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const safe = withholdSecrets(text, headers['content-type']);
      if (safe.withheld.length > 0) headers['idempotent-withheld'] = safe.withheld.join(', ');
      const answer: StoredAnswer = { response_status: status, response_text: safe.text, response_headers: JSON.stringify(headers) };
      await storeAnswer(deps.db, claim.userId, claim.key, answer);
    } catch (err) {
      request.log.warn({ err: (err as Error).message }, 'the answer of an Idempotency-Key could not be stored');
    }
    return payload;
  });
}
