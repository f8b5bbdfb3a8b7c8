/**
 * The MCP server of one request (docs/integrations.md "AI assistants (MCP)"): the tools and
 * resources of mcp.tools.ts answered by calling the API itself with the caller's bearer token, so
 * the answers, permissions and agency scope are exactly the API's. Every call is written to the
 * activity log (`mcp.tool_call`, `mcp.resource_read`).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { RouteOptions } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { BREACHES_TODAY, CONFIRM_FIELD, findRoute, inputSchemaOf, isWrite, requestOf, RESOURCE_TEMPLATES, resourceUrl, routePermission, TOOLS } from './mcp.tools.ts';

/** An API answer: HTTP status and parsed JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Calls the API as the caller: GET, or a write with a fresh CSRF token. */
export type CallApi = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<ApiAnswer>;

export interface McpContext {
  deps: AppDeps;
  auth: AuthContext;
  actor: Actor;
  /** The app's route table (the tools' schemas and permission keys). */
  routes: readonly RouteOptions[];
  api: CallApi;
}

const INSTRUCTIONS =
  'Caretaker: repair jobs, tenants, contractors, properties, compliance and invoices of one letting agency, as the signed-in user may see them. ' +
  'Tools that change something (job_create, job_move, job_assign, job_add_note, *_create) do nothing until called with confirm: true; ' +
  'call them first without it, show the user what would happen, and confirm only when the user agrees.';

/**
 * Builds the server for one caller; connect it to a transport.
 * @returns an MCP Server with tools and resources
 */
export function mcpServer(ctx: McpContext): Server {
  const server = new Server({ name: 'caretaker', version: ctx.deps.config.version }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  const record = (action: string, resourceType: string, details: Record<string, unknown>) =>
    recordActivity(ctx.deps.db, ctx.actor, ctx.deps.clock.now(), { action, resourceType, details });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.flatMap((tool) => {
      const route = findRoute(ctx.routes, tool.method, tool.path);
      if (!route || !granted(ctx.auth, routePermission(route))) return [];
      return [{ name: tool.name, description: tool.description, inputSchema: inputSchemaOf(tool, route), annotations: { readOnlyHint: !isWrite(tool) } }];
    }),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const { url, body } = requestOf(tool, args);
    if (isWrite(tool) && args[CONFIRM_FIELD] !== true) {
      await record('mcp.tool_call', 'mcp_tool', { tool: tool.name, confirmed: false });
      const plan = { would: `${tool.method} ${url}`, body, as: `${ctx.auth.name} (${ctx.auth.roleName})`, changed: 'nothing', to_do_it: `call ${tool.name} again with confirm: true` };
      return { content: [{ type: 'text', text: JSON.stringify(plan) }] };
    }
    const answer = await ctx.api(tool.method, url, body);
    await record('mcp.tool_call', 'mcp_tool', { tool: tool.name, confirmed: isWrite(tool), status: answer.status });
    return { content: [{ type: 'text', text: JSON.stringify(answer.body) }], isError: answer.status >= 400 };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [BREACHES_TODAY] }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const url = resourceUrl(uri, ctx.deps.clock.now().toISOString().slice(0, 10));
    if (!url) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}`);
    const answer = await ctx.api('GET', url);
    await record('mcp.resource_read', 'mcp_resource', { uri, status: answer.status });
    if (answer.status >= 400) throw new McpError(answer.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, errorOf(answer.body) ?? `HTTP ${answer.status}`, { status: answer.status });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(answer.body) }] };
  });
  return server;
}

/** True when the caller holds the route's permission (the pipeline's markers included). */
function granted(auth: AuthContext, permission: string | undefined): boolean {
  return permission === 'authenticated' || permission === 'bearer' || (permission !== undefined && auth.permissions.has(permission));
}

/** The MCP specification's error code for a resource that does not exist (or is not the caller's to see). */
const RESOURCE_NOT_FOUND = -32002;

/** The error text of the API's error envelope (`{success: false, error}`). */
function errorOf(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : undefined;
}
