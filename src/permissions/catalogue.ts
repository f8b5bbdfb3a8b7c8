/**
 * The permission catalogue (spec 5.3a): every key a route may require, with a description and
 * the built-in roles that hold it by default. Keys use the spec's dot notation. A route names its
 * key in `config.permission`; the server refuses to start if a route names none or names a key
 * missing from this catalogue.
 */

export type BuiltinRole = 'sysops' | 'admin' | 'agent' | 'contractor' | 'tenant' | 'api' | 'landlord';

export interface PermissionDef {
  key: string;
  description: string;
  roles: BuiltinRole[];
  /**
   * A platform-wide key (it reads or changes every agency): held only by platform roles (SysOps
   * and global custom roles made by SysOps), never by an agency's role (docs/security.md promise 25).
   */
  platform?: true;
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
  { key: 'api.jobs.time-ranges.manage', description: 'Read the job time-range slots', roles: [...ALL, 'landlord'] },
  { key: 'api.users.appearance.manage', description: 'Read and change one\'s own dashboard appearance', roles: [...ALL, 'landlord'] },
  { key: 'page.settings.configuration', description: 'Read workflow-engine data and other configuration pages', roles: ADMINS },
  { key: 'api.jobs.manage.manage', description: 'List the jobs one may see and report or create jobs', roles: [...ALL, 'landlord'] },
  { key: 'api.jobs.update.manage', description: 'Edit the fields of jobs one may write (own branch, agency)', roles: [...STAFF, 'api'] },
  { key: 'api.jobs.transitions.manage', description: 'Move jobs between statuses and cancel them; the transition map decides which moves each party (staff, contractor, tenant) may make', roles: ALL },
  { key: 'api.jobs.assignment.manage', description: 'Assign jobs to contractors with a time slot and date', roles: [...STAFF, 'api'] },
  // Admins and SysOps hold it too so that they may create contractor accounts (nobody assigns a
  // role holding a key they lack); the service still lets only the job's contractor respond.
  { key: 'api.jobs.assignment.respond', description: 'Accept or decline one\'s own job assignments (contractors)', roles: ['contractor', ...ADMINS] },
  { key: 'api.jobs.delete.manage', description: 'Soft-delete closed or cancelled jobs (DELETE /api/jobs/{uuid}?soft_delete=true)', roles: ADMINS },
  { key: 'api.jobs.time-ranges.admin', description: 'Create, rename and retire job time-range slots (agency admins: their agency\'s slots; SysOps: the global ones)', roles: ADMINS },
  { key: 'api.users.manage', description: 'Create, read, update, list, disable, enable and invite the users of one\'s agency (below one\'s own level)', roles: ADMINS },
  { key: 'api.sso.settings.manage', description: "Read and change the agency's single sign-on (OpenID Connect) provider (docs/security.md \"Single sign-on\")", roles: ADMINS },
  { key: 'api.users.sessions.manage', description: 'List and revoke the sessions and tokens of other users of one\'s agency', roles: ADMINS },
  { key: 'api.jobs.notes.manage', description: 'Read and write the case notes of the jobs one may see (tenants and contractors: the notes shared with them)', roles: ALL },
  { key: 'api.jobs.conversations.manage', description: 'Read and write the conversation threads of the jobs one may see (tenants, contractors and landlords: their own thread; docs/conversations.md)', roles: [...ALL, 'landlord'] },
  { key: 'api.sms.usage.view', description: "Read the agency's SMS counts and costs (docs/conversations.md)", roles: [...ADMINS, 'api'] },
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
  { key: 'api.admin.rate-limits.manage', description: 'Read and change the rate-limit settings of every route', roles: ['sysops'], platform: true },
  { key: 'api.system.backup', description: 'Download a consistent copy of the embedded database for `caretaker backup` (SysOps)', roles: ['sysops'], platform: true },
  { key: 'api.system.metrics.view', description: 'Read the Prometheus metrics of the platform (for a scraper; SysOps or a global role made by SysOps)', roles: ['sysops'], platform: true },
  // Outbound webhooks (docs/webhooks.md)
  { key: 'api.webhooks.manage', description: "Manage the agency's outbound webhook endpoints, rotate their secrets, read and retry deliveries", roles: ADMINS },
  // SLA breach detection (docs/sla.md).
  { key: 'api.sla.breaches.view', description: 'List the SLA clocks at risk or breached of the jobs one may see', roles: [...STAFF, 'api'] },
  { key: 'api.sla.view', description: 'Read the SLA clocks of a job one may see', roles: [...STAFF, 'api'] },
  { key: 'api.sla.compliance.view', description: 'Read the SLA compliance report over the jobs one may see', roles: [...STAFF, 'api'] },
  { key: 'api.sla.settings.manage', description: "Read and change the agency's SLA settings (UK region for working days, at-risk share, office hours)", roles: ADMINS },
  // Compliance register (docs/compliance.md).
  { key: 'api.compliance.view', description: "Read the compliance register of the agency's properties and its item types", roles: [...STAFF, 'api'] },
  { key: 'api.compliance.manage', description: 'Add compliance items to properties, record their certificates, manage custom types and planned maintenance schedules', roles: [...STAFF, 'api'] },
  { key: 'api.hazards.view', description: 'Read the hazard and statutory clocks of jobs one may see, and the hazard breaches list', roles: [...STAFF, 'api'] },
  { key: 'api.hazards.manage', description: 'Set the hazard of a job, record its milestones and send the written summary to the tenant', roles: [...STAFF, 'api'] },
  { key: 'api.hazards.settings.manage', description: "Change the agency's hazard settings (the works period of significant hazards)", roles: ADMINS },
  { key: 'api.jobs.evidence-pack.view', description: 'Download the evidence pack of a job (PDF timeline, ZIP of its files) for a council or the Housing Ombudsman', roles: [...STAFF, 'api'] },
  // Insight: dashboard, analytics, reports, search, weather (docs/insight.md).
  { key: 'api.dashboard.view', description: 'Read the dashboard figures of the jobs one may see', roles: ALL },
  { key: 'api.analytics.view', description: 'Read job analytics (volumes, times, first-time fix, cost) over the jobs one may see', roles: [...STAFF, 'api'] },
  { key: 'api.reports.view', description: 'Download the named reports (CSV, XLSX) over the records one may see', roles: [...STAFF, 'api'] },
  { key: 'api.reports.subscriptions.manage', description: 'Create, list, change and delete one\'s own scheduled report e-mails', roles: [...STAFF, 'api'] },
  { key: 'api.search.view', description: 'Search jobs, tenants, addresses, contractors and users one may open', roles: ALL },
  { key: 'api.weather.view', description: 'Read the weather forecast of the visit of a job one may see', roles: ALL },
  // Messaging and notices (docs/messaging.md).
  { key: 'api.messaging.templates.manage', description: "Read, override, preview and revert the agency's message templates", roles: ADMINS },
  { key: 'api.messaging.deliveries.view', description: "Read the agency's message delivery log", roles: [...ADMINS, 'api'] },
  { key: 'api.users.notification-preferences.manage', description: "Read and change one's own notification preferences (channel on or off per message)", roles: [...ALL, 'landlord'] },
  { key: 'api.notices.manage', description: 'Publish, edit and withdraw notices of the agency and see who read them', roles: ADMINS },
  { key: 'api.notices.view', description: 'Read the notices addressed to one and mark them read', roles: [...ALL, 'landlord'] },
  // Security (blacklist): SysOps block addresses and any account; agency admins their agency's accounts.
  { key: 'api.security.blacklist.manage', description: "List, add and lift blacklist entries (SysOps: addresses, CIDR ranges and accounts; agency admins: the agency's accounts)", roles: ADMINS },
  // Money: pricing, quotes, invoices, payments (docs/money.md). Tenants hold none of these.
  { key: 'api.pricing.view', description: 'Read the price list, VAT rates and job estimates', roles: [...STAFF, 'api'] },
  { key: 'api.pricing.manage', description: 'Change the price list, contractor rates, contractor VAT registration and the money settings (VAT number, payment terms, quote approval limits)', roles: ADMINS },
  { key: 'api.quotes.manage', description: 'List, read and submit quotes (contractors: their own, on jobs assigned to them)', roles: [...STAFF, 'api', 'contractor', 'landlord'] },
  { key: 'api.quotes.approve', description: 'Approve or reject quotes up to the approval limit of the job type', roles: [...STAFF, 'api'] },
  { key: 'api.quotes.approve.above-limit', description: 'Approve quotes above the approval limit of the job type', roles: ADMINS },
  { key: 'api.invoices.view', description: 'List and read invoices, credit notes and payments, and download invoice PDFs (contractors: their own)', roles: [...STAFF, 'api', 'contractor', 'landlord'] },
  { key: 'api.invoices.manage', description: 'Create and change draft invoices (contractors: their own, on completed jobs assigned to them)', roles: [...STAFF, 'api', 'contractor'] },
  { key: 'api.invoices.issue', description: 'Issue and void invoices and issue credit notes', roles: [...ADMINS, 'api'] },
  { key: 'api.invoices.payments.manage', description: 'Record payments against invoices', roles: [...ADMINS, 'api'] },
  { key: 'api.invoices.export', description: 'Export invoices and payments as CSV for the accounting package', roles: [...ADMINS, 'api'] },
  // Works orders by link and competing quotes (docs/works-orders.md).
  { key: 'api.works-orders.manage', description: "Send a job's works order to its contractor by signed link, list and withdraw the links", roles: [...STAFF, 'api'] },
  { key: 'api.quote-requests.manage', description: 'Ask several contractors for competing quotes, compare them side by side and award one', roles: [...STAFF, 'api'] },
  { key: 'api.quote-requests.respond', description: 'See and answer the requests for a quote sent to one\'s own contractor account', roles: ['contractor', ...ADMINS] },
  // Landlords, spend limits and approvals by link (docs/landlords.md).
  { key: 'api.landlords.view', description: 'List, search and read landlords, property owners and the approval settings (never bank details)', roles: [...STAFF, 'api'] },
  { key: 'api.landlords.manage', description: 'Create and update landlords, link properties with ownership shares, set spend limits of landlords and properties', roles: [...STAFF, 'api'] },
  { key: 'api.landlords.approvals.manage', description: 'Ask landlords to approve costs above the spend limit, withdraw and resend approval requests', roles: [...STAFF, 'api'] },
  { key: 'api.landlords.bank-details.view', description: "Read a landlord's bank details in the landlord detail", roles: ADMINS },
  { key: 'api.landlords.settings.manage', description: "Change the agency's default spend limit and the approval reminder and expiry times", roles: ADMINS },
  { key: 'api.landlords.gdpr-report.manage', description: 'Download the GDPR subject-access report of a landlord', roles: ADMINS },
  { key: 'api.landlords.erase.manage', description: 'Erase (anonymise for good) a landlord under GDPR', roles: ADMINS },
  { key: 'api.landlords.statements.view', description: "Read a landlord's statement of recharges for a period (JSON, PDF, CSV); a landlord login its own", roles: [...STAFF, 'api', 'landlord'] },
  { key: 'api.landlords.payments.manage', description: "Record the agency's payments to and from a landlord (the entries its statement balances)", roles: [...ADMINS, 'api'] },
  { key: 'api.recharges.view', description: "List landlord recharges and read the agency's recharge fee", roles: [...STAFF, 'api'] },
  { key: 'api.recharges.settings.manage', description: "Change the agency's fee on landlord recharges", roles: ADMINS },
  // Agencies, onboarding, import and export (docs/onboarding.md).
  { key: 'api.agencies.view', description: 'List and read every agency and its profile', roles: ['sysops'], platform: true },
  { key: 'api.agencies.manage', description: 'Create agencies (with their first branch and administrator), change their profile, suspend and reactivate them', roles: ['sysops'], platform: true },
  { key: 'api.agencies.current.view', description: "Read one's own agency's profile", roles: STAFF },
  { key: 'api.agencies.current.manage', description: "Change one's own agency's profile and read its setup checklist", roles: ADMINS },
  { key: 'api.agencies.export', description: "Download the agency's data as a ZIP of CSV files (and optionally the job files)", roles: ADMINS },
  { key: 'api.imports.manage', description: 'Import properties, tenants and contractors from CSV or XLSX files: upload, dry run, commit, progress', roles: ADMINS },
  // Tenant self-service: guided reporting, emergencies, surveys (docs/tenant-reporting.md).
  { key: 'api.reporting.report', description: "Walk the agency's triage flows and submit guided repair reports (tenants at their own addresses)", roles: [...STAFF, 'tenant', 'api'] },
  { key: 'api.reporting.reports.view', description: 'List and read the guided reports of the agency (answers, outcome, deflections)', roles: [...STAFF, 'api'] },
  { key: 'api.reporting.flows.manage', description: "Edit the agency's triage flows (each save a new version) with a preview, the branches' on-call contacts and the recall and survey settings", roles: ADMINS },
  // Platform: background queue and domain events (docs/events.md)
  { key: 'api.system.queue.view', description: 'Read the background queue figures (jobs per queue and state, relay lag)', roles: ['sysops'], platform: true },
  { key: 'api.system.events.view', description: 'Read the recent domain events of every agency (the outbox)', roles: ['sysops'], platform: true },
  { key: 'api.system.dead_letters.view', description: 'List the dead-letter queue: background jobs that failed for good', roles: ['sysops'], platform: true },
  { key: 'api.system.dead_letters.manage', description: 'Retry (put back on their queues) or purge the dead-letter queue\'s jobs', roles: ['sysops'], platform: true },
];

/** The platform-wide keys (see PermissionDef.platform). */
export const PLATFORM_KEYS: ReadonlySet<string> = new Set(PERMISSIONS.filter((p) => p.platform).map((p) => p.key));

/**
 * True when a role may hold platform-wide keys: SysOps, or a global (agency-less) custom role.
 * @param role code, agency and built-in flag of the role
 */
export function isPlatformRole(role: { code: string; agency_id: number | null; is_builtin: boolean }): boolean {
  return role.agency_id === null && (role.code === 'sysops' || !role.is_builtin);
}

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
