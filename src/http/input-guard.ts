/**
 * Refusals at the edge for input no layer below can store (docs/security.md promise 27):
 * - text holding a NUL character (PostgreSQL text cannot hold U+0000) or a lone UTF-16 surrogate
 *   (not valid Unicode, refused by PostgreSQL's UTF-8 encoder) anywhere in the body, the query
 *   string or the path: 400 naming the parameter;
 * - integer fields without an explicit bound get the int32 range of the columns they fill, and
 *   `offset` gets a maximum (see `boundIntegers`).
 */
import { invalidParam } from '../core/errors.ts';

/** A NUL, or a high surrogate not followed by a low one, or a low one without a high one before. */
// No `u` flag: the expression works on UTF-16 code units, where a lone surrogate is visible.
// eslint-disable-next-line no-control-regex -- the point is to find NUL and lone surrogates in input
const BAD_TEXT_RE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string holds a NUL or a lone surrogate. */
export function isBadText(text: string): boolean {
  return BAD_TEXT_RE.test(text);
}

/**
 * Finds the first string (or key) holding bad text in a parsed value.
 * @param value parsed JSON, form fields, query or params
 * @param path the dotted name so far ('' at the top)
 * @returns the dotted name of the offending field ("title", "items.0.name"), or undefined
 */
export function findBadText(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return isBadText(value) ? path || 'body' : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  if (Buffer.isBuffer(value)) return undefined;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const name = path ? `${path}.${key}` : key;
    if (isBadText(key)) return name;
    const found = findBadText(inner, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Throws 400 'Invalid or missing required parameter: <name>' when the path, query or body holds
 * a NUL or a lone surrogate.
 */
export function assertCleanInput(request: { params?: unknown; query?: unknown; body?: unknown }): void {
  const bad = findBadText(request.params) ?? findBadText(request.query) ?? findBadText(request.body);
  if (bad !== undefined) throw invalidParam(bad);
}

/** Largest value of a PostgreSQL `integer` column. */
export const INT32_MAX = 2_147_483_647;
/** Largest offset a list accepts (deeper pages use filters or cursors). */
export const OFFSET_MAX = 1_000_000;

/**
 * Gives every integer in a request schema the int32 range unless it declares its own bounds
 * (a `bigint` column's field declares `maximum: Number.MAX_SAFE_INTEGER`), and every `offset`
 * a maximum of OFFSET_MAX. Mutates the schema in place; run once per route at registration,
 * before the validators and the OpenAPI document are built, so the document shows the bounds.
 */
export function boundIntegers(schema: unknown, key?: string, seen = new Set<object>()): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer')) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = key === 'offset' ? OFFSET_MAX : INT32_MAX;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -INT32_MAX - 1;
  }
  if (s.properties && typeof s.properties === 'object') {
    for (const [name, inner] of Object.entries(s.properties as Record<string, unknown>)) boundIntegers(inner, name, seen);
  }
  for (const k of ['items', 'additionalProperties', 'not']) if (s[k]) boundIntegers(s[k], key, seen);
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(s[k])) for (const inner of s[k] as unknown[]) boundIntegers(inner, key, seen);
  }
}

/** Paths whose callers are outside services posting to a URL an operator configured (docs/api.md "Unknown query parameters"). */
const PROVIDER_CALLBACKS = /^\/api\/(inbound\/|sms\/twilio\/)/;

/**
 * Gives a documented route without a querystring schema an empty, closed one, so that an unknown
 * query parameter is 400 naming it on every operation (docs/api.md "Decisions", unknown query
 * parameters), not only on those that take some. Hidden routes (the docs page, the console's
 * files) and the provider callbacks (Mailgun, Twilio: their URL is whatever the operator pasted
 * into the provider's console) are left open. Mutates the route's schema in place; run at
 * registration (src/main/app.ts onRoute).
 * @param route the route's url and schema
 */
export function closeQuerystring(route: { url: string; schema?: unknown }): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide === true || schema.querystring || PROVIDER_CALLBACKS.test(route.url)) return;
  schema.querystring = { type: 'object', properties: {}, additionalProperties: false };
}
