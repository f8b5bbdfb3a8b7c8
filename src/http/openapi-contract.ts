/**
 * The last pass over the generated OpenAPI document (docs/api.md, "OpenAPI document"), so that it
 * says what the server does for every registered route, not only for the ones written today:
 *   - responses sent as files or text carry their real media types and a `format: binary` schema
 *     (a route marks them with `fileResponse` / `alsoSentAs`, src/http/envelope.ts);
 *   - every operation documents 400 (an unknown query parameter is refused everywhere,
 *     src/http/input-guard.ts closeQuerystring) and 500 in the error envelope (spec 7), every
 *     write 413 (body limit) and 415 (a body of a media type it does not take,
 *     src/http/methods.ts), every operation with a path parameter 414 (a parameter over 100
 *     characters, src/http/error-handler.ts); every answer the X-RateLimit-* headers and a 429
 *     Retry-After (spec 7, src/core/rate-limit.ts); every operation that needs a login 403
 *     (an account of a suspended agency is refused on every such route, src/modules/people/auth);
 *   - request bodies: the server drops unknown fields and names them in `X-Ignored-Fields`
 *     (docs/api.md "Unknown fields"), so no body schema says `additionalProperties: false`; a
 *     flat body is documented as form-encoded too (spec 5.3); `requestBody.required` is true only
 *     when an empty body is refused (the pipeline validates a missing body as `{}`); a write that
 *     needs a CSRF token and has no body schema documents the optional `{ csrf_token }` body;
 *   - multipart uploads document the `csrf_token` form field (spec 5.3).
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { MEDIA_TYPES_KEY } from './envelope.ts';
import { CSRF_FIELD_DESCRIPTION } from './route-types.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Obj = Record<string, unknown>;

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MULTIPART_TYPE = 'multipart/form-data';
const WRITES = new Set(['post', 'put', 'delete', 'patch']);

/** The error envelope of spec 2.1, as every error status documents it. */
const ERROR_SCHEMA = {
  type: 'object',
  required: ['success', 'error'],
  properties: { success: { type: 'boolean', enum: [false] }, error: { type: 'string' } },
};

const INTERNAL_ERROR = {
  description: 'Unexpected failure (spec 7): `An error occurred. Please try again.`, details only in the log',
  content: { [JSON_TYPE]: { schema: ERROR_SCHEMA } },
};

const UNSUPPORTED_MEDIA_TYPE = {
  description: 'A body whose Content-Type the operation does not take (decided before authentication)',
  content: { [JSON_TYPE]: { schema: ERROR_SCHEMA } },
};

const FORBIDDEN = {
  description: 'Forbidden: the permission is missing, or the caller\'s agency is suspended (refused on every route that needs a login)',
  content: { [JSON_TYPE]: { schema: ERROR_SCHEMA } },
};

const TOO_LARGE = {
  description: 'Request body too large: over the body limit of the server (1 MiB for JSON and forms; an upload has its own, docs/api.md "Errors")',
  content: { [JSON_TYPE]: { schema: ERROR_SCHEMA } },
};

const URI_TOO_LONG = {
  description: 'Request path is too long: a path parameter over 100 characters (answered by the router, before authentication)',
  content: { [JSON_TYPE]: { schema: ERROR_SCHEMA } },
};

const BAD_REQUEST = {
  description: 'Invalid or missing required parameter: a missing or invalid field, query value or path value, or an unknown query parameter',
  content: { [JSON_TYPE]: { schema: ERROR_SCHEMA } },
};

/** The rate-limit headers of spec 7, sent on every answer of a limited request (src/core/rate-limit.ts). */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current window (spec 7)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets, Unix time in seconds', schema: { type: 'integer' } },
};

const RETRY_AFTER = { description: 'Seconds to wait before trying again', schema: { type: 'integer' } };

const IGNORED_FIELDS_HEADER = {
  description: 'Top-level body fields the server dropped (unknown to this operation), comma-separated, URI-encoded; absent when none',
  schema: { type: 'string' },
};

const BINARY = { type: 'string', format: 'binary' };

/** Ajv for "does an empty body pass this schema" (the request body of every route). */
const ajv = (() => {
  const a = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  addFormats(a);
  return a;
})();

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of a request body schema without `additionalProperties: false` anywhere: the server
 * removes unknown fields instead of refusing them.
 */
export function openBodySchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openBodySchema);
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'properties' && isObj(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, openBodySchema(s)]));
    } else out[key] = openBodySchema(value);
  }
  return out;
}

/** True when every top-level property is a scalar (or a list of scalars): the body fits a form. */
function isFlat(schema: Obj): boolean {
  if (schema.type !== 'object' || !isObj(schema.properties)) return false;
  const scalar = (s: unknown): boolean => {
    if (!isObj(s)) return false;
    const members = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (Array.isArray(members)) return members.every(scalar);
    if (s.type === 'array') return isObj(s.items) && scalar(s.items) && (s.items as Obj).type !== 'array';
    return ['string', 'number', 'integer', 'boolean', 'null'].includes(String(s.type)) || 'const' in s || Array.isArray(s.enum);
  };
  return Object.values(schema.properties).every(scalar);
}

