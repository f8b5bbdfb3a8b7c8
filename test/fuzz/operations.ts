/** The operations of the OpenAPI document (GET /api/openapi.json) as the fuzz tier walks them. */
import type { TestApp } from '../helpers/app.ts';
import type { Schema } from './arbitraries.ts';

export interface Operation {
  method: string;
  /** OpenAPI path with `{name}` placeholders. */
  path: string;
  pathParams: Array<{ name: string; schema: Schema }>;
  query: Schema;
  /** The JSON body schema, when the operation takes JSON. */
  body: Schema | null;
  multipart: boolean;
}

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: Schema;
}

/** Every operation of the document but the live stream, sorted by path then method (a stable order for seeds). */
export async function loadOperations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>> };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      // The live stream (docs/live-updates.md) never ends, so an injected request never returns;
      // test/jobs/live/live-stream.test.ts checks its refusals and authorisation instead.
      if (path === '/api/events/stream') continue;
      const params = op.parameters ?? [];
      const properties: Record<string, Schema> = {};
      const required: string[] = [];
      for (const p of params.filter((x) => x.in === 'query')) {
        properties[p.name] = p.schema ?? {};
        if (p.required) required.push(p.name);
      }
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        query: { type: 'object', properties, required },
        body: content['application/json']?.schema ?? null,
        multipart: content['multipart/form-data'] !== undefined,
      });
    }
  }
  return ops.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
}
