/**
 * The typed Caretaker client (docs/api.md, "Typed client"): openapi-fetch over the types that
 * openapi-typescript generates from the OpenAPI document (`npm run openapi`). It sends the bearer
 * token, fetches a single-use CSRF token before every write that needs one (spec 5.3), sends an
 * Idempotency-Key on every write (docs/api.md "Idempotency-Key"), and turns
 * the error envelope into a typed `CaretakerError` (a `RateLimitedError` with `retryAfterSeconds`
 * for 429). Its calls (`CallMethod`) are typed from the document: `data` is the 2xx answer's body
 * (an error throws, so never `undefined`), `params` and `body` exactly the operation's (an unknown
 * query parameter does not compile). An upload's file is a `FileInput` (Blob, bytes or a stream)
 * with an optional `filename`, sent as multipart/form-data (`uploadForm`). File and text answers
 * come as Blob, ArrayBuffer or stream (`download`, `downloadArrayBuffer`, `downloadStream`, or a
 * plain GET of one of `BINARY_GETS`, read as a Blob). Built to JavaScript with declarations
 * (`npm run build`); runs on Node 20 and later and in browsers (fetch, URL, Blob).
 */
import createClient, { defaultBodySerializer, type Middleware } from 'openapi-fetch';
import { BINARY_GETS, type BinaryGet } from './binary.ts';
import type { paths } from './schema.js';

export type { paths, components } from './schema.js';
export { BINARY_GETS, type BinaryGet } from './binary.ts';

/** The HTTP methods the client calls, as the document names them. */
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** The operation of method `M` on path `P` in the document, or never when the path has none. */
type OperationOf<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;
/** The paths that have an operation of method `M`. */
export type PathsWith<M extends Method> = { [P in keyof paths]: [OperationOf<P, M>] extends [never] ? never : P }[keyof paths];
/** The keys of `T` that are not optional. */
type RequiredKeys<T> = { [K in keyof T]-?: T extends Record<K, T[K]> ? K : never }[keyof T];

/**
 * A file to upload: a Blob (a File keeps its name), bytes (a Node Buffer, a Uint8Array, an
 * ArrayBuffer), or a stream (a web ReadableStream, or any async iterable of bytes such as Node's
 * `fs.createReadStream(...)`), which is read into memory before it is sent (uploads are at most
 * 20 MiB, docs/api.md).
 */
export type FileInput = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
/**
 * The fields of a multipart upload as the client takes them: the document's fields, a file field
 * (`format: binary`, typed Blob in schema.d.ts) any `FileInput`, and `filename`, the name the
 * file is sent under (not a field of the form; default a File's own name, else `blob`).
 */
export type UploadBody<Fields> = { [K in keyof Fields]: Blob extends Fields[K] ? FileInput : Fields[K] } & ('filename' extends keyof Fields ? unknown : { filename?: string });
/** A request body of the media types `C` (an operation's `requestBody.content`): multipart as an UploadBody. */
type BodyContent<C> = { [T in keyof C]: T extends 'multipart/form-data' ? UploadBody<C[T]> : C[T] }[keyof C];
/** `body` of a call of operation `O`: required when the document requires it, absent when there is none. */
type BodyInit<O> = O extends { requestBody: { content: infer C } } ? { body: BodyContent<C> } : O extends { requestBody?: { content: infer C } } ? { body?: BodyContent<C> } : { body?: never };
/**
 * `params` of a call of operation `O`: its `path`, `query` and `header` values exactly as the
 * document lists them (an unknown query parameter does not compile); required when one is.
 */
type ParamsInit<O> = O extends { parameters: infer X } ? (RequiredKeys<X> extends never ? { params?: X } : { params: X }) : { params?: never };

/** How an answer's body may be read instead of by its Content-Type (`parseAs`). */
export type ParseAs = 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';
/** What every call also takes: extra headers, an abort signal, and `parseAs`. */
interface CallOptions<A extends ParseAs | undefined> {
  headers?: Record<string, string> | Headers;
  signal?: AbortSignal;
  /** Read the answer as this instead of by its Content-Type (JSON parsed, anything else a Blob). */
  parseAs?: A;
}
/** The second argument of a call of method `M` on path `P`. */
export type CallInit<P extends keyof paths, M extends Method, A extends ParseAs | undefined = undefined> = ParamsInit<OperationOf<P, M>> & BodyInit<OperationOf<P, M>> & CallOptions<A>;
/** The second argument as a rest tuple: optional when nothing in it is required. */
type InitArgs<I> = RequiredKeys<I> extends never ? [init?: I] : [init: I];

