/**
 * POST /mcp: the MCP server over streamable HTTP, stateless (docs/integrations.md "AI assistants
 * (MCP)"; docs/api.md "Addition: the MCP server"). Bearer tokens only, as the API takes them; no
 * CSRF token (a bearer header is never sent by a browser on its own). Each request gets its own
 * server, bound to the caller, answering in JSON.
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import type { ApiAnswer, CallApi } from './mcp.server.ts';

/**
 * The MCP server and its transport, loaded at the first POST /mcp: the SDK and zod are about a
 * hundred modules no other request needs, kept off the server's start (docs/operations.md "Starting").
 */
async function loadMcp() {
  const [{ mcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import('./mcp.server.ts'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]);
  return { mcpServer, WebStandardStreamableHTTPServerTransport };
}

/** The request headers the MCP transport reads. */
const PASSED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

/**
 * Registers POST /mcp.
 * @param routes the app's route table (filled as modules register; read at call time)
 */
export function mcpRoutes(deps: AppDeps, routes: readonly RouteOptions[]) {
  return async function plugin(app: App): Promise<void> {
    /** POST /mcp: one JSON-RPC message (or batch) of the Model Context Protocol; the answer in JSON, 202 for a notification. */
    app.post('/mcp', {
      config: { permission: 'bearer', csrf: false },
      schema: { hide: true },
      handler: async (request, reply) => {
        const { mcpServer, WebStandardStreamableHTTPServerTransport } = await loadMcp();
        const server = mcpServer({ deps, auth: requireAuth(request), actor: actorOf(request), routes, api: apiAs(request) });
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        try {
          const headers = new Headers();
          for (const name of PASSED_HEADERS) {
            const value = request.headers[name];
            if (typeof value === 'string') headers.set(name, value);
          }
          const response = await transport.handleRequest(new Request(`http://caretaker${request.url}`, { method: 'POST', headers }), { parsedBody: request.body });
          reply.status(response.status);
          const type = response.headers.get('content-type');
          if (type) reply.header('content-type', type);
          return reply.send(await response.text());
        } finally {
          await server.close();
        }
      },
    });
  };
}

/** Calls the API in process (Fastify inject) with the request's bearer token and IP address. */
function apiAs(request: FastifyRequest): CallApi {
  const authorization = request.headers.authorization ?? '';
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown): Promise<ApiAnswer> => {
    const res = await request.server.inject({
      method,
      url,
      headers: { authorization, ...headers },
      remoteAddress: request.ip,
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    let body: unknown = res.body;
    try {
      body = res.json();
    } catch {
      // not JSON: the text as it is
    }
    return { status: res.statusCode, body };
  };
  return async (method, url, payload) => {
    if (method === 'GET') return call('GET', url, {});
    const csrf = await call('GET', '/api/security/csrf-token', {});
    const token = (csrf.body as { data?: { token?: string } }).data?.token;
    if (!token) return csrf;
    return call(method, url, { 'x-csrf-token': token }, payload ?? {});
  };
}
