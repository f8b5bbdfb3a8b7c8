/** The docs page's OpenAPI 3.0 copy (src/http/openapi-ui.ts): exact equivalents, or an error. */
import { describe, expect, it } from 'vitest';
import { toOpenApi30 } from '../../src/http/openapi-ui.ts';

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
