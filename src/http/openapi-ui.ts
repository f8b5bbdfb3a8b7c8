/**
 * The docs page's copy of the OpenAPI document, in OpenAPI 3.0 (docs/api.md "Docs page").
 * Swagger UI 5 resolves a 3.1 document through a much slower path (ApiDOM): about three times the
 * render time of the same document as 3.0. Our 3.1 document uses only two constructs 3.0 lacks,
 * and both have exact 3.0 equivalents:
 *   - `{ type: 'null' }` as a member of anyOf/oneOf (a nullable value) becomes `nullable: true`;
 *   - `info.license.identifier` (SPDX) is dropped (3.0 has `license.url` only).
 * Anything else 3.1-only makes the conversion throw, so a new construct is noticed in tests rather
 * than silently mis-rendered. `/api/openapi.json` stays 3.1; only `/docs/json` serves this copy.
 */

type Json = unknown;
type Schema = Record<string, Json>;

const ONLY_31 = ['const', 'examples', '$schema', '$defs', 'prefixItems', 'contentMediaType', 'contentEncoding', 'unevaluatedProperties', 'dependentRequired'];

const isNull = (s: Json) => typeof s === 'object' && s !== null && (s as Schema).type === 'null' && Object.keys(s).length <= 2;

function convert(node: Json, inSchema: boolean, path: string, member = false): Json {
  if (Array.isArray(node)) return node.map((x, i) => convert(x, inSchema, `${path}/${i}`, /\/(anyOf|oneOf)$/.test(path)));
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(obj)) {
    // Property names under `properties` are data, not keywords.
    const childInSchema = inSchema || key === 'schema' || key === 'schemas';
    out[key] = key === 'properties' && typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value as Schema).map(([name, s]) => [name, convert(s, true, `${path}/properties/${name}`)]))
      : convert(value, childInSchema, `${path}/${key}`);
  }
  if (!inSchema) return out;
  if (Array.isArray(out.type)) throw new Error(`${path}: type arrays have no OpenAPI 3.0 form`);
  for (const key of ONLY_31) if (key in out) throw new Error(`${path}: '${key}' has no OpenAPI 3.0 form`);
  if (typeof out.exclusiveMinimum === 'number' || typeof out.exclusiveMaximum === 'number') throw new Error(`${path}: numeric exclusive bounds`);
  for (const combiner of ['anyOf', 'oneOf'] as const) {
    const members = out[combiner];
    if (!Array.isArray(members) || !members.some(isNull)) continue;
    const rest = members.filter((m) => !isNull(m));
    delete out[combiner];
    out.nullable = true;
    if (rest.length > 1) out[combiner] = rest;
    else if (rest.length === 1) {
      const only = rest[0] as Schema;
      // A $ref cannot carry siblings in 3.0: wrap it.
      if ('$ref' in only) out.allOf = [only];
      else for (const [k, v] of Object.entries(only)) if (!(k in out)) out[k] = v;
    } else out.enum = [null];
    // 3.0 wants `type` beside `nullable`: the members' common type (all strings, say).
    const alternatives = (out.anyOf ?? out.oneOf) as Schema[] | undefined;
    const types = new Set(alternatives?.map((m) => m.type));
    if (out.type === undefined && !out.allOf && types.size === 1 && typeof [...types][0] === 'string') out.type = [...types][0];
  }
  // A null member of anyOf/oneOf is folded into its parent above; anywhere else it has no 3.0 form.
  if (out.type === 'null' && !member) throw new Error(`${path}: a bare null type`);
  return out;
}

/**
 * Converts the served 3.1 document to its 3.0.3 equivalent for Swagger UI.
 * @param doc the document from `app.swagger()` (not modified)
 * @returns a new document
 * @throws Error naming the JSON path of a construct with no exact 3.0 form
 */
export function toOpenApi30(doc: Json): Schema {
  const out = convert(doc, false, '#') as Schema;
  out.openapi = '3.0.3';
  const info = out.info as { license?: Record<string, Json> } | undefined;
  if (info?.license) delete info.license.identifier;
  return out;
}

/** Schemas shorter than this (as JSON text) stay inline: a $ref would save little and cost a lookup. */
const SHARE_MIN_CHARS = 160;

/** Keywords whose value is one schema, and those whose value is a list of schemas (OpenAPI 3.0). */
const ONE_SCHEMA = ['items', 'additionalProperties', 'not'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

/** Calls `visit` on every schema position of an operation tree: parameters, bodies, responses. */
function forEachRootSchema(doc: Schema, visit: (holder: Schema, key: string, name: string) => void): void {
  for (const [, item] of Object.entries((doc.paths ?? {}) as Record<string, Schema>)) {
    for (const [, op] of Object.entries(item)) {
      if (typeof op !== 'object' || op === null || Array.isArray(op)) continue;
      const operation = op as Schema;
      const name = String(operation.operationId ?? 'operation');
      for (const p of (operation.parameters ?? []) as Schema[]) if (p.schema) visit(p, 'schema', `${name}_${String(p.name)}`);
      const bodies: Array<[Schema | undefined, string]> = [[operation.requestBody as Schema | undefined, `${name}_body`]];
      for (const [status, r] of Object.entries((operation.responses ?? {}) as Record<string, Schema>)) bodies.push([r, `${name}_${status}`]);
      for (const [body, label] of bodies) {
        for (const media of Object.values((body?.content ?? {}) as Record<string, Schema>)) if (media.schema) visit(media, 'schema', label);
      }
    }
  }
}

/** Calls `visit` on each direct sub-schema of a schema (properties, items, combiners...). */
function forEachSubSchema(schema: Schema, name: string, visit: (holder: Schema | Json[], key: string | number, name: string) => void): void {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties && typeof properties === 'object') for (const key of Object.keys(properties)) visit(properties as Schema, key, `${name}_${key}`);
  for (const key of ONE_SCHEMA) if (typeof schema[key] === 'object' && schema[key] !== null) visit(schema, key, key === 'items' ? `${name}_item` : `${name}_${key}`);
  for (const key of SCHEMA_LISTS) if (Array.isArray(schema[key])) (schema[key] as Json[]).forEach((_, i) => visit(schema[key] as Json[], i, `${name}_${i + 1}`));
}

