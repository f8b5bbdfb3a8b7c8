/**
 * A local HTTP server speaking the n8n public REST API v1 as documented (GET /api/v1/workflows,
 * /api/v1/workflows/{id}, /api/v1/executions; { data, nextCursor } pages; X-N8N-API-KEY), with
 * switches to hang, answer garbage, answer 500, or answer a body of the wrong shape.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Mode = 'ok' | 'hang' | 'garbage' | 'error500' | 'wrong-shape';

export interface FakeN8n {
  url: string;
  apiKey: string;
  mode: Mode;
  /** Items per page the server returns at most, whatever limit asks (n8n caps at 250). */
  pageCap: number;
  workflows: Array<Record<string, unknown>>;
  executions: Array<Record<string, unknown>>;
  /** Every request received: path and query. */
  requests: Array<{ path: string; query: Record<string, string>; apiKey: string | undefined }>;
  close(): Promise<void>;
}

const cursorOf = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url');
const offsetOf = (cursor: string | undefined) => (cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { offset: number }).offset : 0);

/** A workflow as n8n returns it (with nodes, connections and settings we must not pass on). */
export function n8nWorkflow(id: string, name: string, active: boolean, tags: string[] = []) {
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
    pinData: {},
    tags: tags.map((t, i) => ({ id: `tag${i}`, name: t, createdAt: '2026-10-01T08:00:00.000Z', updatedAt: '2026-10-01T08:00:00.000Z' })),
  };
}

/** An execution as n8n returns it. */
export function n8nExecution(id: number, workflowId: string, status: string, startedAt: string) {
  const stopped = status === 'running' || status === 'waiting' ? null : new Date(new Date(startedAt).getTime() + 1500).toISOString();
  return {
    id,
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

function page<T>(items: T[], query: Record<string, string>, cap: number) {
  const limit = Math.min(Number(query.limit ?? 100), cap, 250);
  const offset = offsetOf(query.cursor);
  const slice = items.slice(offset, offset + limit);
  return { data: slice, nextCursor: offset + limit < items.length ? cursorOf(offset + limit) : null };
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startFakeN8n(apiKey = 'test-n8n-key'): Promise<FakeN8n> {
  const hanging = new Set<IncomingMessage>();
  const state: Omit<FakeN8n, 'url' | 'close'> = { apiKey, mode: 'ok', pageCap: 250, workflows: [], executions: [], requests: [] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const key = req.headers['x-n8n-api-key'];
    state.requests.push({ path: url.pathname, query, apiKey: typeof key === 'string' ? key : undefined });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (state.mode === 'hang') {
      hanging.add(req);
      return;
    }
    if (key !== state.apiKey) return send(401, { message: 'unauthorized' });
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('<html>502 Bad Gateway</html>');
    }
    if (state.mode === 'error500') return send(500, { message: 'Internal error' });
    if (state.mode === 'wrong-shape') return send(200, { data: [{ id: 1, title: 'no name, no active flag' }], nextCursor: 7 });
    if (url.pathname === '/api/v1/workflows') {
      const items = query.active === 'true' ? state.workflows.filter((w) => w.active === true) : state.workflows;
      return send(200, page(items, query, state.pageCap));
    }
    const one = /^\/api\/v1\/workflows\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const wf = state.workflows.find((w) => w.id === decodeURIComponent(one[1]!));
      return wf ? send(200, wf) : send(404, { message: 'Not Found' });
    }
    if (url.pathname === '/api/v1/executions') {
      let items = state.executions;
      if (query.workflowId) items = items.filter((e) => e.workflowId === query.workflowId);
      if (query.status) items = items.filter((e) => e.status === query.status);
      return send(200, page(items, query, state.pageCap));
    }
    return send(404, { message: 'Not Found' });
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
