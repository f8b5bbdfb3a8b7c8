/**
 * The typed Caretaker client (docs/api.md, "Typed client"): openapi-fetch over the types that
 * openapi-typescript generates from the OpenAPI document (`npm run openapi`). It sends the bearer
 * token, fetches a single-use CSRF token before every write that needs one (spec 5.3), sends an
 * Idempotency-Key on every write (docs/api.md "Idempotency-Key"), and turns
 * the error envelope into a typed `CaretakerError` (a `RateLimitedError` with `retryAfterSeconds`
 * for 429). An upload's body is typed as the operation's fields with the file a Blob (or File),
 * and sent as multipart/form-data (`serializeBody`). File and text answers come as Blob or
 * ArrayBuffer (`download`, `downloadArrayBuffer`, or a plain GET of one of `BINARY_GETS`, read as
 * a Blob). Built to JavaScript with declarations
 * (`npm run build`); runs on Node 20 and later and in browsers (fetch, URL, Blob).
 */
import createClient, { defaultBodySerializer, type Middleware } from 'openapi-fetch';
import { BINARY_GETS, type BinaryGet } from './binary.ts';
import type { paths } from './schema.js';

export type { paths, components } from './schema.js';
export { BINARY_GETS, type BinaryGet } from './binary.ts';

/** The path and query values of a GET operation, as openapi-fetch takes them. */
type GetParams<P extends keyof paths> = paths[P] extends { get: { parameters: infer Params } } ? Params : never;
/** The `params` of a call: optional members stay optional. */
type ParamsOf<P extends keyof paths> = {
  params?: {
    path?: GetParams<P> extends { path?: infer X } ? X : never;
    query?: GetParams<P> extends { query?: infer Q } ? Q : never;
  };
};

/** An answer in the error envelope `{ success: false, error }` (spec 2.1, 7). */
export class CaretakerError extends Error {
  /** HTTP status (400, 401, 403, 404, 409, 413, 429, 5xx). */
  readonly status: number;
  /** The method and path of the request that failed. */
  readonly request: string;

  constructor(status: number, message: string, request: string) {
    super(message);
    this.name = 'CaretakerError';
    this.status = status;
    this.request = request;
  }
}

/** 429: too many requests; wait `retryAfterSeconds` (the Retry-After header) before trying again. */
export class RateLimitedError extends CaretakerError {
  readonly retryAfterSeconds: number;