/**
 * The docs page's copy with every schema that occurs more than once (the error envelope on every
 * operation, a job in a dozen responses) moved to `components/schemas` and referenced by `$ref`
 * (docs/api.md "Docs page"). Swagger UI turns the whole document into immutable maps before it
 * draws anything, so the page's first draw grows with the document's size; an operation's $refs
 * are resolved when it is opened. Resolving every $ref gives back the input exactly.
 * @param doc an OpenAPI 3.0 document without `components/schemas` entries of its own (not modified)
 * @returns a new document; component names come from where the schema first occurs
 *   (`listJobs_200_data_item`), made unique with a number
 */
export function shareRepeatedSchemas(doc: Schema): Schema {
  const out = structuredClone(doc);
  const counts = new Map<string, number>();
  const count = (schema: Json, name: string): void => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
    const text = JSON.stringify(schema);
    if (text.length >= SHARE_MIN_CHARS) counts.set(text, (counts.get(text) ?? 0) + 1);
    forEachSubSchema(schema as Schema, name, (holder, key, sub) => count((holder as Record<string | number, Json>)[key], sub));
  };
  forEachRootSchema(out, (holder, key, name) => count(holder[key], name));

  const components: Schema = {};
  const names = new Map<string, string>();
  const used = new Set<string>();
  const share = (holder: Record<string | number, Json>, key: string | number, name: string): void => {
    const schema = holder[key];
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
    const text = JSON.stringify(schema);
    if ((counts.get(text) ?? 0) < 2) {
      forEachSubSchema(schema as Schema, name, (h, k, sub) => share(h as Record<string | number, Json>, k, sub));
      return;
    }
    let ref = names.get(text);
    if (!ref) {
      const base = name.replace(/[^A-Za-z0-9._-]/g, '_');
      ref = base;
      for (let n = 2; used.has(ref); n++) ref = `${base}${n}`;
      used.add(ref);
      names.set(text, ref);
      const body = structuredClone(schema) as Schema;
      // The component's own repeated parts are shared too (its root is not replaced by itself).
      forEachSubSchema(body, ref, (h, k, sub) => share(h as Record<string | number, Json>, k, sub));
      components[ref] = body;
    }
    holder[key] = { $ref: `#/components/schemas/${ref}` };
  };
  forEachRootSchema(out, (holder, key, name) => share(holder, key, name));
  const existing = (out.components ?? {}) as Schema;
  out.components = { ...existing, schemas: { ...((existing.schemas ?? {}) as Schema), ...components } };
  shareRepeatedObjects(out);
  return out;
}

/**
 * Moves parameters and responses that occur more than once (the CSRF header, `limit`, the 403
 * response) to `components/parameters` and `components/responses`, referenced by `$ref`. Names
 * come from the parameter (`header_x-csrf-token`) or the status and description (`403_Forbidden`).
 */
function shareRepeatedObjects(doc: Schema): void {
  const operations: Schema[] = [];
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Schema>)) {
    for (const op of Object.values(item)) if (typeof op === 'object' && op !== null && !Array.isArray(op)) operations.push(op as Schema);
  }
  const counts = new Map<string, number>();
  const tally = (value: Json) => {
    const text = JSON.stringify(value);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  };
  for (const op of operations) {
    for (const p of (op.parameters ?? []) as Json[]) tally(p);
    for (const r of Object.values((op.responses ?? {}) as Schema)) tally(r);
  }
  const components = (doc.components ?? {}) as Schema;
  const parameters: Schema = {};
  const responses: Schema = {};
  const names = new Map<string, string>();
  const refer = (value: Json, kind: 'parameters' | 'responses', base: string): Json => {
    const text = JSON.stringify(value);
    if ((counts.get(text) ?? 0) < 2 || text.length < 80) return value;
    const store = kind === 'parameters' ? parameters : responses;
    let name = names.get(`${kind}:${text}`);
    if (!name) {
      const clean = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+$/, '').slice(0, 60);
      name = clean;
      for (let n = 2; name in store; n++) name = `${clean}_${n}`;
      names.set(`${kind}:${text}`, name);
      store[name] = value;
    }
    return { $ref: `#/components/${kind}/${name}` };
  };
  for (const op of operations) {
    if (Array.isArray(op.parameters)) op.parameters = (op.parameters as Schema[]).map((p) => refer(p, 'parameters', `${String(p.in)}_${String(p.name)}`));
    const rs = op.responses as Schema | undefined;
    if (rs) for (const [status, r] of Object.entries(rs)) rs[status] = refer(r, 'responses', `${status}_${String((r as Schema).description ?? '')}`);
  }
  doc.components = { ...components, parameters: { ...((components.parameters ?? {}) as Schema), ...parameters }, responses: { ...((components.responses ?? {}) as Schema), ...responses } };
}

/**
 * The document the docs page draws (/docs/json): the 3.0 equivalent of /api/openapi.json with its
 * repeated schemas shared (see toOpenApi30 and shareRepeatedSchemas).
 * @throws Error as toOpenApi30
 */
export function docsPageDocument(doc: Json): Schema {
  return shareRepeatedSchemas(toOpenApi30(doc));
}
