/**
 * The job wire shape (the Job schema of jobs.schemas.ts) written as JSON text by the database, so
 * that a page of the jobs list (spec 4.16) never becomes JavaScript objects: PostgreSQL formats
 * each row and joins them, and the route wraps the text in the list envelope (bench/README.md,
 * "jobs list"). The keys come out in the order Fastify's serializer writes the schema (required
 * keys in schema order, then the optional ones), the values as JSON.stringify would write them
 * (strings escaped by to_json, times as ISO 8601 UTC with milliseconds, nulls as null), so the
 * bytes match GET /api/jobs/{uuid}'s `data` (test/jobs/list-json.test.ts).
 */
import type { TSchema } from 'typebox';
import { Job } from './jobs.schemas.ts';

/** How a value is written: JSON string, number, boolean, or ISO 8601 UTC time with milliseconds. */
export type JsonKind = 'str' | 'num' | 'bool' | 'time';
type Kind = JsonKind;

/** The JSON kind of a property schema (a Nullable union takes its non-null member's kind). */
function kindOf(schema: TSchema): Kind {
  const s = schema as { anyOf?: TSchema[]; type?: string; format?: string };
  if (s.anyOf) return kindOf(s.anyOf.find((m) => (m as { type?: string }).type !== 'null')!);
  if (s.type === 'integer' || s.type === 'number') return 'num';
  if (s.type === 'boolean') return 'bool';
  if (s.type === 'string') return s.format === 'date-time' ? 'time' : 'str';
  throw new Error(`job-json: no JSON kind for schema type ${String(s.type)}`);
}

/**
 * SQL writing the value of the SQL expression `expr` as JSON text ('null' for NULL), as
 * JSON.stringify would write it: to_json escapes strings; times become "YYYY-MM-DDTHH:MM:SS.mmmZ".
 * (bench/limit.ts builds its bodies with it too.)
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

const properties = Job.properties as Record<string, TSchema>;
const required = new Set<string>((Job as { required?: string[] }).required ?? []);
const ORDERED = [...Object.keys(properties).filter((k) => required.has(k)), ...Object.keys(properties).filter((k) => !required.has(k))];

/**
 * The SQL expression (over a subquery aliased `p` whose columns carry the Job field names, as
 * JOB_DETAIL_COLUMNS and the SLA columns do) that writes one job as a JSON object.
 * @param internal whether the optional fields (costs, owning agent, hold origin) are written: false for tenants
 */
export function jobJsonSql(internal: boolean): string {
  const names = ORDERED.filter((k) => internal || required.has(k));
  return `'{' || ${names.map((k, i) => `'${i ? ',' : ''}"${k}":' || ${jsonValueSql(`p."${k}"`, kindOf(properties[k]!))}`).join(' || ')} || '}'`;
}
