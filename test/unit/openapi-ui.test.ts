/** The docs page's OpenAPI 3.0 copy (src/http/openapi-ui.ts): exact equivalents, or an error. */
import { describe, expect, it } from 'vitest';
import { shareRepeatedSchemas, toOpenApi30 } from '../../src/http/openapi-ui.ts';

const doc = (schema: unknown) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1', license: { name: 'x', identifier: 'MIT' } },
  paths: { '/a': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } },
});
const schemaOf = (d: Record<string, unknown>) => (d.paths as any)['/a'].get.responses[200].content['application/json'].schema;

describe('toOpenApi30', () => {
  it('turns a nullable member into nullable: true and drops the SPDX id', () => {
    const out = toOpenApi30(doc({ type: 'object', properties: { type: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] } } }));
    expect(out.openapi).toBe('3.0.3');
    expect(out.info).toEqual({ title: 't', version: '1', license: { name: 'x' } });
    // A property named "type" is data, not a keyword.
    expect(schemaOf(out).properties.type).toEqual({ nullable: true, type: 'string', format: 'date-time' });
  });

  it('wraps a nullable $ref and gives nullable alternatives their common type', () => {
    expect(schemaOf(toOpenApi30(doc({ anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }] })))).toEqual({
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/X' }],
    });
    expect(schemaOf(toOpenApi30(doc({ anyOf: [{ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }] }, { type: 'null' }] })))).toEqual({
      nullable: true,
      type: 'string',
      anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }],
    });
  });

  it.each([{ const: 1 }, { type: ['string', 'null'] }, { type: 'null' }, { type: 'number', exclusiveMinimum: 0 }])('refuses %j, which has no exact 3.0 form', (schema) => {
    expect(() => toOpenApi30(doc(schema))).toThrow(/#\/paths/);
  });
});

/** Replaces every local $ref by what it points to (the documents here have no cycles). */
function inline(node: unknown, doc: any): unknown {
  if (Array.isArray(node)) return node.map((x) => inline(x, doc));
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: string }).$ref;
  if (ref) return inline(ref.slice(2).split('/').reduce((at: any, key) => at[key], doc), doc);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, doc)]));
}

describe('shareRepeatedSchemas', () => {
  const envelope = { type: 'object', required: ['success', 'error'], properties: { success: { type: 'boolean', enum: [false] }, error: { type: 'string', description: 'What went wrong, in words a caller can show' } } };
  const job = { type: 'object', properties: { ID: { type: 'integer' }, title: { type: 'string', description: 'Short description of the repair, as the tenant gave it' }, priority: { type: 'integer', minimum: 1, maximum: 4 } } };
  const op = (operationId: string, ok: unknown) => ({
    operationId,
    parameters: [{ name: 'x-csrf-token', in: 'header', required: false, schema: { type: 'string', description: 'A single-use token from GET /api/security/csrf-token' } }],
    responses: {
      200: { description: 'ok', content: { 'application/json': { schema: ok } } },
      403: { description: 'Missing permission or CSRF token', content: { 'application/json': { schema: envelope } } },
    },
  });
  const input = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: { '/jobs': { get: op('listJobs', { type: 'object', properties: { data: { type: 'array', items: job } } }) }, '/jobs/{id}': { get: op('getJob', { type: 'object', properties: { data: job } }) } },
  };

  it('moves repeated schemas, parameters and responses to components, and resolving them gives the input back', () => {
    const out = shareRepeatedSchemas(input) as any;
    expect(Object.keys(out.components.schemas)).toEqual(expect.arrayContaining(['listJobs_200_data_item']));
    expect(out.paths['/jobs/{id}'].get.responses[200].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/listJobs_200_data_item' });
    expect(out.paths['/jobs'].get.responses[403]).toEqual({ $ref: '#/components/responses/403_Missing_permission_or_CSRF_token' });
    expect(out.paths['/jobs'].get.parameters[0]).toEqual({ $ref: '#/components/parameters/header_x-csrf-token' });
    const { components: _, ...rest } = inline(out, out) as any;
    expect(rest).toEqual(input);
    // The input is not modified.
    expect(input.paths['/jobs'].get.responses[403].content['application/json'].schema).toBe(envelope);
  });
});