  constructor(message: string, request: string, retryAfterSeconds: number) {
    super(429, message, request);
    this.name = 'RateLimitedError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** openapi-fetch's own body serializer, which also reads the Content-Type header (an x-www-form-urlencoded body); its declaration names the body only. */
const librarySerializer: (body: unknown, headers?: unknown) => unknown = defaultBodySerializer;

/**
 * The body of a request as sent: a plain object with a Blob (or File) among its values is an
 * upload (multipart/form-data, docs/api.md): a FormData with each defined field in the object's
 * order (put the fields a route reads with the file before it), a Blob as a file part (a File keeps
 * its name), anything else as text (`true`, `3`). Any other body is sent as openapi-fetch sends it
 * (JSON, or a FormData as it is).
 * @returns a FormData for an upload, else openapi-fetch's serialization (a JSON string)
 */
export function serializeBody(body: unknown, headers?: unknown): unknown {
  if (typeof body !== 'object' || body === null || body instanceof FormData || !Object.values(body).some((v) => v instanceof Blob))
    return librarySerializer(body, headers);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    form.append(name, value instanceof Blob ? value : String(value));
  }
  return form;
}

/** Writes that need no CSRF token: the ones that need no login (spec 5.3). */
const CSRF_FREE = /\/api\/(auth\/login|auth\/session|security\/mobile-auth|auth\/password-reset(\/confirm)?|users\/invitations\/accept)$/;

export interface ClientOptions {
  /** Where the API is, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** A bearer token (from `login`, mobile-auth, or an API user's token). */
  token?: string;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
  /**
   * Browser use with the session cookie of spec 5.2 (sent by the browser on same-origin calls):
   * fetch a CSRF token before every write even without a bearer token.
   */
  cookieSession?: boolean;
  /**
   * Send an `Idempotency-Key` (a random UUID) on every POST, PUT and DELETE that has none (default
   * true). A repeat under the same key answers the first answer with `Idempotent-Replayed: true`.
   */
  idempotencyKeys?: boolean;
}

/**
 * Creates a client. Every call returns `{ data, response }`; an error envelope throws a
 * `CaretakerError` instead of returning `error`.
 * @example
 *   const api = createCaretakerClient({ baseUrl: 'http://127.0.0.1:3000' });
 *   await api.login('agent@example.com', 'secret');
 *   const { data } = await api.GET('/api/jobs/manage', { params: { query: { limit: 10 } } });
 */
export function createCaretakerClient(options: ClientOptions) {
  let token = options.token;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: fetchImpl, bodySerializer: serializeBody });
  // A plain GET of a file operation reads the bytes as a Blob (not as JSON, which would throw);
  // `download` types them so.
  const get = client.GET.bind(client);
  client.GET = ((path: string, init?: { parseAs?: string }) =>
    get(path as never, ((BINARY_GETS as readonly string[]).includes(path) && !init?.parseAs ? { ...init, parseAs: 'blob' } : init) as never)) as typeof client.GET;

  const auth: Middleware = {
    async onRequest({ request }) {
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      const method = request.method.toUpperCase();
      const credentials = token !== undefined || options.cookieSession === true;
      // Every write carries an Idempotency-Key (docs/api.md): pass your own in `headers` to retry
      // a call safely after a lost answer; by default each call gets a fresh one.
      const write = method === 'POST' || method === 'PUT' || method === 'DELETE' || method === 'PATCH';
      if (write && options.idempotencyKeys !== false && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
      if (write && method !== 'PATCH' && credentials && !CSRF_FREE.test(new URL(request.url).pathname)) {
        const res = await fetchImpl(new URL('/api/security/csrf-token', options.baseUrl), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
        await throwIfError(res, 'GET /api/security/csrf-token');
        const body = (await res.json()) as { data: { token: string } };
        request.headers.set('X-CSRF-Token', body.data.token);
      }
      return request;
    },
    async onResponse({ request, response }) {
      await throwIfError(response.clone(), `${request.method} ${new URL(request.url).pathname}`);
      return response;
    },
  };
  client.use(auth);

  /** GET of a file or text answer, read as `parseAs`. */
  const binary = async <T extends Blob | ArrayBuffer>(path: BinaryGet, init: ParamsOf<BinaryGet> | undefined, parseAs: 'blob' | 'arrayBuffer') => {
    const { data, response } = await client.GET(path as never, { ...(init ?? {}), parseAs } as never);
    return { data: data as unknown as T, response };
  };

  return Object.assign(client, {
    /**
     * GET of an operation that answers a file or text (invoice PDF, report CSV/XLSX, bills.csv,
     * payments.csv, metrics, document, photo and certificate downloads, the iCalendar feed): the
     * bytes as a Blob (its `type` is the answer's Content-Type).
     * @example const { data: pdf } = await api.download('/api/invoices/{uuid}/pdf', { params: { path: { uuid } } });
     * @throws CaretakerError for an answer in the error envelope
     */
    download<P extends BinaryGet>(path: P, init?: ParamsOf<P>): Promise<{ data: Blob; response: Response }> {
      return binary<Blob>(path, init as ParamsOf<BinaryGet>, 'blob');
    },
    /** As `download`, the bytes as an ArrayBuffer (Node: `Buffer.from(data)`). */
    downloadArrayBuffer<P extends BinaryGet>(path: P, init?: ParamsOf<P>): Promise<{ data: ArrayBuffer; response: Response }> {
      return binary<ArrayBuffer>(path, init as ParamsOf<BinaryGet>, 'arrayBuffer');
    },
    /**
     * POST /api/auth/login and keep the bearer token for the next calls.
     * @returns the login answer (token, expiry, user)
     * @throws CaretakerError 401 for a wrong e-mail or password, RateLimitedError 429
     */
    async login(email: string, password: string) {
      const { data } = await client.POST('/api/auth/login', { body: { email, password } });
      token = (data as { token: string }).token;
      return data;
    },
    /** The bearer token in use, if any. */
    get token() {
      return token;
    },
  });
}

async function throwIfError(response: Response, request: string): Promise<void> {
  if (response.ok) return;
  let message = response.statusText;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') message = body.error;
  } catch {
    // not JSON: keep the status text
  }
  if (response.status === 429) throw new RateLimitedError(message, request, Number(response.headers.get('retry-after') ?? '1'));
  throw new CaretakerError(response.status, message, request);
}
