/**
 * Response serializers. Fastify compiles one fast-json-stringify function per route and status
 * code when the app becomes ready (Fastify docs, "Validation and Serialization": serialization);
 * with about 200 routes that was most of the time an app spent in `ready`. This compiler
 * builds the same functions (fast-json-stringify with the default options, no shared schemas: the
 * app adds none) and keeps each by its schema's JSON text for the life of the process, so a second
 * app in the same process (the test suite builds hundreds) reuses them. One app per process, as
 * `serve` runs, compiles each schema once, as before.
 */
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Serialize = (data: unknown) => string;

const byText = new Map<string, Serialize>();

/** Fastify serializer compiler: fast-json-stringify's function for `schema`, compiled once per schema text. */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const text = JSON.stringify(schema);
  let serialize = byText.get(text);
  if (!serialize) {
    serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Serialize;
    byText.set(text, serialize);
  }
  return serialize;
};
