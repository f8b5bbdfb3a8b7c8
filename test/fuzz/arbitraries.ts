/**
 * fast-check generators of bad input from a JSON schema (the OpenAPI document's): wrong types,
 * boundaries, odd Unicode, long strings, and real ids and uuids of both agencies. A value is
 * sometimes valid-looking, so requests also get past validation into the services.
 */
import fc from 'fast-check';
import type { FuzzWorld } from './world.ts';

export type Schema = Record<string, unknown>;

const ODD_TEXT = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u202e\u0041', '😀'.repeat(3), 'Ω≈ç√', '%00', '../../etc/passwd',
  "'; drop table jobs; --", '<script>alert(1)</script>', '__proto__', '{"a":1}', '1e20', '-0', 'NaN', 'null', 'true',
  '0000-01-01', '9999-12-31', '2026-02-30', '2026-11-23T25:00:00Z', '+002026-01-01', 'a'.repeat(300), 'b'.repeat(5000),
];
const ODD_NUMBERS = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e20, -1e20, 0.5, 1e-9, Number.MAX_SAFE_INTEGER];

/** Any JSON value of a wrong kind. */
const wrongType = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, [1, 2], { nested: { deep: [null] } }),
  fc.constantFrom(...ODD_NUMBERS),
  fc.constantFrom(...ODD_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  for (const k of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[k])) return (schema[k] as Schema[]).flatMap(typesOf);
  }
  if (schema.const !== undefined) return [typeof schema.const];
  return [];
}

function first(schema: Schema): Schema {
  for (const k of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[k])) return (schema[k] as Schema[]).find((s) => s.type !== 'null') ?? schema;
  }
  return schema;
}

/** A plausible (often valid) value for the schema, drawing real ids and uuids from the world. */
function plausible(schema: Schema, world: FuzzWorld, name: string): fc.Arbitrary<unknown> {
  const s = first(schema);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  const type = typesOf(s)[0];
  if (type === 'integer' || type === 'number') {
    const ids = [...world.ids.own, ...world.ids.foreign];
    const min = typeof s.minimum === 'number' ? s.minimum : 0;
    const max = typeof s.maximum === 'number' ? Math.min(s.maximum, min + 1000) : min + 1000;
    return name.endsWith('id') || name === 'ID' ? fc.constantFrom(...ids) : fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  }
  if (type === 'boolean') return fc.boolean();
  if (type === 'array') return fc.array(plausible((s.items as Schema) ?? {}, world, name), { maxLength: 3 });
  if (type === 'object') return objectOf(s, world);
  if (s.format === 'uuid') return fc.constantFrom(...world.uuids.own, ...world.uuids.foreign, '00000000-0000-4000-8000-000000000000');
  if (s.format === 'date') return fc.constantFrom('2026-11-25', '2026-12-01', '1900-01-01', '2999-12-31');
  if (s.format === 'date-time') return fc.constantFrom('2026-11-25T10:00:00Z', '2026-12-01T00:00:00.000Z');
  if (s.format === 'email') return fc.constantFrom('fuzz@example.test', 'rita.agent@example.test');
  return fc.string({ minLength: typeof s.minLength === 'number' ? s.minLength : 1, maxLength: 12 });
}

/** A value for the schema: plausible most of the time, otherwise bad. */
export function valueFor(schema: Schema, world: FuzzWorld, name = ''): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: plausible(schema, world, name), weight: 3 }, { arbitrary: wrongType, weight: 2 });
}

/** An object for an object schema: a random subset of its properties, plus sometimes stray keys. */
export function objectOf(schema: Schema, world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  const props = (first(schema).properties ?? {}) as Record<string, Schema>;
  const required = new Set((first(schema).required as string[] | undefined) ?? []);
  const entries = Object.entries(props).filter(([k]) => k !== 'csrf_token');
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of entries) record[k] = valueFor(s, world, k);
  const requiredKeys = entries.map(([k]) => k).filter((k) => required.has(k));
  const body = fc.record(record, { requiredKeys }).map((o) => o as Record<string, unknown>);
  const stray = fc.dictionary(fc.constantFrom('agency_id', 'level', 'password_hash', 'constructor', 'x'), wrongType, { maxKeys: 2 });
  return fc.tuple(body, fc.option(stray, { freq: 4 })).map(([b, extra]) => ({ ...(extra ?? {}), ...b }));
}

/** A raw body that is not JSON of the schema at all: text, wrong content, broken multipart. */
export const rawBody = fc.constantFrom(
  { type: 'application/json', payload: '{"title": ' },
  { type: 'application/json', payload: '[]' },
  { type: 'application/json', payload: '"text"' },
  { type: 'application/json', payload: '{"__proto__": {"x": 1}}' },
  { type: 'text/plain', payload: 'hello' },
  { type: 'application/x-www-form-urlencoded', payload: 'priority=4&title=%00&x[y]=1' },
  { type: 'multipart/form-data', payload: '--x\r\n' },
  { type: 'multipart/form-data; boundary=b', payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.pdf"\r\n\r\n%PDF-1.4\r\n--b--\r\n' },
  { type: 'multipart/form-data; boundary=b', payload: '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\ntruncated' },
);