/** The 2xx statuses. */
type Success = 200 | 201 | 202 | 203 | 204 | 205 | 206;
/** A response's body as the client reads it: JSON parsed, any other media type a Blob, no content undefined. */
type AnswerBody<R> = R extends { content: infer C } ? { [T in keyof C]: T extends `${string}json${string}` ? C[T] : T extends 'text/event-stream' ? never : Blob }[keyof C] : undefined;
/** The body of operation `O`'s successful (2xx) answer (unknown if the document lists none). */
type SuccessBody<O> = O extends { responses: infer R } ? ([keyof R & Success] extends [never] ? unknown : { [S in keyof R & Success]: AnswerBody<R[S]> }[keyof R & Success]) : unknown;
/** `body` read as `parseAs` says. */
type Parsed<Body, A> = A extends 'blob' ? Blob : A extends 'arrayBuffer' ? ArrayBuffer : A extends 'text' ? string : A extends 'stream' ? ReadableStream<Uint8Array> : Body;
/** What a call returns: an error answer throws, so `data` is the successful answer's body. */
export interface CallResult<Data> {
  data: Data;
  response: Response;
}
/** A call of method `M`, e.g. `GET(path, { params })`, typed from the document. */
export type CallMethod<M extends Method> = <P extends PathsWith<M>, A extends ParseAs | undefined = undefined>(path: P, ...init: InitArgs<CallInit<P, M, A>>) => Promise<CallResult<Parsed<SuccessBody<OperationOf<P, M>>, A>>>;
/** The second argument of a GET (for `download` and `paginate`): params, headers, signal. */
type GetInit<P extends keyof paths> = ParamsInit<OperationOf<P, 'get'>> & Omit<CallOptions<undefined>, 'parseAs'>;

/** An answer in the error envelope `{ success: false, error }` (spec 2.1, 7). */
export class CaretakerError extends Error {
  /** HTTP status (400, 401, 403, 404, 409, 413, 429, 5xx). */
  readonly status: number;
  /** The method and path of the request that failed, e.g. `GET /api/jobs/{uuid}` as sent. */
  readonly request: string;
  /** The answer's headers. */
  readonly headers: Headers;
  /** The server's id of the request (X-Request-Id), to quote when reporting a problem; null if absent. */
  readonly requestId: string | null;
  /** The answer's body as parsed (the envelope, with any extra fields), or its text when not JSON. */
  readonly body: unknown;

  constructor(status: number, message: string, request: string, headers: Headers = new Headers(), body: unknown = undefined) {
    super(message);
    this.name = 'CaretakerError';
    this.status = status;
    this.request = request;
    this.headers = headers;
    this.requestId = headers.get('x-request-id');
    this.body = body;
  }
}

/** 400: a missing or invalid field, query value or path value (the message names it). */
export class ValidationError extends CaretakerError {
  override readonly name = 'ValidationError';
}
/** 401: no login, or it ended. */
export class AuthenticationError extends CaretakerError {
  override readonly name = 'AuthenticationError';
}
/** 403: the permission or the CSRF token is missing, or the agency is suspended. */
export class PermissionError extends CaretakerError {
  override readonly name = 'PermissionError';
}
/** 404: no such record in the caller's agency, or no such route. */
export class NotFoundError extends CaretakerError {
  override readonly name = 'NotFoundError';
}
/** 409: the record's state does not allow it (or a duplicate). */
export class ConflictError extends CaretakerError {
  override readonly name = 'ConflictError';
}

/** 429: too many requests; wait `retryAfterSeconds` (the Retry-After header) before trying again. */
export class RateLimitedError extends CaretakerError {
  readonly retryAfterSeconds: number;

