/**
 * The one place that turns a TypeBox object schema into a wire object, both ways a row can become
 * one: `schemaObjectSql` writes it as JSON text in SQL (hot list reads: PostgreSQL formats each
 * row and joins them, a route wraps the text in the list envelope, src/http/envelope.ts
 * listOfJson), `schemaObject` builds it in JavaScript from a row (one record, or a report's rows).
 * Both take the keys in the order Fastify's serializer uses (required keys in schema order, then
 * the optional ones), the same `include` rule, and the value formats JSON.stringify gives (times
 * as "YYYY-MM-DDTHH:MM:SS.mmmZ" in UTC, NULL as null), so a record reads the same either way.
 * Used by the jobs list and detail and the activity log; bench/limit.ts writes its bodies with
 * jsonValueSql too.
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

/** Which keys of an object schema are written: gets the key and whether the schema requires it. */
export type IncludeKey = (key: string, required: boolean) => boolean;

/**
 * wireKeys' answers per schema and include rule. The rules are module constants where it is hot
 * (job-json.ts); a caller making a new rule per call is answered without caching past a few.
 */
const WIRE_KEYS = new WeakMap<TSchema, Map<IncludeKey | undefined, Array<[string, JsonKind]>>>();

/** The keys of `schema` written, in wire order (required first), with their JSON kinds. */
function wireKeys(schema: TSchema, include?: IncludeKey): Array<[string, JsonKind]> {
  let bySchema = WIRE_KEYS.get(schema);
  if (!bySchema) WIRE_KEYS.set(schema, (bySchema = new Map()));
  let keys = bySchema.get(include);
  if (!keys) {
    keys = computeWireKeys(schema, include);
    if (bySchema.size < 8) bySchema.set(include, keys);
  }
  return keys;
}

function computeWireKeys(schema: TSchema, include?: IncludeKey): Array<[string, JsonKind]> {
  const properties = (schema as { properties: Record<string, TSchema> }).properties;
  const required = new Set<string>((schema as { required?: string[] }).required ?? []);
  const all = Object.keys(properties);
  return [...all.filter((k) => required.has(k)), ...all.filter((k) => !required.has(k))]
    .filter((k) => include?.(k, required.has(k)) ?? true)
    .map((k) => [k, kindOf(properties[k]!)]);
}

/**
 * A row as the wire object of `schema` (a TypeBox object): the included keys in wire order, times
 * (Date or text) as ISO 8601 UTC strings, a missing or null value as null.
 * @param row the row, its columns named as the schema's keys
 */
export function schemaObject<T>(schema: TSchema, row: Record<string, unknown>, include?: IncludeKey): T {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of wireKeys(schema, include)) {
    const v = row[key];
    out[key] = v === undefined || v === null ? null : kind === 'time' ? new Date(v as Date | string).toISOString() : v;
  }
  return out as T;
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
  options: { include?: IncludeKey; columns?: Record<string, string> } = {},
): string {
  const keys = wireKeys(schema, options.include);
  const value = (k: string, kind: JsonKind) => jsonValueSql(options.columns?.[k] ?? `${alias}."${k}"`, kind);
  return `'{' || ${keys.map(([k, kind], i) => `'${i ? ',' : ''}"${k}":' || ${value(k, kind)}`).join(' || ')} || '}'`;
}
