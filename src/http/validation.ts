/**
 * Request validation. Two Ajv instances: query, path and header values arrive as strings and are
 * coerced to the schema's types; JSON bodies are checked strictly (a string is not a number). Both
 * drop nothing silently on query strings: an unknown query parameter is 400 (SECURITY.md 15);
 * unknown body fields are removed (no mass assignment, promise 9).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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
  return ajv;
}

const stringAjv = makeAjv(true);
const bodyAjv = makeAjv(false);

/** Fastify validator compiler choosing the Ajv by the part of the request. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : stringAjv;
  return ajv.compile(schema as object) as ValidateFunction;
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