  constructor(message: string, request: string, retryAfterSeconds: number, headers: Headers = new Headers(), body: unknown = undefined) {
    super(429, message, request, headers, body);
    this.name = 'RateLimitedError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const ERROR_CLASSES: Record<number, typeof CaretakerError> = { 400: ValidationError, 401: AuthenticationError, 403: PermissionError, 404: NotFoundError, 409: ConflictError };

/** openapi-fetch's own body serializer, which also reads the Content-Type header (an x-www-form-urlencoded body); its declaration names the body only. */
const librarySerializer: (body: unknown, headers?: unknown) => unknown = defaultBodySerializer;

/**
 * The body of a request as openapi-fetch sends it (its `bodySerializer`): a FormData (an upload,
 * made by `uploadForm`) as it is, anything else as openapi-fetch sends it (JSON).
 * @returns the FormData, else openapi-fetch's serialization (a JSON string)
 */
export function serializeBody(body: unknown, headers?: unknown): unknown {
  return body instanceof FormData ? body : librarySerializer(body, headers);
}

/** True for a value the client sends as a file (a `FileInput`). */
function isFile(value: unknown): value is FileInput {
  return value instanceof Blob || value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof ReadableStream || (typeof value === 'object' && value !== null && Symbol.asyncIterator in value);
}

/** A file's bytes as a Blob (a stream read to its end). */
async function toBlob(file: FileInput): Promise<Blob> {
  if (file instanceof Blob) return file;
  if (file instanceof ReadableStream) return new Response(file).blob();
  if (file instanceof ArrayBuffer) return new Blob([file]);
  if (file instanceof Uint8Array) return new Blob([file as Uint8Array<ArrayBuffer>]);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of file) chunks.push(chunk as Uint8Array<ArrayBuffer>);
  return new Blob(chunks);
}

/**
 * An upload's body (multipart/form-data, docs/api.md) as a FormData: each defined field in the
 * object's order (put the fields a route reads with the file before it), a file (`FileInput`) as
 * a file part under `filename` when given, anything else as text (`true`, `3`). `filename` itself
 * is not a field.
 * @returns the FormData, or undefined when `body` holds no file (then it is not an upload)
 */
export async function uploadForm(body: unknown): Promise<FormData | undefined> {
  if (typeof body !== 'object' || body === null || body instanceof FormData || isFile(body) || !Object.values(body).some(isFile)) return undefined;
  const { filename, ...fields } = body as Record<string, unknown>;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (!isFile(value)) form.append(name, String(value));
    else if (typeof filename === 'string') form.append(name, await toBlob(value), filename);
    else form.append(name, await toBlob(value));
  }
  return form;
}

/**
 * Writes that need no CSRF token: the POSTs that need no login (spec 5.3). Only POST: revoking a
 * mobile token (DELETE /api/security/mobile-auth) needs one like every other write.
 */
