/**
 * A local HTTP server speaking the n8n public REST API v1 the way a real n8n 2.x does
 * (docs/workflow-engine.md, "How n8n behaves"): GET /api/v1/workflows, /api/v1/workflows/{id},
 * /api/v1/executions; `{ data, nextCursor }` pages with n8n's own cursor encoding (base64 JSON:
 * `{ limit, offset }` for workflows, `{ lastId, limit }` for executions), the page size taken from
 * the cursor once one is given, 400 `An invalid cursor was provided` for a cursor it cannot read,
 * running executions left out unless `status=running` is asked, pinned data sent unless
 * `excludePinnedData=true`, API-key scopes answered with 403, and Express's HTML 404 while the
 * public API is not up yet (`starting`). Switches for hanging, garbage, 500 and a wrong shape.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Mode = 'ok' | 'hang' | 'garbage' | 'error500' | 'wrong-shape' | 'starting';

/** API-key scopes n8n checks on these routes. */
export type Scope = 'workflow:list' | 'workflow:read' | 'execution:list';
export const ALL_SCOPES: Scope[] = ['workflow:list', 'workflow:read', 'execution:list'];

export interface FakeN8n {
  url: string;
  apiKey: string;
  /** Scopes the API key holds (n8n answers 403 `Forbidden` for a route whose scope it lacks). */
  scopes: Scope[];
  mode: Mode;
  /** Items per page the server returns at most, whatever limit asks (n8n caps at 250). */
  pageCap: number;
  workflows: Array<Record<string, unknown>>;
  executions: Array<Record<string, unknown>>;
  /** Every request received: path and query. */
  requests: Array<{ path: string; query: Record<string, string>; apiKey: string | undefined }>;
  close(): Promise<void>;
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64');

/** n8n's decodeCursor: base64 JSON; undefined for anything it cannot read. */
function decode(cursor: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64').toString()) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A 16-character id as n8n makes for workflows (nanoid alphabet), padded from a short name. */
export function workflowId(short: string): string {
  return short.padEnd(16, 'x').slice(0, 16);
}

/** A workflow as n8n returns it (with nodes, connections, settings and pin data we must not pass on). */
export function n8nWorkflow(id: string, name: string, active: boolean, tags: string[] = [], pinData: Record<string, unknown> = {}) {
  return {
    id,
    name,
    active,
    isArchived: false,
    createdAt: '2026-10-01T08:00:00.000Z',
    updatedAt: '2026-11-20T16:30:00.000Z',
    nodes: [
      { id: 'n1', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], parameters: { path: 'secret-path' } },
      { id: 'n2', name: 'Send e-mail', type: 'n8n-nodes-base.emailSend', typeVersion: 2, position: [200, 0], parameters: {} },
    ],
    connections: { Webhook: { main: [[{ node: 'Send e-mail', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    staticData: null,
    pinData,
    tags: tags.map((t, i) => ({ id: `tag${i}`, name: t, createdAt: '2026-10-01T08:00:00.000Z', updatedAt: '2026-10-01T08:00:00.000Z' })),
  };
}

/** An execution as n8n returns it (string ids, as n8n 1.x and later send them). */
export function n8nExecution(id: number, workflowId: string, status: string, startedAt: string) {
  const stopped = status === 'running' || status === 'waiting' ? null : new Date(new Date(startedAt).getTime() + 1500).toISOString();
  return {
    id: String(id),
    finished: status === 'success',
    mode: 'webhook',
    retryOf: null,
    retrySuccessId: null,
    startedAt,
    stoppedAt: stopped,
    workflowId,
    waitTill: status === 'waiting' ? '2026-11-22T00:00:00.000Z' : null,
    customData: {},
    status,
  };
}

type Answer = { status: number; body: unknown };
const invalidCursor: Answer = { status: 400, body: { message: 'An invalid cursor was provided' } };

/** Offset pagination of /workflows: the cursor, when given, carries both offset and limit. */
function offsetPage<T>(items: T[], query: Record<string, string>, cap: number): Answer {
  let limit = Number(query.limit ?? 100);
  let offset = 0;
  if (query.cursor !== undefined) {
    const c = decode(query.cursor);
    if (!c || typeof c.offset !== 'number' || typeof c.limit !== 'number') return invalidCursor;
    ({ offset, limit } = c as { offset: number; limit: number });
  }
  limit = Math.min(limit, cap, 250);
  const data = items.slice(offset, offset + limit);
  return { status: 200, body: { data, nextCursor: offset + limit < items.length ? encode({ limit, offset: offset + limit }) : null } };
}

/** Cursor pagination of /executions (newest first by id): the cursor carries lastId and limit. */
function idPage(items: Array<Record<string, unknown>>, query: Record<string, string>, cap: number): Answer {
  let limit = Number(query.limit ?? 100);
  let lastId: number | undefined;
  if (query.cursor !== undefined) {
    const c = decode(query.cursor);
    if (!c || typeof c.lastId !== 'string' || typeof c.limit !== 'number') return invalidCursor;
    lastId = Number(c.lastId);
    limit = c.limit;
  }
  limit = Math.min(limit, cap, 250);
  const sorted = [...items].sort((a, b) => Number(b.id) - Number(a.id)).filter((e) => lastId === undefined || Number(e.id) < lastId);
  const data = sorted.slice(0, limit);
  const more = sorted.length > limit;
  return { status: 200, body: { data, nextCursor: more ? encode({ lastId: String(data.at(-1)!.id), limit }) : null } };
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startFakeN8n(apiKey = 'test-n8n-key'): Promise<FakeN8n> {
  const hanging = new Set<IncomingMessage>();
  const state: Omit<FakeN8n, 'url' | 'close'> = { apiKey, scopes: [...ALL_SCOPES], mode: 'ok', pageCap: 250, workflows: [], executions: [], requests: [] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const key = req.headers['x-n8n-api-key'];
    state.requests.push({ path: url.pathname, query, apiKey: typeof key === 'string' ? key : undefined });
    const send = ({ status, body }: Answer) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (state.mode === 'hang') {
      hanging.add(req);
      return;
    }
    if (state.mode === 'starting') {
      // Express's default 404 while n8n registers its routes (about 3 s after start).
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET ${url.pathname}</pre>\n</body>\n</html>\n`);
    }
    if (key !== state.apiKey) return send({ status: 401, body: { message: 'unauthorized' } });
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('<html>502 Bad Gateway</html>');
    }
    if (state.mode === 'error500') return send({ status: 500, body: { message: 'Internal error' } });
    if (state.mode === 'wrong-shape') return send({ status: 200, body: { data: [{ id: 1, title: 'no name, no active flag' }], nextCursor: 7 } });
    const forbidden = (scope: Scope) => !state.scopes.includes(scope);
    const withoutPinData = (w: Record<string, unknown>) => {
      if (query.excludePinnedData !== 'true') return w;
      const { pinData: _p, ...rest } = w;
      return rest;
    };
    if (url.pathname === '/api/v1/workflows') {
      if (forbidden('workflow:list')) return send({ status: 403, body: { message: 'Forbidden' } });
      const items = query.active === 'true' ? state.workflows.filter((w) => w.active === true) : state.workflows;
      const answer = offsetPage(items.map(withoutPinData), query, state.pageCap);
      return send(answer);
    }
    const one = /^\/api\/v1\/workflows\/([^/]+)$/.exec(url.pathname);
    if (one) {
      if (forbidden('workflow:read')) return send({ status: 403, body: { message: 'Forbidden' } });
      const wf = state.workflows.find((w) => w.id === decodeURIComponent(one[1]!));
      return wf ? send({ status: 200, body: withoutPinData(wf) }) : send({ status: 404, body: { message: 'Not Found' } });
    }
    if (url.pathname === '/api/v1/executions') {
      if (forbidden('execution:list')) return send({ status: 403, body: { message: 'Forbidden' } });
      let items = state.executions;
      if (query.workflowId) items = items.filter((e) => e.workflowId === query.workflowId);
      // n8n leaves running executions out unless they are asked for.
      items = query.status ? items.filter((e) => e.status === query.status) : items.filter((e) => e.status !== 'running');
      return send(idPage(items, query, state.pageCap));
    }
    return send({ status: 404, body: { message: 'Not Found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake = state as FakeN8n;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = async () => {
    for (const req of hanging) req.socket.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
