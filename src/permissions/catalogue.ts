/**
 * The permission catalogue (spec 5.3a): every key a route may require, with a description and
 * the built-in roles that hold it by default. Keys use the spec's dot notation. A route names its
 * key in `config.permission`; the server refuses to start if a route names none or names a key
 * missing from this catalogue.
 */

export type BuiltinRole = 'sysops' | 'admin' | 'agent' | 'contractor' | 'tenant' | 'api';

export interface PermissionDef {
  key: string;
  description: string;
  roles: BuiltinRole[];
}

const STAFF: BuiltinRole[] = ['sysops', 'admin', 'agent'];
const ALL: BuiltinRole[] = ['sysops', 'admin', 'agent', 'contractor', 'tenant', 'api'];
const ADMINS: BuiltinRole[] = ['sysops', 'admin'];

/** Every permission key the service knows. Add a key here before a route uses it. */
export const PERMISSIONS: PermissionDef[] = [
  { key: 'api.admin.activity-log.manage', description: 'Read the activity (audit) log of the agency', roles: ADMINS },
  { key: 'api.admin.user_management_policy.manage', description: 'Set the management level of a role', roles: ADMINS },
  { key: 'api.agents.branch_sla_response_times.manage', description: 'Create, update, delete and list branch SLA response-time rules', roles: STAFF },
  { key: 'api.agents.branch_sharing', description: 'Turn branch sharing on or off for the caller\'s branch, and read it', roles: STAFF },
  { key: 'api.tenants.assign-address.manage', description: 'Link a property address to a tenant', roles: [...STAFF, 'api'] },
  { key: 'api.system.device-tokens.manage', description: 'Register, list and remove one\'s own push-notification device tokens', roles: ALL },
  { key: 'api.jobs.time-ranges.manage', description: 'Read the job time-range slots', roles: ALL },
  { key: 'api.users.appearance.manage', description: 'Read and change one\'s own dashboard appearance', roles: ALL },
  { key: 'page.settings.configuration', description: 'Read workflow-engine data and other configuration pages', roles: ADMINS },
  { key: 'api.jobs.manage.manage', description: 'List the jobs one may see and report or create jobs', roles: ALL },
  { key: 'api.system.metrics.view', description: 'Read the Prometheus metrics of the platform (for a scraper)', roles: ['sysops', 'api'] },
];

/** Keys by name, for lookups. */
export const PERMISSION_KEYS: ReadonlySet<string> = new Set(PERMISSIONS.map((p) => p.key));

/**
 * Route-level markers that are not catalogue keys:
 * - `public`: no authentication (token-issuing endpoints, status, health, docs);
 * - `authenticated`: any valid bearer token or session (spec 4 table: "authenticated");
 * - `bearer`: a valid bearer token in the Authorization header (spec 4.3).
 */
export const ROUTE_MARKERS = ['public', 'authenticated', 'bearer'] as const;
export type RouteMarker = (typeof ROUTE_MARKERS)[number];

/** True when `value` may stand in a route's `config.permission`. */
export function isValidRoutePermission(value: unknown): value is string {
  return typeof value === 'string' && (PERMISSION_KEYS.has(value) || (ROUTE_MARKERS as readonly string[]).includes(value));
}