const CSRF_FREE = /\/api\/(auth\/login|auth\/session|security\/mobile-auth|auth\/password-reset(\/confirm)?|users\/invitations\/accept)$/;
const csrfFree = (method: string, pathname: string) => method === 'POST' && CSRF_FREE.test(pathname);

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
  /**
   * Retries of an answer 429 or 503 (default 2): after Retry-After when the server sent it, else
   * after 0.5 s, 1 s, ... with jitter; a write is retried with the same Idempotency-Key and a fresh
   * CSRF token. 0 turns retries off.
   */
  maxRetries?: number;
  /** The longest wait before a retry, in milliseconds (default 30 000). */
  maxRetryDelayMs?: number;
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
  const maxRetries = options.maxRetries ?? 2;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;

  /** A fresh single-use CSRF token (spec 5.3). */
  const csrfToken = async (): Promise<string> => {
    const res = await fetchImpl(new URL('/api/security/csrf-token', options.baseUrl), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    await throwIfError(res.clone(), 'GET /api/security/csrf-token');
    return ((await res.json()) as { data: { token: string } }).data.token;
  };

  /** fetch with the retries of `maxRetries` (429 and 503). */
  const retryingFetch = async (input: Request): Promise<Response> => {
    let request = input;
    for (let attempt = 0; ; attempt++) {
      const response = await fetchImpl(request.clone());
      if ((response.status !== 429 && response.status !== 503) || attempt >= maxRetries) return response;
      await response.body?.cancel().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(response, attempt, maxDelay)));
      // The CSRF token was single-use: a retried write carries a fresh one.
      if (request.headers.has('X-CSRF-Token')) {
        const headers = new Headers(request.headers);
        headers.set('X-CSRF-Token', await csrfToken());
        request = new Request(request, { headers });
      }
    }
  };

  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch, bodySerializer: serializeBody });
  /** openapi-fetch's call of `method`, as this client uses it (its own typing is replaced by CallMethod). */
  const libraryCall = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH') => client[method] as unknown as (path: string, init: object) => Promise<{ data?: unknown; response: Response }>;

  /**
   * A call of `method`: an upload's body made a FormData first; the answer read by its
   * Content-Type (JSON parsed, anything else a Blob: a file the client does not list, such as an
   * evidence pack, never throws a SyntaxError), a GET of one of BINARY_GETS as a Blob, or as
   * `parseAs` says. An error answer throws (the `auth` middleware), so only `{ data, response }`.
   */
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH') => async (path: string, init: { body?: unknown; parseAs?: ParseAs } = {}): Promise<CallResult<unknown>> => {
    const call = libraryCall(method);
    const form = await uploadForm(init.body);
    const request = form ? { ...init, body: form } : init;
    const parseAs = init.parseAs ?? (method === 'GET' && (BINARY_GETS as readonly string[]).includes(path) ? 'blob' : undefined);
    if (parseAs) {
      const { data, response } = await call(path, { ...request, parseAs });
      return { data, response };
    }
    const { data: stream, response } = await call(path, { ...request, parseAs: 'stream' });
    if (!(stream instanceof ReadableStream)) return { data: undefined, response };
    const type = response.headers.get('content-type') ?? '';
    const bytes = new Response(stream, { headers: { 'content-type': type } });
    return { data: /[/+]json\b/i.test(type) ? await bytes.json() : await bytes.blob(), response };
  };
  const calls = {
    GET: send('GET') as CallMethod<'get'>,
    POST: send('POST') as CallMethod<'post'>,
    PUT: send('PUT') as CallMethod<'put'>,
    DELETE: send('DELETE') as CallMethod<'delete'>,
    PATCH: send('PATCH') as CallMethod<'patch'>,
  };

  const auth: Middleware = {
    async onRequest({ request }) {
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      const method = request.method.toUpperCase();
      const credentials = token !== undefined || options.cookieSession === true;
      // Every write carries an Idempotency-Key (docs/api.md): pass your own in `headers` to retry
      // a call safely after a lost answer; by default each call gets a fresh one.
      const write = method === 'POST' || method === 'PUT' || method === 'DELETE' || method === 'PATCH';
      if (write && options.idempotencyKeys !== false && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
      if (write && method !== 'PATCH' && credentials && !csrfFree(method, new URL(request.url).pathname)) {
        request.headers.set('X-CSRF-Token', await csrfToken());
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
  const binary = (path: BinaryGet, init: object | undefined, parseAs: 'blob' | 'arrayBuffer' | 'stream') => send('GET')(path, { ...init, parseAs });

  return {
    ...calls,
    /**
     * GET of an operation that answers a file or text (invoice PDF, report CSV/XLSX, bills.csv,
     * payments.csv, metrics, document, photo and certificate downloads, the iCalendar feed): the
     * bytes as a Blob (its `type` is the answer's Content-Type).
     * @example const { data: pdf } = await api.download('/api/invoices/{uuid}/pdf', { params: { path: { uuid } } });
     * @throws CaretakerError for an answer in the error envelope
     */
    download<P extends BinaryGet>(path: P, ...init: InitArgs<GetInit<P>>): Promise<CallResult<Blob>> {
      return binary(path, init[0], 'blob') as Promise<CallResult<Blob>>;
    },
    /** As `download`, the bytes as an ArrayBuffer (Node: `Buffer.from(data)`). */
    downloadArrayBuffer<P extends BinaryGet>(path: P, ...init: InitArgs<GetInit<P>>): Promise<CallResult<ArrayBuffer>> {
      return binary(path, init[0], 'arrayBuffer') as Promise<CallResult<ArrayBuffer>>;
    },
    /**
     * As `download`, the bytes as a stream, read as they arrive (a large export or backup; Node:
     * `Readable.fromWeb(data).pipe(createWriteStream(name))`).
     */
    downloadStream<P extends BinaryGet>(path: P, ...init: InitArgs<GetInit<P>>): Promise<CallResult<ReadableStream<Uint8Array>>> {
      return binary(path, init[0], 'stream') as Promise<CallResult<ReadableStream<Uint8Array>>>;
    },
    /**
     * Every item of a paginated list, page by page (`limit` per request, default 100; spec 2.2),
     * as an async iterator; other query parameters are kept.
     * @example for await (const job of api.paginate('/api/jobs/manage', { params: { query: { priority: 1 } } })) console.log(job.reference);
     * @throws CaretakerError for an answer in the error envelope
     */
    async *paginate<P extends ListGet>(path: P, ...args: InitArgs<GetInit<P> & { pageSize?: number }>): AsyncGenerator<ItemOf<P>, void, undefined> {
      const init = args[0] as { params?: { query?: object }; pageSize?: number } | undefined;
      const limit = init?.pageSize ?? 100;
      for (let offset = 0; ; ) {
        const query = { ...init?.params?.query, limit, offset };
        const { data } = await send('GET')(path, { params: { ...init?.params, query } } as object);
        const page = data as unknown as ListPage<ItemOf<P>>;
        for (const item of page.data) yield item;
        offset += page.data.length;
        if (page.data.length === 0 || page.data.length < limit || (typeof page.count === 'number' && offset >= page.count)) return;
      }
    },
    /**
     * The live stream (GET /api/events/stream, docs/live-updates.md) as an async iterator of events,
     * each `{ event, id, data }` with the data parsed from JSON; ends when `signal` aborts.
     * @example for await (const e of api.events({ signal })) console.log(e.event, e.data);
     * @throws CaretakerError when the stream is refused (401, 403, 429)
     */
    async *events(init: { signal?: AbortSignal; lastEventId?: string } = {}): AsyncGenerator<LiveEvent, void, undefined> {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (init.lastEventId) headers['Last-Event-ID'] = init.lastEventId;
      let response: Response;
      try {
        response = await fetchImpl(new URL('/api/events/stream', options.baseUrl), { headers, ...(init.signal ? { signal: init.signal } : {}), ...(options.cookieSession ? { credentials: 'include' as const } : {}) });
      } catch (err) {
        if (init.signal?.aborted) return;
        throw err;
      }
      await throwIfError(response.clone(), 'GET /api/events/stream');
      if (!response.body) return;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value.replace(/\r\n?/g, '\n');
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            let id: string | null = null;
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'event') event = text;
              else if (field === 'id') id = text;
              else if (field === 'data') data.push(text);
            }
            if (data.length === 0) continue;
            const raw = data.join('\n');
            let parsed: unknown = raw;
            try {
              parsed = JSON.parse(raw);
            } catch {
              // not JSON: the text as sent
            }
            yield { event, id, data: parsed };
          }
        }
      } catch (err) {
        if (init.signal?.aborted) return;
        throw err;
      } finally {
        reader.releaseLock();
      }
    },
    /**
     * POST /api/auth/login and keep the bearer token for the next calls.
     * @returns the login answer (token, expiry, user)
     * @throws CaretakerError 401 for a wrong e-mail or password, RateLimitedError 429
     */
    async login(email: string, password: string) {
      const { data } = await calls.POST('/api/auth/login', { body: { email, password } });
      token = data.token;
      return data;
    },
    /** The bearer token in use, if any. */
    get token() {
      return token;
    },
    /** Adds an openapi-fetch middleware (onRequest, onResponse) to every call. */
    use: client.use.bind(client),
  };
}

