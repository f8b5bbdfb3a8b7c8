/**
 * Success and error envelopes (spec 2.1) and the TypeBox schemas that describe them, so every
 * route's response is validated, serialised fast and documented in OpenAPI the same way.
 */
import { setImmediate } from 'node:timers/promises';
import { Type, type TSchema } from 'typebox';

/** Body of a read of one record: { success, data, message }. */
export function ok<T>(data: T, message = 'OK'): { success: true; data: T; message: string } {
  return { success: true, data, message };
}

/** Body of a list read: { success, data, count, message }; count is the total matching rows. */
export function list<T>(data: T[], count: number, message = 'OK') {
  return { success: true as const, data, count, message };
}

/**
 * The list envelope of `list()` around items already written as JSON (by the database): the same
 * bytes Fastify's serializer writes for `list(items, count, message)`.
 * @param itemsJson the items' JSON objects joined by commas ('' for none)
 * @returns the body as a Buffer, sent as is (reply.type('application/json; charset=utf-8'))
 */
export function listOfJson(itemsJson: string, count: number, message: string): Buffer {
  return Buffer.from(`{"success":true,"data":[${itemsJson}],"count":${count},"message":${JSON.stringify(message)}}`);
}

/**
 * The envelope of `ok()` around a record with one long array (a 50,000-row dry run's answer is
 * 2 MiB), written by JSON.stringify a slice of items at a time with a turn of the event loop
 * between slices: fast-json-stringify wrote such an answer in one go, holding every other request
 * of the process for 150 to 230 ms (docs/operations.md "Fairness between agencies").
 * @param record the record's other fields (written before the array, in their order)
 * @param key the array's field name
 * @param items the array's items, plain JSON values (ISO dates as strings)
 * @returns the body as a Buffer, sent as is (reply.type('application/json; charset=utf-8'));
 *   the same JSON the route's response schema describes, for a record whose fields it names
 */
export async function okWithLongArray(record: Record<string, unknown>, key: string, items: readonly unknown[], message: string, slice = 1000): Promise<Buffer> {
  const parts: string[] = [];
  for (let i = 0; i < items.length; i += slice) {
    if (i > 0) await setImmediate();
    parts.push(JSON.stringify(items.slice(i, i + slice)).slice(1, -1));
  }
  const head = JSON.stringify(record);
  const fields = head === '{}' ? '' : `${head.slice(1, -1)},`;
  return Buffer.from(`{"success":true,"data":{${fields}${JSON.stringify(key)}:[${parts.join(',')}]},"message":${JSON.stringify(message)}}`);
}

/** Body of a write with nothing to return: { success, message }. */
export function done(message: string): { success: true; message: string } {
  return { success: true, message };
}

/** Body of an error: { success: false, error }. */
export function errorBody(error: string, extra?: Record<string, unknown>) {
  return { success: false as const, error, ...extra };
}

export const ErrorEnvelope = Type.Object(
  { success: Type.Literal(false), error: Type.String() },
  { additionalProperties: true, description: 'Error envelope (spec 2.1)' },
);

export const RateLimitedEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    message: Type.String(),
    limit: Type.Integer(),
    retry_after: Type.Integer({ description: 'seconds' }),
  },
  { description: 'Rate limit exceeded (spec 7)' },
);

/** Schema of { success, data, message }. */
export const DataEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, message: Type.String() });

/** Schema of { success, data: T[], count, message }. */
export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    count: Type.Integer({ minimum: 0, description: 'total number of matching records' }),
    message: Type.String(),
  });

/**
 * OpenAPI annotation on a success schema: the media types the response is sent as. The document's
 * last pass (src/http/openapi-contract.ts) turns it into one `content` entry per type, with a
 * `format: binary` schema for every type but JSON.
 */
export const MEDIA_TYPES_KEY = 'x-media-types';

/**
 * Success schema of a response that is a file or text, not the JSON envelope.
 * @param mediaTypes the Content-Types sent (a range such as `image/*` or `*\/*` when the stored type varies)
 * @param description what the bytes are
 */
export function fileResponse(mediaTypes: string[], description: string) {
  return Type.Unsafe<unknown>({ type: 'string', format: 'binary', description, [MEDIA_TYPES_KEY]: mediaTypes });
}

/**
 * A JSON success schema of a route that answers some requests with a file instead
 * (`?format=zip`, `?action=banner`).
 * @param mediaTypes the file's media types, beside application/json
 */
export function alsoSentAs<T extends TSchema>(schema: T, mediaTypes: string[]): T {
  return { ...schema, [MEDIA_TYPES_KEY]: ['application/json', ...mediaTypes] };
}

/** Schema of { success, message }. */
export const MessageEnvelope = Type.Object({ success: Type.Literal(true), message: Type.String() });

const errorResponses: Record<number, string> = {
  400: 'Invalid or missing required parameter',
  401: 'Authentication required',
  403: 'Missing permission or CSRF token',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  422: 'Idempotency-Key reused with a different request',
  429: 'Rate limit exceeded',
  503: 'Service unavailable',
};

/**
 * The 401 body: the error envelope, plus `reason` and `message` when a browser session ended for
 * a known reason (docs/security.md "Why a session ended"; docs/api.md "Additions").
 */
export const SignedOutEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    reason: Type.Optional(Type.String({ description: 'why a browser session ended: signed_out, ended_by_owner, ended_by_admin, password_changed, account_disabled, expired, idle, ...' })),
    message: Type.Optional(Type.String({ description: 'the reason as a sentence for the sign-in page' })),
    challenge: Type.Optional(Type.String({ description: 'second_factor_required / second_factor_enrolment_required: answer it on the same endpoint (docs/api.md "Additions: the second factor")' })),
    methods: Type.Optional(Type.Array(Type.String(), { description: 'how the challenge may be answered: totp, recovery_code, passkey' })),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'when the challenge expires' })),
  },
  { description: errorResponses[401] ?? 'Unauthorized' },
);

/**
 * The 503 body: the error envelope, plus `queue_position` and `retry_after` when heavy work waited
 * in its agency's queue for CARETAKER_HEAVY_WAIT_S without a slot (docs/operations.md "Fairness between agencies").
 */
export const UnavailableEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    queue_position: Type.Optional(Type.Integer({ minimum: 1, description: 'heavy work: its place in the agency\'s queue when the wait ran out (1 is next)' })),
    retry_after: Type.Optional(Type.Integer({ description: 'seconds (also in Retry-After)' })),
  },
  { description: errorResponses[503] ?? 'Service unavailable' },
);

/**
 * Response schemas for a route: the success schema under 200 (or the given status) plus the
 * error envelope under each listed error status.
 */
export function responses(
  success: TSchema,
  errors: number[] = [400, 401, 403, 429],
  successStatus = 200,
): Record<number, TSchema> {
  const out: Record<number, TSchema> = { [successStatus]: success };
  for (const status of errors) {
    out[status] =
      status === 429
        ? RateLimitedEnvelope
        : status === 401
          ? SignedOutEnvelope
          : status === 503
            ? UnavailableEnvelope
            : Type.Object(
            { success: Type.Literal(false), error: Type.String() },
            { description: errorResponses[status] ?? 'Error' },
          );
  }
  return out;
}
