/**
 * JSON written by the database for hot list reads (bench/README.md): SQL expressions that write a
 * row as the JSON object of a TypeBox schema, in the key order Fastify's serializer uses (required
 * keys in schema order, then the optional ones) and with the value formats JSON.stringify gives
 * (strings escaped by to_json, times as "YYYY-MM-DDTHH:MM:SS.mmmZ" in UTC, NULL as null). A route
 * wraps the joined objects in the list envelope (src/http/envelope.ts listOfJson). Used by the
 * jobs list and the activity log; bench/limit.ts writes its bodies with jsonValueSql too.
 */
import type { TSchema } from 'typebox';

/** How a value is written: JSON string, number, boolean, or ISO 8601 UTC time with milliseconds. */
export type JsonKind = 'str' | 'num' | 'bool' | 'time';

/** The JSON kind of a property schema (a Nullable union takes its non-null member's kind). */
function kindOf(schema: TSchema): JsonKind {
  const s = schema as { anyOf?: TSchema[]; type?: string; format?: string };
  if (s.anyOf) return kindOf(s.anyOf.find((m) => (m as { type?: string }).type !== 'null')!);
  if (s.type === 'integer' || s.type === 'number') return 'num';
  if (s.type === 'boolean') return 'bool';
  if (s.type === 'string') return s.format === 'date-time' ? 'time' : 'str';
  throw new Error(`json-sql: no JSON kind for schema type ${String(s.type)}`);
}

/**
 * SQL writing the value of the SQL expression `expr` as JSON text ('null' for NULL), as
 * JSON.stringify would write it.
 */
export function jsonValueSql(expr: string, kind: JsonKind): string {
  switch (kind) {
    case 'str':
      return `coalesce(to_json(${expr})::text, 'null')`;
    case 'num':
    case 'bool':
      return `coalesce((${expr})::text, 'null')`;
    case 'time':
      return `coalesce(to_json(to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, 'null')`;
  }
}

/**
 * The SQL expression writing one row as the JSON object of `schema` (a TypeBox object).
 * @param alias the row's alias; a key's value is `alias."key"` unless `columns` names another expression
 * @param options.include which keys to write (default every key); gets the key and whether it is required
 * @param options.columns SQL expressions for keys whose column has another name or needs a default
 */
export function schemaObjectSql(
  schema: TSchema,
  alias: string,
  options: { include?: (key: string, required: boolean) => boolean; columns?: Record<string, string> } = {},
): string {
  const properties = (schema as { properties: Record<string, TSchema> }).properties;
  const required = new Set<string>((schema as { required?: string[] }).required ?? []);
  const keys = [...Object.keys(properties).filter((k) => required.has(k)), ...Object.keys(properties).filter((k) => !required.has(k))].filter(
    (k) => options.include?.(k, required.has(k)) ?? true,
  );
  const value = (k: string) => jsonValueSql(options.columns?.[k] ?? `${alias}."${k}"`, kindOf(properties[k]!));
  return `'{' || ${keys.map((k, i) => `'${i ? ',' : ''}"${k}":' || ${value(k)}`).join(' || ')} || '}'`;
}
