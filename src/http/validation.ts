/**
 * Request validation. Two Ajv instances: query, path and header values arrive as strings and are
 * coerced to the schema's types; JSON bodies are checked strictly (a string is not a number). Both
 * drop nothing silently on query strings: an unknown query parameter is 400 (docs/security.md promise 15);
 * unknown body fields are removed (no mass assignment, promise 9).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isValidIsoDate, isValidIsoDateTime } from '../lib/dates.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: !coerce,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  // One date parser with a valid range (src/lib/dates.ts): years 1900 to 2999 only.
  ajv.addFormat('date', { type: 'string', validate: isValidIsoDate });
  ajv.addFormat('date-time', { type: 'string', validate: isValidIsoDateTime });
  return ajv;
}

const stringAjv = makeAjv(true);
const bodyAjv = makeAjv(false);
/** Form-encoded bodies: coerced like query strings (spec 5.3 lets a form carry csrf_token), unknown fields dropped. */
const formAjv = (() => {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
  addFormats(ajv);
  ajv.addFormat('date', { type: 'string', validate: isValidIsoDate });
  ajv.addFormat('date-time', { type: 'string', validate: isValidIsoDateTime });
  return ajv;
})();

/** Marks a parsed body as form-encoded (non-enumerable, so it is never a field). */
const FORM_BODY = Symbol('form-encoded body');

/**
 * Parser of `application/x-www-form-urlencoded` bodies for @fastify/formbody: the fields, marked
 * so that the body validator coerces them like a query string (`priority=4` is the number 4).
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const prev = fields[key];
    fields[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  Object.defineProperty(fields, FORM_BODY, { value: true, enumerable: false });
  return fields;
}

/**
 * Fastify validator compiler choosing the Ajv by the part of the request (and, for bodies, by JSON
 * or form). Each schema is compiled when its route first validates a request, not when the app
 * becomes ready: compiling every route's schemas was most of a start's `ready` and of the idle
 * server's heap, and a server answers only some of its routes (docs/operations.md "Starting").
 * Ajv keeps each compiled schema by its object, so a second app built from the same routes reuses it.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let strict: ValidateFunction | undefined;
  let loose: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    let fn: ValidateFunction;
    if (httpPart !== 'body') fn = strict ??= stringAjv.compile(schema as object);
    else if (data !== null && typeof data === 'object' && FORM_BODY in data) fn = loose ??= formAjv.compile(schema as object);
    else fn = strict ??= bodyAjv.compile(schema as object);
    const ok = fn(data);
    validate.errors = fn.errors;
    return ok;
  }) as ValidateFunction;
  return validate;
};

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/**
 * The parameter name to report for a failed validation ("title", "limit", "address.postcode").
 * @param errors Ajv errors attached by Fastify
 * @param context 'body' | 'querystring' | 'params' | 'headers'
 */
export function parameterName(errors: AjvLikeError[], context: string | undefined): string {
  const first = errors[0];
  if (!first) return context === 'querystring' ? 'query' : (context ?? 'body');
  const parts = first.instancePath.split('/').filter(Boolean);
  if (first.keyword === 'required' && typeof first.params.missingProperty === 'string') {
    parts.push(first.params.missingProperty);
  }
  if (first.keyword === 'additionalProperties' && typeof first.params.additionalProperty === 'string') {
    parts.push(first.params.additionalProperty);
  }
  if (parts.length === 0) return context === 'querystring' ? 'query' : (context ?? 'body');
  return parts.join('.');
}
