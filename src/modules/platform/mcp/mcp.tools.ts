/**
 * The MCP server's tools and resources (docs/integrations.md "AI assistants (MCP)"): each tool is
 * one API operation, named here by method and path; its input schema is built from that route's
 * own TypeBox schemas (params, then query string or body), read from the app's route table, so a
 * tool accepts exactly what the route validates.
 */
import type { RouteOptions } from 'fastify';

/** One tool: the API operation it calls. */
export interface ToolSpec {
  name: string;
  description: string;
  method: 'GET' | 'POST';
  /** The route's path as registered (`/api/jobs/:uuid`). */
  path: string;
}

/** The tools, in the order an assistant sees them. A POST is a write and needs `confirm: true`. */
export const TOOLS: readonly ToolSpec[] = [
  { name: 'jobs_list', method: 'GET', path: '/api/jobs/manage', description: 'List the repair jobs you may see, newest first; filter by status, priority, branch, contractor, tenant, property, SLA state, dates or text (q).' },
  { name: 'job_get', method: 'GET', path: '/api/jobs/:uuid', description: 'Read one job by its uuid: status, property, tenant, contractor, SLA clock, dates.' },
  { name: 'job_statuses', method: 'GET', path: '/api/jobs/statuses', description: 'The job statuses with their ids (for jobs_list status_id and job_move to_status_id).' },
  { name: 'job_create', method: 'POST', path: '/api/jobs/manage', description: 'Report a new repair job (title and priority 1 emergency .. 5 planned; optionally the property and tenant).' },
  { name: 'job_move', method: 'POST', path: '/api/jobs/:uuid/transitions', description: 'Move a job to another status (to_status_id from job_statuses), with an optional note; only the legal moves of docs/jobs.md.' },
  { name: 'job_assign', method: 'POST', path: '/api/jobs/:uuid/assignment', description: 'Assign a job to a contractor, optionally with a visit date and time range.' },
  { name: 'job_add_note', method: 'POST', path: '/api/jobs/:uuid/notes', description: 'Add a note to a job (visibility decides who reads it).' },
  { name: 'tenants_find', method: 'GET', path: '/api/tenants', description: 'Find tenants by name, e-mail or phone (q).' },
  { name: 'tenant_create', method: 'POST', path: '/api/tenants', description: 'Create a tenant.' },
  { name: 'contractors_find', method: 'GET', path: '/api/contractors', description: 'Find contractor firms by name (q) and other filters.' },
  { name: 'contractor_create', method: 'POST', path: '/api/contractors', description: 'Create a contractor firm.' },
  { name: 'properties_find', method: 'GET', path: '/api/addresses', description: 'Find properties (addresses) by text or postcode.' },
  { name: 'property_create', method: 'POST', path: '/api/addresses', description: 'Create a property (address).' },
  { name: 'compliance_due', method: 'GET', path: '/api/compliance', description: "The compliance register: each property's certificates (gas safety, EICR, EPC, ...); status due_soon, expired or missing for what is due." },
  { name: 'invoices_list', method: 'GET', path: '/api/invoices', description: 'List contractor invoices and credit notes with their status and amounts (pence).' },
];

/** The field a write needs before it changes anything. */
export const CONFIRM_FIELD = 'confirm';

/** True when the tool changes something. */
export function isWrite(tool: ToolSpec): boolean {
  return tool.method !== 'GET';
}

type JsonSchema = { type?: unknown; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/** The route registered for method and path, or undefined. */
export function findRoute(routes: readonly RouteOptions[], method: string, path: string): RouteOptions | undefined {
  return routes.find((r) => r.url === path && [r.method].flat().includes(method as never));
}

/** The route's permission key (`config.permission`). */
export function routePermission(route: RouteOptions | undefined): string | undefined {
  return (route?.config as { permission?: string } | undefined)?.permission;
}

/**
 * The tool's input schema: the properties of the route's params and of its query string (GET) or
 * body (writes), the pipeline's `csrf_token` left out, and `confirm` on writes.
 * @returns a JSON Schema object (MCP `inputSchema`)
 */
export function inputSchemaOf(tool: ToolSpec, route: RouteOptions | undefined): { type: 'object'; properties: Record<string, unknown>; required?: string[] } {
  const schema = (route?.schema ?? {}) as { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema };
  const parts = [schema.params, isWrite(tool) ? schema.body : schema.querystring].filter((s): s is JsonSchema => !!s && typeof s === 'object');
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of parts) {
    for (const [key, value] of Object.entries(part.properties ?? {})) if (key !== 'csrf_token') properties[key] = plain(value);
    // A field with a default (limit, offset) is filled in by the route's validation: not required here.
    for (const key of part.required ?? []) if (key !== 'csrf_token' && !hasDefault(part.properties?.[key])) required.push(key);
  }
  if (isWrite(tool)) properties[CONFIRM_FIELD] = { type: 'boolean', description: 'true to make the change; without it the tool only says what it would do' };
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function hasDefault(schema: unknown): boolean {
  return !!schema && typeof schema === 'object' && 'default' in schema;
}

/** A schema as plain JSON (TypeBox's symbol keys dropped). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * Splits a tool's arguments into the request: path parameters into the path, the rest into the
 * query string (GET) or the JSON body (writes); `confirm` is never sent.
 * @returns the URL (path and query) and the body of a write
 */
export function requestOf(tool: ToolSpec, args: Record<string, unknown>): { url: string; body?: Record<string, unknown> } {
  const rest: Record<string, unknown> = {};
  let path = tool.path;
  for (const [key, value] of Object.entries(args)) {
    if (key === CONFIRM_FIELD) continue;
    if (path.includes(`/:${key}`)) path = path.replace(`/:${key}`, `/${encodeURIComponent(String(value))}`);
    else rest[key] = value;
  }
  if (isWrite(tool)) return { url: path, body: rest };
  const query = new URLSearchParams(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null).map(([k, v]): [string, string] => [k, String(v)]));
  return { url: query.size > 0 ? `${path}?${query.toString()}` : path };
}

/** The resources (MCP resource templates and the one fixed resource). */
export const RESOURCE_TEMPLATES = [
  { uriTemplate: 'caretaker://jobs/{uuid}', name: 'job', description: 'One job (as job_get answers)', mimeType: 'application/json' },
  { uriTemplate: 'caretaker://properties/{uuid}/compliance', name: 'property-compliance', description: "A property's compliance register", mimeType: 'application/json' },
] as const;
export const BREACHES_TODAY = { uri: 'caretaker://sla/breaches/today', name: 'sla-breaches-today', description: "SLA clocks due today (UTC) that are at risk or breached", mimeType: 'application/json' } as const;

const UUID = '[0-9a-fA-F-]{36}';

/**
 * The API read behind a resource URI.
 * @param today the UTC date (YYYY-MM-DD) for the day's breaches
 * @returns the API URL, or null for an unknown URI
 */
export function resourceUrl(uri: string, today: string): string | null {
  const job = new RegExp(`^caretaker://jobs/(${UUID})$`).exec(uri);
  if (job) return `/api/jobs/${job[1]}`;
  const register = new RegExp(`^caretaker://properties/(${UUID})/compliance$`).exec(uri);
  if (register) return `/api/compliance?address_uuid=${register[1]}&limit=100`;
  if (uri === BREACHES_TODAY.uri) return `/api/sla/breaches?from_date=${today}&to_date=${today}&limit=100`;
  return null;
}
