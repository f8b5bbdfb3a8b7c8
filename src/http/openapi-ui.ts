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
