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
  { key: 'api.jobs.update.manage', description: 'Edit the fields of jobs one may write (own branch, agency)', roles: [...STAFF, 'api'] },
  { key: 'api.jobs.transitions.manage', description: 'Move jobs between statuses and cancel them; the transition map decides which moves each party (staff, contractor, tenant) may make', roles: ALL },
  { key: 'api.jobs.assignment.manage', description: 'Assign jobs to contractors with a time slot and date', roles: [...STAFF, 'api'] },
  { key: 'api.jobs.assignment.respond', description: 'Accept or decline one\'s own job assignments (contractors)', roles: ['contractor'] },
  { key: 'api.jobs.delete.manage', description: 'Soft-delete closed or cancelled jobs (DELETE /api/jobs/{uuid}?soft_delete=true)', roles: ADMINS },
  { key: 'api.jobs.time-ranges.admin', description: 'Create, rename and retire job time-range slots (agency admins: their agency\'s slots; SysOps: the global ones)', roles: ADMINS },
  { key: 'api.users.manage', description: 'Create, read, update, list, disable, enable and invite the users of one\'s agency (below one\'s own level)', roles: ADMINS },
  { key: 'api.users.sessions.manage', description: 'List and revoke the sessions and tokens of other users of one\'s agency', roles: ADMINS },
  { key: 'api.jobs.notes.manage', description: 'Read and write the case notes of the jobs one may see (tenants and contractors: the notes shared with them)', roles: ALL },
  { key: 'api.jobs.documents.manage', description: 'List, upload, download and delete the documents of the jobs one may see', roles: ALL },
  { key: 'api.jobs.photos.manage', description: 'List, upload, download and delete the photos of the jobs one may see', roles: ALL },
  { key: 'api.calendar.view', description: 'Read the calendar of scheduled jobs one may see and manage one\'s own iCalendar feed key', roles: ALL },
  { key: 'api.security.file-integrity.manage', description: 'Run the file-integrity scan over stored documents and photos', roles: ADMINS },
  // People: tenants, addresses, contractors, GDPR (docs/tenants.md, docs/contractors.md, docs/gdpr.md).
  { key: 'api.tenants.view', description: 'List, search and read tenant records', roles: [...STAFF, 'api'] },
  { key: 'api.tenants.manage', description: 'Create and update tenant records', roles: [...STAFF, 'api'] },
  { key: 'api.addresses.view', description: 'List, search and read property addresses', roles: [...STAFF, 'api'] },
  { key: 'api.addresses.manage', description: 'Create and update property addresses', roles: [...STAFF, 'api'] },
  { key: 'api.contractors.view', description: 'List and read contractors, trades and certificates; match contractors to a job', roles: [...STAFF, 'api'] },
  { key: 'api.contractors.manage', description: 'Create and update contractors, their trades, coverage and certificates', roles: [...STAFF, 'api'] },
  { key: 'api.contractors.trades.manage', description: "Create, rename and retire trades (the agency's own; SysOps the platform's)", roles: ADMINS },
  { key: 'api.gdpr.consents.manage', description: 'Record, list and withdraw GDPR consents of tenants', roles: [...STAFF, 'api'] },
  { key: 'api.tenants.gdpr-report.manage', description: 'Download the GDPR subject-access report of a tenant', roles: ADMINS },
  { key: 'api.tenants.erase.manage', description: 'Erase (anonymise for good) a tenant under GDPR', roles: ADMINS },
  { key: 'api.admin.roles.view', description: 'List the roles one may assign (built-in, global and the agency\'s custom roles)', roles: ADMINS },
  { key: 'api.admin.roles.manage', description: 'Create, rename, delete roles below one\'s own level and set their permission keys', roles: ADMINS },
  { key: 'api.admin.permissions.view', description: 'Read the permission catalogue', roles: ADMINS },
  { key: 'api.admin.branches.view', description: 'List the branches of the agency', roles: [...STAFF, 'api'] },
  { key: 'api.admin.branches.manage', description: 'Create, rename, close and reopen branches of the agency', roles: ADMINS },
  { key: 'api.agents.view', description: 'List the agents of the agency\'s branches', roles: STAFF },
  { key: 'api.agents.job-assignment.manage', description: 'Give a job an owning agent', roles: STAFF },
  { key: 'api.admin.rate-limits.manage', description: 'Read and change the rate-limit settings of every route', roles: ['sysops'] },
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
