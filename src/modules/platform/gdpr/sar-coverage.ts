/**
 * Which table feeds which section of a tenant's subject-access report (docs/gdpr.md
 * "Subject-access report"), for every table with a column that can name a person (a tenant id, a
 * user id, an e-mail, a phone number, a recipient or author key). A table that names a person but
 * holds nothing about a tenant says why. The test test/platform/gdpr/sar-coverage.test.ts derives the
 * person-bearing tables from the schema, so a new table missing here fails it.
 */

/** A section of the report, or `{ not_about_tenants: why }`. */
export type Coverage = string | { not_about_tenants: string };

const STAFF = { not_about_tenants: 'records a staff action (the *_user_id is the member of staff); a tenant account cannot make one' };

/** Table -> the report's section holding its rows about the person. */
export const SAR_COVERAGE: Readonly<Record<string, Coverage>> = {
  tenants: 'subject',
  users: 'login_accounts',
  tenant_addresses: 'addresses',
  jobs: 'jobs',
  job_status_history: 'jobs',
  job_notes: 'notes',
  job_files: 'files',
  message_deliveries: 'messages',
  conversation_messages: 'conversations',
  sms_messages: 'sms',
  sms_opt_outs: 'sms',
  job_hazards: 'hazards',
  job_visit_windows: 'visits',
  visit_links: 'visits',
  tenancies: 'tenancies',
  tenancy_tenants: 'tenancies',
  tenancy_served_documents: 'tenancies',
  tenant_reports: 'repair_reports',
  job_surveys: 'surveys',
  gdpr_consents: 'consents',
  notification_preferences: 'preferences',
  notification_digest_items: 'preferences',
  notice_reads: 'preferences',
  device_tokens: 'preferences',
  conversation_reads: 'preferences',
  user_appearance: 'preferences',
  auth_tokens: 'sessions',
  user_totp: 'second_factors',
  user_recovery_codes: 'second_factors',
  user_passkeys: 'second_factors',
  auth_challenges: 'second_factors',
  security_blacklist: 'access_blocks',
  activity_log: 'activity',
  gdpr_exemptions: 'exemptions',
  user_tokens: { not_about_tenants: 'the hashes of single-use invitation and password-reset tokens; their use is in activity (auth.*)' },
  calendar_feed_keys: { not_about_tenants: 'the hash of a calendar feed key of staff or contractors (docs/calendar.md); tenants have no feed' },
  idempotency_keys: { not_about_tenants: 'a 24-hour replay cache of API answers (docs/jobs.md); the records it answered are in their own sections' },
  report_subscriptions: { not_about_tenants: 'scheduled reports of staff (docs/insight.md); tenants cannot subscribe' },
  branch_on_call: { not_about_tenants: "the branch's out-of-hours contact, a member of staff" },
  contractors: { not_about_tenants: 'contractor firms' },
  contractor_contacts: { not_about_tenants: "contractors' contacts" },
  landlords: { not_about_tenants: 'landlords (their own report: GET /api/landlords/{uuid}/gdpr-report)' },
  approval_requests: STAFF,
  branch_sla_rules: STAFF,
  compliance_certificates: STAFF,
  hazard_property_scopes: STAFF,
  invoices: STAFF,
  job_merges: STAFF,
  job_recalls: STAFF,
  landlord_ledger_entries: STAFF,
  maintenance_schedules: STAFF,
  message_template_versions: STAFF,
  notices: STAFF,
  payments: STAFF,
  quote_requests: STAFF,
  quotes: { not_about_tenants: 'contractor quotes, submitted and decided by staff or contractors' },
  rate_limit_overrides: STAFF,
  retention_periods: STAFF,
  triage_flow_versions: STAFF,
  webhook_endpoints: STAFF,
  works_order_links: STAFF,
};

/** The columns that make a table person-bearing (also any column ending in `user_id`). */
export const PERSON_COLUMNS = ['tenant_id', 'email', 'phone', 'mobile', 'to_number', 'from_number', 'recipient_key', 'author_key'] as const;