/** True when the server refuses a write without a body (an empty object fails the schema). */
function needsBody(schema: unknown): boolean {
  try {
    return !ajv.validate(schema as object, {});
  } catch {
    return true;
  }
}

/** The response's content, rewritten from its media-type annotation (or left as is). */
function responseContent(content: Obj): Obj {
  const json = content[JSON_TYPE] as { schema?: Obj } | undefined;
  const types = json?.schema?.[MEDIA_TYPES_KEY];
  if (!json?.schema || !Array.isArray(types)) return content;
  const { [MEDIA_TYPES_KEY]: _drop, ...schema } = json.schema;
  const binary = schema.format === 'binary';
  const out: Obj = {};
  for (const type of types as string[]) {
    out[type] = { schema: type === JSON_TYPE && !binary ? schema : { ...BINARY, ...(schema.description ? { description: schema.description } : {}) } };
  }
  return out;
}

/** Finishes one operation in place (see the file's docstring). */
function finishOperation(method: string, op: Obj): void {
  const responses = (op.responses ?? {}) as Record<string, Obj>;
  for (const response of Object.values(responses)) {
    if (isObj(response.content)) response.content = responseContent(response.content);
  }
  responses['400'] ??= structuredClone(BAD_REQUEST);
  responses['500'] ??= structuredClone(INTERNAL_ERROR);
  if (WRITES.has(method)) {
    responses['413'] ??= structuredClone(TOO_LARGE);
    responses['415'] ??= structuredClone(UNSUPPORTED_MEDIA_TYPE);
  }
  const params = (op.parameters ?? []) as Obj[];
  if (params.some((p) => p.in === 'path')) responses['414'] ??= structuredClone(URI_TOO_LONG);
  if (Array.isArray(op.security) && op.security.length > 0) responses['403'] ??= structuredClone(FORBIDDEN);
  // A success and a 429 carry the rate-limit headers (components.headers); a 429 also says when to
  // try again. (Every other answer of a limited request carries them too; left out of the document
  // to keep it small.)
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith('2') && status !== '429') continue;
    const headers: Obj = { ...(response.headers as Obj | undefined) };
    for (const name of Object.keys(RATE_LIMIT_HEADERS)) headers[name] = { $ref: `#/components/headers/${name}` };
    if (status === '429') headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    response.headers = headers;
  }
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  if (!WRITES.has(method)) return;

  const needsCsrf = params.some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'x-csrf-token');
  const body = op.requestBody as { content: Record<string, { schema?: Obj }>; required?: boolean; description?: string } | undefined;
  if (!body) {
    if (!needsCsrf) return;
    const schema = { type: 'object', properties: { csrf_token: { type: 'string', description: CSRF_FIELD_DESCRIPTION } } };
    op.requestBody = { required: false, description: 'Optional: the CSRF token may travel here instead of X-CSRF-Token', content: { [JSON_TYPE]: { schema }, [FORM_TYPE]: { schema } } };
    ignoredFieldsHeader(responses);
    return;
  }
  const multipart = body.content[MULTIPART_TYPE];
  if (multipart?.schema && isObj(multipart.schema.properties) && needsCsrf) {
    multipart.schema.properties = { ...multipart.schema.properties, csrf_token: { type: 'string', description: CSRF_FIELD_DESCRIPTION } };
  }
  const json = body.content[JSON_TYPE];
  if (!json?.schema) return;
  const schema = openBodySchema(json.schema) as Obj;
  body.content[JSON_TYPE] = { ...json, schema };
  if (isFlat(schema)) body.content[FORM_TYPE] = { schema };
  body.required = needsBody(schema);
  ignoredFieldsHeader(responses);
}

/** Documents X-Ignored-Fields on the 2xx answers of a write that takes a body. */
function ignoredFieldsHeader(responses: Record<string, Obj>): void {
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith('2')) continue;
    response.headers = { ...(response.headers as Obj | undefined), 'X-Ignored-Fields': IGNORED_FIELDS_HEADER };
  }
}

/**
 * @fastify/swagger's `transformObject`: finishes every operation of the generated document.
 * @param doc the OpenAPI 3.1 document as generated
 * @returns the same document, changed in place
 */
export function finishDocument<T>(doc: T): T {
  const components = ((doc as { components?: Obj }).components ??= {});
  components.headers = { ...(components.headers as Obj | undefined), ...structuredClone(RATE_LIMIT_HEADERS), 'Retry-After': structuredClone(RETRY_AFTER) };
  const paths = (doc as { paths?: Record<string, Record<string, Obj>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const [method, op] of Object.entries(item)) if (isObj(op) && isObj(op.responses)) finishOperation(method, op);
  }
  return doc;
}