/** The client `createCaretakerClient` returns. */
export type CaretakerClient = ReturnType<typeof createCaretakerClient>;

async function throwIfError(response: Response, request: string): Promise<void> {
  if (response.ok) return;
  let message = response.statusText;
  let body: unknown;
  const text = await response.text().catch(() => '');
  try {
    body = JSON.parse(text);
    const error = (body as { error?: unknown }).error;
    if (typeof error === 'string') message = error;
  } catch {
    // not JSON: keep the status text, and the text as the body
    body = text;
  }
  if (response.status === 429) throw new RateLimitedError(message, request, Number(response.headers.get('retry-after') ?? '1'), response.headers, body);
  const ErrorClass = ERROR_CLASSES[response.status] ?? CaretakerError;
  throw new ErrorClass(response.status, message, request, response.headers, body);
}

/** Seconds to wait before retry `attempt` (0-based): Retry-After when the server sent it, else 0.5 s doubling, with jitter. */
function retryDelayMs(response: Response, attempt: number, maxDelayMs: number): number {
  const header = response.headers.get('retry-after');
  const seconds = header === null ? NaN : /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  const ms = Number.isFinite(seconds) ? Math.max(0, seconds * 1000) : 500 * 2 ** attempt * (0.75 + Math.random() * 0.5);
  return Math.min(ms, maxDelayMs);
}

/** The items of a list answer and its total (`count`, spec 2.2). */
interface ListPage<T> {
  data: T[];
  count?: number;
}

/** The item type of a paginated GET's list. */
type ItemOf<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: Array<infer T> } } } } } } ? T : never;
/** GET operations that answer a list (`data` an array). */
export type ListGet = { [P in keyof paths]: ItemOf<P> extends never ? never : P }[keyof paths];

/** One Server-Sent Event of the live stream (docs/live-updates.md): its name, id and JSON data. */
export interface LiveEvent {
  event: string;
  id: string | null;
  data: unknown;
}
