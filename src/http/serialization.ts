/**
 * Response serializers. Fastify asks for one fast-json-stringify function per route and status
 * code when the app becomes ready (Fastify docs, "Validation and Serialization": serialization);
 * with about 200 routes, compiling them all was most of the time an app spent in `ready`. This
 * compiler builds the same functions (fast-json-stringify with the default options, no shared
 * schemas: the app adds none) when a route first answers with that status, not before (a server
 * answers only some of its routes; docs/operations.md "Starting"), and keeps each by its schema's
 * JSON text for the life of the process, so a second app in the same process (the test suite
 * builds hundreds) reuses them.
 */
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Serialize = (data: unknown) => string;

const byText = new Map<string, Serialize>();

/** fast-json-stringify's function for `schema`, compiled once per schema text. */
function compiled(schema: unknown): Serialize {
  const text = JSON.stringify(schema);
  let serialize = byText.get(text);
  if (!serialize) {
    serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Serialize;
    byText.set(text, serialize);
  }
  return serialize;
}

/** Fastify serializer compiler: a function that compiles `schema` on its first call (see above). */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  let serialize: Serialize | undefined;
  return (data: unknown) => (serialize ??= compiled(schema))(data);
};
