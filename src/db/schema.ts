/**
 * Table interfaces for Kysely: one interface per table, matching the migrations. Columns the
 * database fills (serial ids, defaults) are Generated<>.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json = ColumnType<unknown, string, string>;

export interface AgencyTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  /** UK region whose bank holidays SLA working days skip (docs/sla.md). */
  uk_region: Generated<string>;
  /** Share (1 to 99 %) of an SLA's allowed time after which a clock is at risk. */
  sla_at_risk_percent: Generated<number>;
  /** Working days allowed to complete the works of a significant hazard (docs/compliance.md "Hazards and statutory clocks"). */
  hazard_works_working_days: Generated<number>;
  /** Migration 1860: the agency applies Awaab's Law timescales to its private rented properties as policy (not yet law for them). */
  hazard_private_rented_policy: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BranchTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  name: string;
  sharing_enabled: Generated<boolean>;
  closed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  code: string;
  level: number;
  agency_id: number | null;
  is_builtin: Generated<boolean>;
  description: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolePermissionTable {
  role_id: number;
  permission_key: string;
}

/** Default keys already granted to a built-in role once (so a later removal sticks). */
export interface RolePermissionDefaultTable {
  role_id: number;
  permission_key: string;
}

export interface TradeTable {
  id: Generated<number>;
  code: string;
  name: string;
  /** null for the platform-wide trades; an agency's own trade otherwise (migration 0600). */
  agency_id: ColumnType<number | null, number | null | undefined, number | null>;
  retired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0700: outdoor work (roofing, gutters, external painting, landscaping) gets a weather forecast. */
  outdoor: Generated<boolean>;
}

export interface AddressTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  branch_id: number | null;
  line1: string;
  line2: string | null;
  town: string;
  county: string | null;
  postcode: string;
  latitude: number | null;
  longitude: number | null;
  /** A house in multiple occupation: needs the HMO compliance items (docs/compliance.md "HMO"). */
  is_hmo: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Third address line (migration 0600). */
  line3: Generated<string | null>;
}

export interface TenantTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  name: string;
  email: string | null;
  phone: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  erased_at: Timestamp | null;
  /** Migration 0600: a second number, how they like to be contacted, free-text notes. */
  mobile: Generated<string | null>;
  preferred_contact: Generated<string | null>;
  notes: Generated<string | null>;
}

export interface TenantAddressTable {
  tenant_id: number;
  address_id: number;
  created_at: Timestamp;
}

export interface ContractorTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  company_name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 0600. */
  notes: Generated<string | null>;
  active: Generated<boolean>;
}

export interface ContractorTradeTable {
  contractor_id: number;
  trade_id: number;
}

export interface UserTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number | null;
  branch_id: number | null;
  role_id: number;
  contractor_id: number | null;
  tenant_id: number | null;
  name: string;
  email: string;
  password_hash: string;
  /** 'invited': created with `invite: true`, waiting for the invitation to be accepted. */
  status: Generated<'active' | 'disabled' | 'invited'>;
  last_login_at: Timestamp | null;
  disabled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set while an invitation is outstanding (migration 0400); null once accepted. */
  invited_at: Timestamp | null;
}

/** login: 90-day bearer; mobile: one-year bearer; session: browser cookie. */
export type TokenKind = 'login' | 'mobile' | 'session';

export interface AuthTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  kind: TokenKind;
  remember_me: Generated<boolean>;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
  /** Shared by the bearer token and the session of one login (revoked together); null otherwise. */
  login_id: string | null;
}

export interface CsrfTokenTable {
  id: Generated<number>;
  auth_token_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ActivityLogTable {
  id: Generated<number>;
  agency_id: number | null;
  user_id: number | null;
  user_name: string;
  action: string;
  resource_type: string;
  resource_id: number | null;
  ip_address: string;
  details: Json | null;
  created_at: Timestamp;
}

export interface AgencyCounterTable {
  agency_id: number;
  name: string;
  value: number;
}

export interface JobStatusTable {
  id: number;
  code: string;
  name: string;
  sort_order: number;
  is_open: boolean;
}

export interface JobTypeTable {
  id: number;
  code: string;
  name: string;
}

export interface JobTimeRangeTable {
  id: Generated<number>;
  range_label: string;
  /** 'HH:MM' local time, or null for an open slot. */
  starts_at: string | null;
  ends_at: string | null;
  sort_order: Generated<number>;
  retired_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Owning agency (migration 0100); null for the global slots every agency sees. */
  agency_id: Generated<number | null>;
}

export interface JobTable {
  id: Generated<number>;
  /** Full-text search document, a stored generated column (migration 0700; docs/insight.md). Never written. */
  search_vector: ColumnType<string | null, never, never>;
  uuid: string;
  agency_id: number;
  branch_id: number;
  reference: string;
  title: string;
  description: Generated<string>;
  priority: number;
  status_id: number;
  job_type_id: number;
  address_id: number | null;
  tenant_id: number | null;
  contractor_id: number | null;
  trade_id: number | null;
  /** Owning agent of the job within its branch (POST /api/agents/job-assignment). */
  agent_user_id: number | null;
  time_range_id: number | null;
  reported_by_user_id: number | null;
  estimated_cost_pence: number | null;
  agreed_cost_pence: number | null;
  currency: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  approved_at: Timestamp | null;
  assigned_at: Timestamp | null;
  scheduled_for: Timestamp | null;
  attended_at: Timestamp | null;
  completed_at: Timestamp | null;
  invoiced_at: Timestamp | null;
  closed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  deleted_at: Timestamp | null;
  /** Status the job was in when put On hold; it resumes to this one (jobs-core migration 0200). */
  on_hold_from_status_id: Generated<number | null>;
  /** When the assigned contractor accepted the assignment; reset on every (re)assignment. */
  contractor_accepted_at: Generated<Date | null>;
}

/**
 * Case notes of a job (issue "Jobs" item 6): internal (staff only), or shared with the tenant,
 * the contractor, or both. Never deleted; editable by the author for 15 minutes.
 */
export interface JobNoteTable {
  id: Generated<number>;
  uuid: string;
  job_id: number;
  author_user_id: number | null;
  body: string;
  visibility: 'internal' | 'tenant' | 'contractor' | 'both';
  created_at: Timestamp;
  updated_at: Timestamp;
  edited_at: Timestamp | null;
}

/** One status move of a job (docs/jobs.md): from (null for creation), to, by whom, when, note. */
export interface JobStatusHistoryTable {
  id: Generated<number>;
  job_id: number;
  from_status_id: number | null;
  to_status_id: number;
  by_user_id: number | null;
  note: string | null;
  created_at: Timestamp;
}

/** A stored Idempotency-Key of a creating request (docs/jobs.md), kept 24 hours. */
export interface IdempotencyKeyTable {
  user_id: number;
  key: string;
  /** SHA-256 (hex) of method, path and the canonical JSON body. */
  request_hash: string;
  response_status: number | null;
  response_body: Json | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** "METHOD /path?query" the key was first used on (null on rows written before migration 0200 of 2026-11-26). */
  route: string | null;
  /** The first answer's body as sent (null while the request runs, and on rows written by job creation before). */
  response_text: string | null;
  /** The first answer's headers that a replay repeats (content-type, location, ...). */
  response_headers: Json | null;
}

/** A branch SLA response-time rule (spec 2.3a; docs/sla-rules.md). Soft-deleted. */
/** An agency's office hours on one weekday (docs/sla.md); no rows: Monday to Friday 09:00 to 17:30. */
export interface AgencyOfficeHoursTable {
  agency_id: number;
  /** 0 Monday ... 6 Sunday. */
  weekday: number;
  /** London wall-clock minutes after midnight. */
  opens_minute: number;
  closes_minute: number;
  updated_at: Timestamp;
}

/** A type of compliance item of an agency (docs/compliance.md). */
export interface ComplianceItemTypeTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  code: string;
  name: string;
  /** Legal interval between certificates; null: none (checked at each tenancy start, or once). */
  interval_months: number | null;
  at_tenancy_start: Generated<boolean>;
  hmo_only: Generated<boolean>;
  required_document: string;
  due_soon_days: Generated<number>;
  /** Created by the agency (docs/compliance.md "Custom types"); false for the seeded UK types. */
  custom: Generated<boolean>;
  /** Retired: takes no new items or schedules; its items and certificates stay. */
  retired_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A compliance item a property needs (one per property and type). */
export interface ComplianceItemTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  address_id: number;
  type_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A certificate satisfying a compliance item. */
export interface ComplianceCertificateTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  item_id: number;
  issued_on: ColumnType<string, string, string>;
  expires_on: ColumnType<string | null, string | null, string | null>;
  reference: Generated<string>;
  contractor_id: number | null;
  job_id: number | null;
  job_file_id: number | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
}

export interface BranchSlaRuleTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  branch_id: number;
  job_status_from_id: number;
  job_status_to_id: number;
  /** null: every job type. */
  job_type_id: number | null;
  /** 1 to 5; null: every priority. */
  job_priority: number | null;
  date_field_to_track: string;
  date_field_to_compare: string;
  minimum_response_days: number;
  /** calendar_hours, calendar_days (default), working_days or office_hours (docs/sla.md). */
  calendar: Generated<string>;
  /** Allowance of the hour modes (calendar_hours, office_hours); null for the day modes. */
  response_hours: Generated<number | null>;
  description: Generated<string>;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** A push-notification device token of a user (spec 2.4); unique by token_hash (SHA-256). */
export interface DeviceTokenTable {
  id: Generated<number>;
  user_id: number;
  device_token: string;
  token_hash: string;
  platform: 'ios' | 'android' | 'web';
  registered_at: Timestamp;
}

/** Dashboard appearance of a user (spec 2.5a); the banner file lives in the FileStore. */
export interface UserAppearanceTable {
  user_id: number;
  dashboard_bg_custom: string | null;
  banner_key: string | null;
  banner_size: number | null;
  banner_sha256: string | null;
  banner_mime: string | null;
  banner_uploaded_at: Timestamp | null;
  updated_at: Timestamp;
}

/** Single-use tokens of invitations and password resets (migration 0400); SHA-256 only. */
export interface UserTokenTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'invitation' | 'password_reset';
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_by_user_id: number | null;
}

/** Documents and photos of a job (docs/job-files.md); soft-deleted, bytes kept in the FileStore. */
export interface JobFileTable {
  id: Generated<number>;
  uuid: string;
  job_id: number;
  agency_id: number;
  kind: 'document' | 'photo';
  /** Generated FileStore key; never the client's name. */
  storage_key: string;
  /** Sanitised client file name, for display only. */
  original_filename: string;
  mime: string;
  ext: string;
  size_bytes: number;
  /** SHA-256 of the content at upload, hex. */
  sha256: string;
  description: string | null;
  /** Staff only when true (hidden from tenants and contractors). */
  internal: Generated<boolean>;
  uploaded_by_user_id: number | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
  deleted_by_user_id: number | null;
  /** Last file-integrity check and its outcome. */
  verified_at: Timestamp | null;
  integrity: Generated<'unverified' | 'ok' | 'mismatch' | 'missing'>;
}

/** One iCalendar feed key per user (docs/calendar.md); only the SHA-256 of the key is stored. */
export interface CalendarFeedKeyTable {
  user_id: number;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** Further contacts of a contractor company (migration 0600). */
export interface ContractorContactTable {
  id: Generated<number>;
  uuid: string;
  contractor_id: number;
  name: string;
  role: string | null;
  email: string | null;
  phone: string | null;
  is_primary: Generated<boolean>;
  created_at: Timestamp;
}

/** Certificates of a contractor (Gas Safe, NICEIC, ...); dates are ISO dates (migration 0600). */
export interface ContractorCertificationTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  contractor_id: number;
  cert_type: string;
  reference: string;
  issued_on: ColumnType<string | null, string | null, string | null>;
  expires_on: ColumnType<string, string, string>;
  file_key: string | null;
  file_mime: string | null;
  file_size: number | null;
  file_sha256: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** Postcode districts (outward codes such as LS6) a contractor covers (migration 0600). */
export interface ContractorCoverageTable {
  contractor_id: number;
  district: string;
}

/** GDPR consent of a tenant (or user) for one purpose (migration 0600). */
export interface GdprConsentTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  tenant_id: number | null;
  user_id: number | null;
  purpose: string;
  source: string;
  given_at: Timestamp;
  withdrawn_at: Timestamp | null;
  withdrawn_source: string | null;
  recorded_by_user_id: number | null;
  created_at: Timestamp;
}

/** Rate-limit settings of one route set by an administrator (null: the configured default). */
export interface RateLimitOverrideTable {
  /** `METHOD /path` as registered, for example `GET /api/jobs/manage`. */
  route: string;
  ip_max: number | null;
  account_max: number | null;
  window_s: number | null;
  updated_at: Timestamp;
  updated_by_user_id: number | null;
}

/** Domain events written in the transaction of their change (docs/events.md). */
export interface OutboxTable {
  /** bigserial: arrives as a string from pg. */
  id: Generated<string>;
  event_id: string;
  name: string;
  version: number;
  agency_id: number | null;
  payload: Json;
  occurred_at: Timestamp;
  published_at: Timestamp | null;
  /** W3C traceparent of the span that emitted it, while tracing is on (docs/operations.md "Tracing"). */
  traceparent: string | null;
}

/** One row per (handler, event) whose effect is done: the idempotency key of at-least-once delivery. */
export interface EventHandlerRunTable {
  handler: string;
  event_id: string;
  completed_at: Timestamp;
}

/** One saved version of an agency's override of a message template (migration 0600 of 2026-11-23). */
export interface MessageTemplateVersionTable {
  id: Generated<number>;
  agency_id: number;
  /** Message kind, e.g. `job.visit_booked` (docs/messaging.md). */
  template_key: string;
  channel: 'email' | 'push' | 'sms';
  version: number;
  /** True: this version restores the built-in default. */
  reverted: Generated<boolean>;
  subject: string | null;
  mjml: string | null;
  text_body: string | null;
  title: string | null;
  body: string | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
}

/** One message to one recipient on one channel for one event: the delivery log. */
export interface MessageDeliveryTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  event_id: string;
  event_name: string;
  template_key: string;
  channel: string;
  /** `user:<id>`, `tenant:<id>` or `contractor:<id>`: with event, message kind and channel, the idempotency key (the slot). */
  recipient_key: string;
  recipient_kind: string;
  recipient_user_id: number | null;
  recipient_address: string | null;
  status: 'queued' | 'sent' | 'failed' | 'suppressed';
  reason: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  subject: string | null;
  /** The rendered message while it waits to be sent (cleared once sent or given up). */
  content: Json | null;
  /** When the sender may try it (next); null once it is no longer queued. */
  next_attempt_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: Timestamp | null;
}

/** A user's choice for one message kind and channel (absent: on). */
export interface NotificationPreferenceTable {
  user_id: number;
  template_key: string;
  channel: string;
  enabled: boolean;
  /** 'immediate', 'digest' or 'off' (migration 2026_12_06_1500); null: the kind's default (off when `enabled` is false). */
  mode: ColumnType<'immediate' | 'digest' | 'off' | null, 'immediate' | 'digest' | 'off' | null | undefined, 'immediate' | 'digest' | 'off' | null>;
  updated_at: Timestamp;
}

/** A line waiting for a person's next digest e-mail (docs/messaging.md "Digests"). */
export interface NotificationDigestItemTable {
  id: Generated<number>;
  agency_id: number;
  user_id: number;
  event_id: string;
  event_name: string;
  template_key: string;
  /** The event in one line, as the person reads it (London times, no ISO dates). */
  line: string;
  url: string | null;
  created_at: Timestamp;
  /** When the digest holding it was queued; null while waiting. */
  sent_at: Timestamp | null;
  /** The delivery (message_deliveries.uuid) of the digest that held it. */
  delivery_uuid: string | null;
}

/** A notice shown to the users of an agency, optionally one branch and/or one role. Soft-deleted. */
export interface NoticeTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  branch_id: number | null;
  role_id: number | null;
  title: string;
  body: string;
  severity: 'info' | 'warning' | 'critical';
  starts_at: Timestamp;
  expires_at: Timestamp | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** Read receipt of a notice by a user. */
export interface NoticeReadTable {
  notice_id: number;
  user_id: number;
  read_at: Timestamp;
}

export interface Database {
  agencies: AgencyTable;
  branches: BranchTable;
  roles: RoleTable;
  role_permissions: RolePermissionTable;
  role_permission_defaults: RolePermissionDefaultTable;
  trades: TradeTable;
  addresses: AddressTable;
  tenants: TenantTable;
  tenant_addresses: TenantAddressTable;
  contractors: ContractorTable;
  contractor_trades: ContractorTradeTable;
  users: UserTable;
  auth_tokens: AuthTokenTable;
  csrf_tokens: CsrfTokenTable;
  activity_log: ActivityLogTable;
  agency_counters: AgencyCounterTable;
  job_statuses: JobStatusTable;
  job_types: JobTypeTable;
  job_time_ranges: JobTimeRangeTable;
  jobs: JobTable;
  job_notes: JobNoteTable;
  job_status_history: JobStatusHistoryTable;
  idempotency_keys: IdempotencyKeyTable;
  branch_sla_rules: BranchSlaRuleTable;
  agency_office_hours: AgencyOfficeHoursTable;
  compliance_item_types: ComplianceItemTypeTable;
  compliance_items: ComplianceItemTable;
  compliance_certificates: ComplianceCertificateTable;
  device_tokens: DeviceTokenTable;
  user_appearance: UserAppearanceTable;
  user_tokens: UserTokenTable;
  job_files: JobFileTable;
  calendar_feed_keys: CalendarFeedKeyTable;
  contractor_contacts: ContractorContactTable;
  contractor_certifications: ContractorCertificationTable;
  contractor_coverage: ContractorCoverageTable;
  gdpr_consents: GdprConsentTable;
  rate_limit_overrides: RateLimitOverrideTable;
  outbox: OutboxTable;
  event_handler_runs: EventHandlerRunTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  history_archives: HistoryArchiveTable;
  sla_clocks: SlaClockTable;
  // Insight (migration 0700)
  report_subscriptions: ReportSubscriptionTable;
  message_template_versions: MessageTemplateVersionTable;
  message_deliveries: MessageDeliveryTable;
  notification_preferences: NotificationPreferenceTable;
  notification_digest_items: NotificationDigestItemTable;
  notices: NoticeTable;
  notice_reads: NoticeReadTable;
  security_blacklist: SecurityBlacklistTable;
  certificate_expiry_warnings: CertificateExpiryWarningTable;
}

/** Certificates warned about as expiring, once per expiry date (migration 2026_11_23_0200). */
export interface CertificateExpiryWarningTable {
  certification_id: number;
  expires_on: ColumnType<string, string, string>;
  warned_at: Timestamp;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Job = Selectable<JobTable>;
export type NewJob = Insertable<JobTable>;
export type AuthToken = Selectable<AuthTokenTable>;

// Outbound webhooks (docs/webhooks.md)
export interface WebhookEndpointTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  url: string;
  description: Generated<string>;
  /** JSON array of subscribed event names. */
  events: Json;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  endpoint_id: number;
  /** webhook-id header: the same on every attempt, for the receiver's deduplication. */
  message_id: string;
  event_name: string;
  payload: Json;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_response_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: Timestamp;
  /** W3C traceparent of the span that queued it, while tracing is on (docs/operations.md "Tracing"). */
  traceparent: string | null;
}
/**
 * One month of history archived to the file store before its partition was dropped
 * (docs/operations.md "History partitions and retention"): gzip-compressed JSON lines, one row a line.
 */
export interface HistoryArchiveTable {
  id: Generated<number>;
  /** The partitioned table: activity_log, job_status_history, outbox, message_deliveries or webhook_deliveries. */
  table_name: string;
  /** The dropped partition, e.g. `activity_log_p2026_01` or `activity_log_legacy`. */
  partition_name: string;
  /** Start of its range (inclusive); null for the legacy partition (everything before range_to). */
  range_from: Timestamp | null;
  /** End of its range (exclusive). */
  range_to: Timestamp;
  /** File store key of the archive. */
  storage_key: string;
  /** `jsonl.gz`. */
  format: string;
  row_count: ColumnType<string, number | string, number | string>;
  size_bytes: ColumnType<string, number | string, number | string>;
  sha256: string;
  archived_at: Timestamp;
  /** Last time `caretaker history restore` put its rows back. */
  restored_at: Timestamp | null;
}

/** One SLA clock: a job measured against one matching branch SLA rule (docs/sla.md). */
export interface SlaClockTable {
  id: Generated<number>;
  agency_id: number;
  branch_id: number;
  job_id: number;
  rule_id: number;
  /** running, at_risk, breached, met, paused or not_applicable. */
  state: string;
  /** The rule's compare field on the job. */
  started_at: Timestamp;
  /** When the allowed time runs out (pauses and, for working days, non-working days skipped). */
  due_at: Timestamp;
  /** When the agency's at-risk share of the allowed time is reached. */
  at_risk_at: Timestamp;
  /** The rule's track field on the job, once set. */
  stopped_at: Timestamp | null;
  /** Seconds On hold between started_at and stopped_at (or now). */
  paused_seconds: Generated<number>;
  at_risk_flagged_at: Timestamp | null;
  breached_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A user's scheduled delivery of a named report by e-mail (migration 0700; docs/insight.md). */
export interface ReportSubscriptionTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number | null;
  user_id: number;
  report: string;
  format: 'csv' | 'xlsx';
  frequency: 'weekly' | 'monthly';
  /** The list filters of the report (JSON object). */
  filters: Json;
  /** Period last delivered: ISO week `2026-W48` or month `2026-11`. */
  last_period: string | null;
  last_sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** A blacklist entry (migration 0100 of 2026-11-23; docs/security.md "Blacklist"). */
export interface SecurityBlacklistTable {
  id: Generated<number>;
  uuid: string;
  kind: 'ip' | 'cidr' | 'account';
  /** Normalised address ('ip') or range ('cidr'); null for accounts. */
  value: string | null;
  user_id: number | null;
  /** Agency of the blocked account; null for addresses (platform-wide). */
  agency_id: number | null;
  reason: string;
  /** null for automatic entries. */
  added_by_user_id: number | null;
  automatic: Generated<boolean>;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  removed_at: Timestamp | null;
  removed_by_user_id: number | null;
}

// Money (migration 2026_11_23_0500; docs/money.md). Declared as a merge of `Database` so the
// block stays at the end of the file. Dates (`date` columns) are written as 'YYYY-MM-DD' and read
// through `::text` casts in the money repositories.
type DateCol = ColumnType<string, string, string>;

export interface VatRateTable {
  id: Generated<number>;
  code: string;
  name: string;
  rate_bp: number;
  effective_from: DateCol;
  effective_to: DateCol | null;
}
export interface MoneySettingsTable {
  agency_id: number;
  vat_number: string | null;
  payment_terms_days: Generated<number>;
  updated_at: Timestamp;
}
export interface QuoteApprovalLimitTable {
  agency_id: number;
  job_type_id: number;
  limit_pence: number;
}
export interface ContractorVatTable {
  contractor_id: number;
  registered: boolean;
  vat_number: string | null;
  updated_at: Timestamp;
}
export interface PriceItemTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  code: string;
  name: string;
  trade_id: number | null;
  job_type_id: number | null;
  unit: string;
  unit_price_pence: number;
  vat_rate_code: string;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ContractorRateTable {
  price_item_id: number;
  contractor_id: number;
  unit_price_pence: number;
  updated_at: Timestamp;
}
export interface QuoteTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  contractor_id: number;
  status: string;
  vat_registered: boolean;
  net_pence: number;
  vat_pence: number;
  gross_pence: number;
  notes: string | null;
  submitted_by_user_id: number | null;
  decided_by_user_id: number | null;
  decided_at: Timestamp | null;
  decision_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface InvoiceTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  contractor_id: number;
  kind: string;
  credited_invoice_id: number | null;
  number: number | null;
  status: string;
  contractor_reference: string | null;
  vat_registered: boolean;
  contractor_vat_number: string | null;
  payment_terms_days: number;
  issue_date: DateCol | null;
  due_date: DateCol | null;
  net_pence: number;
  vat_pence: number;
  gross_pence: number;
  paid_pence: Generated<number>;
  credited_pence: Generated<number>;
  notes: string | null;
  created_by_user_id: number | null;
  issued_at: Timestamp | null;
  paid_at: Timestamp | null;
  overdue_at: Timestamp | null;
  voided_at: Timestamp | null;
  void_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface MoneyLineTable {
  id: Generated<number>;
  quote_id: number | null;
  invoice_id: number | null;
  position: number;
  description: string;
  quantity_milli: number;
  unit_price_pence: number;
  vat_rate_code: string;
  vat_rate_bp: number;
  net_pence: number;
  vat_pence: number;
  price_item_id: number | null;
}
export interface PaymentTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  invoice_id: number;
  amount_pence: number;
  paid_on: DateCol;
  method: string;
  reference: string | null;
  recorded_by_user_id: number | null;
  created_at: Timestamp;
}

export interface Database {
  vat_rates: VatRateTable;
  money_settings: MoneySettingsTable;
  quote_approval_limits: QuoteApprovalLimitTable;
  contractor_vat: ContractorVatTable;
  price_items: PriceItemTable;
  contractor_rates: ContractorRateTable;
  quotes: QuoteTable;
  invoices: InvoiceTable;
  money_lines: MoneyLineTable;
  payments: PaymentTable;
}

/** A backfill of derived state asked for by a migration (migration 2026_11_26_0800, docs/operations.md "Upgrades"). */
export interface DataBackfillTable {
  /** The backfill's name, e.g. `sla.clocks` (src/modules/platform/backfills). */
  name: string;
  requested_at: Generated<Timestamp>;
  started_at: Timestamp | null;
  /** Set once every row is done; a finished backfill never runs again. */
  finished_at: Timestamp | null;
  /** The worker running it holds it until then (another worker may take over after). */
  leased_until: Timestamp | null;
  /** The last id done (batches go by ascending id). */
  cursor_id: Generated<number>;
  /** Rows done so far. */
  done: Generated<number>;
  /** Rows to do, counted when it started. */
  total: number | null;
  last_error: string | null;
}

export interface Database {
  data_backfills: DataBackfillTable;
}

// Landlords and approvals by link (migration 2026_11_26_0600_landlords, docs/landlords.md).
export interface LandlordTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  kind: 'person' | 'company';
  name: string;
  email: string | null;
  phone: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_town: string | null;
  address_postcode: string | null;
  bank_account_name: string | null;
  bank_sort_code: string | null;
  bank_account_number: string | null;
  vat_registered: Generated<boolean>;
  vat_number: string | null;
  approval_limit_pence: number | null;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  erased_at: Timestamp | null;
}
export interface LandlordPropertyTable {
  landlord_id: number;
  address_id: number;
  /** Ownership share in basis points (10000 = 100 %). */
  share_bp: number;
  created_at: Timestamp;
}
export interface PropertyApprovalLimitTable {
  address_id: number;
  limit_pence: number;
  updated_at: Timestamp;
}
export interface LandlordSettingsTable {
  agency_id: number;
  default_approval_limit_pence: number | null;
  reminder_after_hours: Generated<number>;
  expires_after_hours: Generated<number>;
  updated_at: Timestamp;
}
export type ApprovalStatus = 'pending' | 'approved' | 'declined' | 'question' | 'expired' | 'cancelled';
export interface ApprovalRequestTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  quote_id: number | null;
  landlord_id: number;
  amount_pence: number;
  limit_pence: number;
  description: string;
  status: ApprovalStatus;
  comment: string | null;
  requested_by_user_id: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  reminded_at: Timestamp | null;
  answered_at: Timestamp | null;
  escalated_at: Timestamp | null;
  updated_at: Timestamp;
}
export interface ApprovalLinkTable {
  id: Generated<number>;
  approval_id: number;
  landlord_id: number;
  nonce: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  used_at: Timestamp | null;
  used_action: string | null;
  revoked_at: Timestamp | null;
}
export interface LinkSigningKeyTable {
  name: string;
  secret: string;
  created_at: Timestamp;
}

export interface Database {
  landlords: LandlordTable;
  landlord_properties: LandlordPropertyTable;
  property_approval_limits: PropertyApprovalLimitTable;
  landlord_settings: LandlordSettingsTable;
  approval_requests: ApprovalRequestTable;
  approval_links: ApprovalLinkTable;
  link_signing_keys: LinkSigningKeyTable;
}

/** Migration 2026_11_26_0500 (docs/onboarding.md): the agency profile and its suspension. */
export interface AgencyTable {
  legal_name: Generated<string | null>;
  registered_line1: Generated<string | null>;
  registered_line2: Generated<string | null>;
  registered_town: Generated<string | null>;
  registered_postcode: Generated<string | null>;
  company_number: Generated<string | null>;
  contact_email: Generated<string | null>;
  contact_phone: Generated<string | null>;
  /** Per weekday (mon..sun): { open: 'HH:MM', close: 'HH:MM' } or null for closed. */
  office_hours: ColumnType<Record<string, { open: string; close: string } | null> | null, string | null | undefined, string | null>;
  default_approval_limit_pence: Generated<number | null>;
  suspended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  suspended_reason: Generated<string | null>;
}

/** Migration 2026_11_26_0500: the agency's own reference of an imported record. */
export interface AddressTable {
  external_ref: Generated<string | null>;
}
export interface TenantTable {
  external_ref: Generated<string | null>;
}
export interface ContractorTable {
  external_ref: Generated<string | null>;
}
/** Migration 2026_11_26_1310: the agency's own reference of a landlord (the landlord import's key). */
export interface LandlordTable {
  external_ref: Generated<string | null>;
}

/** One upload of a CSV or XLSX file to import (docs/onboarding.md, "Import"). */
export interface ImportTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  /** addresses | tenants | contractors */
  entity: string;
  file_name: string;
  file_sha256: string;
  /** checked | queued | committing | committed | failed */
  status: string;
  skip_bad_rows: Generated<boolean>;
  rows_total: Generated<number>;
  rows_done: Generated<number>;
  error_count: Generated<number>;
  /** Rows per outcome: { create, update, unchanged, error }. */
  counts: ColumnType<Record<string, number>, string | undefined, string>;
  /** Row number up to which the commit has been applied (resumable). */
  cursor: Generated<number>;
  encoding: string | null;
  delimiter: string | null;
  failure: string | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  committed_at: Timestamp | null;
}

/** The dry run's outcome of one row of an import. */
export interface ImportRowTable {
  import_id: number;
  row_number: number;
  /** create | update | unchanged | error */
  outcome: string;
  data: ColumnType<Record<string, string>, string, string>;
  errors: ColumnType<{ column: string; reason: string }[], string | undefined, string>;
  applied: Generated<boolean>;
}

export interface Database {
  imports: ImportTable;
  import_rows: ImportRowTable;
}

/** Migration 2026_11_26_1400: the contractor's address (supplier address on its invoices). */
export interface ContractorTable {
  address_line1: Generated<string | null>;
  address_line2: Generated<string | null>;
  address_town: Generated<string | null>;
  address_postcode: Generated<string | null>;
}

/** Migration 2026_11_26_1400: date of supply (tax point) and refund owed after a credit note. */
export interface InvoiceTable {
  supply_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** Credit notes against (partly) paid invoices: the part of the credit the contractor owes back, pence. */
  refund_due_pence: Generated<number>;
}

/** The agency's fee on landlord recharges (docs/money.md "Recharges"). */
export interface RechargeSettingsTable {
  agency_id: number;
  /** none | percent | fixed */
  fee_mode: Generated<string>;
  /** basis points of the cost's net (1500 = 15 %) */
  fee_percent_bp: Generated<number>;
  fee_fixed_pence: Generated<number>;
  updated_at: Timestamp;
}

/** One landlord's share of an issued contractor invoice (kind recharge) or credit note (kind credit), pence signed. */
export interface LandlordRechargeTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  number: number;
  landlord_id: number;
  address_id: number;
  job_id: number;
  invoice_id: number;
  kind: string;
  share_bp: number;
  recharge_date: ColumnType<string, string, string>;
  cost_net_pence: number;
  cost_vat_pence: number;
  fee_net_pence: number;
  fee_vat_pence: number;
  fee_vat_rate_bp: number;
  total_pence: number;
  status: Generated<string>;
  created_at: Timestamp;
  cancelled_at: Timestamp | null;
}

export interface Database {
  recharge_settings: RechargeSettingsTable;
  landlord_recharges: LandlordRechargeTable;
}

/** A hazard carried by a job, with its statutory milestones (docs/compliance.md "Hazards and statutory clocks"). */
export interface JobHazardTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  /** An HHSRS hazard code (src/lib/hhsrs.ts). */
  category: string;
  severity: 'emergency' | 'significant';
  description: Generated<string>;
  /** When the agency became aware of the hazard: the clocks' start. */
  reported_at: Timestamp;
  made_safe_at: Timestamp | null;
  investigated_at: Timestamp | null;
  summary_sent_at: Timestamp | null;
  works_started_at: Timestamp | null;
  works_completed_at: Timestamp | null;
  works_working_days: number;
  summary_findings: string | null;
  summary_actions: string | null;
  /** The written summary as sent to the tenant (plain text). */
  summary_text: string | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 1860: why the moment of awareness is not the tenant's report (null when it is). */
  awareness_reason: string | null;
  /** Migration 1860: the scope the clocks were last planned under. */
  scope: Generated<'social' | 'private_rented_policy' | 'not_covered'>;
  further_works_required: Generated<boolean>;
  /** Why beginning further works within 5 working days is not reasonably practicable (reg. 13(3)): the 12-week limit applies. */
  further_works_reason: string | null;
  further_works_started_at: Timestamp | null;
  /** When each milestone was recorded (its *_at is when it happened). */
  made_safe_recorded_at: Timestamp | null;
  investigated_recorded_at: Timestamp | null;
  works_started_recorded_at: Timestamp | null;
  further_works_started_recorded_at: Timestamp | null;
  works_completed_recorded_at: Timestamp | null;
  /** When the written summary reached the tenant (an e-mail or SMS sent, a letter posted). */
  summary_delivered_at: Timestamp | null;
  summary_delivered_recorded_at: Timestamp | null;
  summary_delivery_method: 'email' | 'sms' | 'post' | null;
  /** The second channel taken when the e-mail failed or was suppressed. */
  summary_fallback: 'sms' | 'letter' | null;
  summary_fallback_at: Timestamp | null;
  summary_posted_by_user_id: number | null;
  /** The outbox event of the written summary: its delivery rows carry it. */
  summary_event_id: string | null;
}

/** The Awaab's Law scope of a property (docs/compliance.md "Scope"); none: private rented, nation from the postcode. */
export interface HazardPropertyScopeTable {
  address_id: number;
  agency_id: number;
  tenure: 'social' | 'private_rented';
  nation: 'england' | 'wales' | 'scotland' | 'northern_ireland' | null;
  updated_by_user_id: number | null;
  updated_at: Timestamp;
}

/** One statutory clock of a hazard. */
export interface HazardClockTable {
  id: Generated<number>;
  agency_id: number;
  job_id: number;
  hazard_id: number;
  kind: string;
  state: string;
  started_at: Timestamp;
  due_at: Timestamp;
  at_risk_at: Timestamp;
  stopped_at: Timestamp | null;
  at_risk_flagged_at: Timestamp | null;
  breached_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A reminder sent before a certificate expires (docs/compliance.md "Reminders before expiry"). */
export interface ComplianceReminderTable {
  id: Generated<number>;
  agency_id: number;
  item_id: number;
  expires_on: ColumnType<string, string, string>;
  threshold_days: number;
  created_at: Timestamp;
}

export interface Database {
  job_hazards: JobHazardTable;
  hazard_clocks: HazardClockTable;
  hazard_property_scopes: HazardPropertyScopeTable;
  compliance_reminders: ComplianceReminderTable;
}

// Tenant self-service (migration 2026_11_26_1700_tenant_reporting, docs/tenant-reporting.md).
/** A guided-reporting triage flow of an agency; its content lives in its versions. */
export interface TriageFlowTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  /** Stable name of the flow within the agency, e.g. `heating`. */
  code: string;
  name: string;
  position: Generated<number>;
  current_version: Generated<number>;
  retired_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One frozen version of a flow: the tree of questions and outcomes (never changed once written). */
export interface TriageFlowVersionTable {
  id: Generated<number>;
  flow_id: number;
  version: number;
  name: string;
  tree: ColumnType<unknown, string, string>;
  created_by_user_id: number | null;
  created_at: Timestamp;
}

/** A guided report: the flow version walked, the answers given and where they led. */
export interface TenantReportTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  branch_id: number | null;
  flow_id: number;
  flow_version_id: number;
  tenant_id: number | null;
  reported_by_user_id: number | null;
  address_id: number | null;
  /** [{ node, question, option, answer }] as shown when answered. */
  answers: ColumnType<unknown, string, string>;
  /** advice (a deflection), emergency, job or added_to_job. */
  outcome: string;
  outcome_node: string;
  job_id: number | null;
  description: Generated<string>;
  created_at: Timestamp;
}

/** The branch's out-of-hours contact told of emergencies. */
export interface BranchOnCallTable {
  branch_id: number;
  agency_id: number;
  name: string;
  phone: string;
  email: string;
  updated_at: Timestamp;
}

/** The agency's reporting settings (defaults when there is no row). */
export interface ReportingSettingsTable {
  agency_id: number;
  recall_days: Generated<number>;
  survey_link_days: Generated<number>;
  updated_at: Timestamp;
}

/** A duplicate job merged into the job kept (both keep their own history). */
export interface JobMergeTable {
  id: Generated<number>;
  agency_id: number;
  kept_job_id: number;
  merged_job_id: number;
  by_user_id: number | null;
  note: string | null;
  created_at: Timestamp;
}

/** A recall: a job raised because a completed repair was reopened within the recall window. */
export interface JobRecallTable {
  job_id: number;
  original_job_id: number;
  agency_id: number;
  reason: Generated<string>;
  by_user_id: number | null;
  created_at: Timestamp;
}

/** The satisfaction survey of a completed job, answered once by signed link. */
export interface JobSurveyTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  tenant_id: number;
  contractor_id: number | null;
  nonce: string;
  expires_at: Timestamp;
  answered_at: Timestamp | null;
  rating: number | null;
  comment: string | null;
  created_at: Timestamp;
}

export interface Database {
  triage_flows: TriageFlowTable;
  triage_flow_versions: TriageFlowVersionTable;
  tenant_reports: TenantReportTable;
  branch_on_call: BranchOnCallTable;
  reporting_settings: ReportingSettingsTable;
  job_merges: JobMergeTable;
  job_recalls: JobRecallTable;
  job_surveys: JobSurveyTable;
}

/** A request for competing quotes on a job (migration 1500, docs/works-orders.md). */
export interface QuoteRequestTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  deadline_at: Timestamp;
  notes: string | null;
  status: 'open' | 'awarded' | 'cancelled';
  awarded_quote_id: number | null;
  awarded_at: Timestamp | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One contractor invited to quote. */
export interface QuoteRequestInvitationTable {
  id: Generated<number>;
  quote_request_id: number;
  contractor_id: number;
  status: 'invited' | 'quoted' | 'declined' | 'awarded' | 'not_awarded';
  quote_id: number | null;
  responded_at: Timestamp | null;
  created_at: Timestamp;
}

/** A signed link a contractor works from without an account: one job, one contractor. */
export interface WorksOrderLinkTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  contractor_id: number;
  purpose: 'works_order' | 'quote';
  quote_request_id: number | null;
  nonce: string;
  expires_at: Timestamp;
  created_by_user_id: number | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  used_at: Timestamp | null;
  used_action: string | null;
  revoked_at: Timestamp | null;
  revoked_by_user_id: number | null;
}

/** Migration 1500: a login of the `landlord` role is linked to its landlord record. */
export interface UserTable {
  landlord_id: Generated<number | null>;
}

export interface Database {
  quote_requests: QuoteRequestTable;
  quote_request_invitations: QuoteRequestInvitationTable;
  works_order_links: WorksOrderLinkTable;
}

/** Migration 1900: a window in which the tenant is in for the contractor's visit (docs/tenant-reporting.md "Booking the visit"). */
export interface JobVisitWindowTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** tenant (own account), link (signed tenant link), staff (on the tenant's behalf). */
  given_by: 'tenant' | 'link' | 'staff';
  by_user_id: number | null;
  created_at: Timestamp;
}

/** Migration 1900: a timed visit of a job; one `booked` row per job at most. */
export interface JobVisitTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  contractor_id: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  booked_by: 'contractor' | 'tenant';
  /** booked (the current visit), moved (replaced by another booking), missed. */
  state: 'booked' | 'moved' | 'missed';
  missed_by: 'tenant' | 'contractor' | null;
  missed_note: string | null;
  missed_at: Timestamp | null;
  reminder_sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 1900: a signed single-use link a tenant without an account books through. */
export interface VisitLinkTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  tenant_id: number;
  nonce: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  used_action: string | null;
  created_at: Timestamp;
}

export interface Database {
  job_visit_windows: JobVisitWindowTable;
  job_visits: JobVisitTable;
  visit_links: VisitLinkTable;
}

// Job conversations, reply by e-mail and SMS (migration 2026_11_26_2000, docs/conversations.md).
export type ThreadAudience = 'tenant' | 'contractor' | 'landlord' | 'internal';
export interface ConversationThreadTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  job_id: number;
  audience: ThreadAudience;
  created_at: Timestamp;
  last_message_at: Timestamp | null;
}
export interface ConversationMessageTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  thread_id: number;
  job_id: number;
  author_user_id: number | null;
  author_kind: 'staff' | 'tenant' | 'contractor' | 'landlord' | 'system';
  /** `tenant:<id>`, `contractor:<id>`, `landlord:<id>` for a person without an account writing by e-mail or SMS. */
  author_key: string | null;
  author_name: string;
  channel: 'web' | 'email' | 'sms';
  body: string;
  urgent: Generated<boolean>;
  /** Message-ID of an e-mail or the provider's id of an SMS: the same one never lands twice. */
  external_id: string | null;
  created_at: Timestamp;
}
export interface ConversationMessageFileTable {
  message_id: number;
  file_id: number;
}
export interface ConversationReadTable {
  job_id: number;
  audience: ThreadAudience;
  user_id: number;
  read_at: Timestamp;
}
/** The view of a job's messages and the case notes mapped onto its threads. */
export interface ConversationEntryView {
  kind: 'message' | 'note';
  id: number;
  uuid: string;
  job_id: number;
  audience: ThreadAudience;
  author_user_id: number | null;
  author_kind: string | null;
  author_name: string | null;
  channel: 'web' | 'email' | 'sms' | 'note';
  body: string;
  urgent: boolean;
  created_at: Timestamp;
}
export interface SmsMessageTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number | null;
  direction: 'outbound' | 'inbound';
  delivery_id: number | null;
  thread_id: number | null;
  to_number: string;
  from_number: string | null;
  body: string | null;
  provider: string;
  provider_sid: string | null;
  status: string;
  error_code: string | null;
  segments: number | null;
  /** Price in millionths of the currency unit (positive: a cost). */
  price_micros: ColumnType<string | null, number | null, number | null>;
  price_currency: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface SmsOptOutTable {
  phone: string;
  opted_out_at: Timestamp;
  keyword: string;
}

export interface Database {
  conversation_threads: ConversationThreadTable;
  conversation_messages: ConversationMessageTable;
  conversation_message_files: ConversationMessageFileTable;
  conversation_reads: ConversationReadTable;
  conversation_entries: ConversationEntryView;
  sms_messages: SmsMessageTable;
  sms_opt_outs: SmsOptOutTable;
}
// Planned maintenance (migration 2026_11_26_1800_planned_maintenance, docs/compliance.md "Planned maintenance").
/** A standing instruction to raise a job on each occurrence of a recurrence rule. */
export interface MaintenanceScheduleTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  /** One property; null: every property with an item of type_id. */
  address_id: number | null;
  /** The compliance item type the work satisfies; null: general maintenance of address_id. */
  type_id: number | null;
  title: string;
  description: Generated<string>;
  /** The RFC 5545 RRULE (without DTSTART), e.g. `FREQ=YEARLY;BYMONTH=3`. */
  rrule: string;
  /** DTSTART as a London date. */
  starts_on: ColumnType<string, string, string>;
  /** Days before the due date the job is raised. */
  lead_days: number;
  contractor_id: number | null;
  trade_id: number | null;
  priority: Generated<number>;
  /** London date from which occurrences are raised (creation, or the last change of the rule). */
  active_from: ColumnType<string, string, string>;
  retired_at: Timestamp | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One raised occurrence of a schedule at one property (unique per schedule, property and due date). */
export interface MaintenanceOccurrenceTable {
  id: Generated<number>;
  agency_id: number;
  schedule_id: number;
  address_id: number;
  item_id: number | null;
  due_on: ColumnType<string, string, string>;
  job_id: number | null;
  certificate_id: number | null;
  created_at: Timestamp;
}

export interface Database {
  maintenance_schedules: MaintenanceScheduleTable;
  maintenance_occurrences: MaintenanceOccurrenceTable;
}

// Provider callbacks accepted once (migration 2026_12_06_1400_provider_callbacks, docs/security.md "One rule for every way in").
/** A used signed callback (a Mailgun timestamp and token), kept until its freshness window has passed. */
export interface ProviderCallbackUseTable {
  provider: string;
  /** The provider's once-only value, hashed (src/core/callback-uses.ts). */
  key: string;
  expires_at: Timestamp;
}

/** A STOP or START text, by the provider's message id: each is applied once, ever. */
export interface SmsKeywordTextTable {
  id: Generated<number>;
  provider: string;
  provider_sid: string;
  keyword: string;
  action: 'stop' | 'start';
  received_at: Timestamp;
}

export interface Database {
  provider_callback_uses: ProviderCallbackUseTable;
  sms_keyword_texts: SmsKeywordTextTable;
}

/** Migration 2026_12_06_1200: the VAT treatment of recharged costs (docs/money.md "VAT treatment of recharged costs"). */
export interface MoneySettingsTable {
  /** recharge | disbursement */
  vat_treatment: Generated<string>;
}

/** Migration 2026_12_06_1200: treatment fixed at issue, the supplier's own invoice date, the self-billing series. */
export interface InvoiceTable {
  /** recharge | disbursement */
  vat_treatment: Generated<string>;
  supplier_invoice_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** self-billed invoices: the number in the supplier's own series */
  self_billing_number: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Migration 2026_12_06_1200: the recharge's treatment and its cost per VAT rate (recharge treatment). */
export interface LandlordRechargeTable {
  vat_treatment: Generated<string>;
  /** JSON [{ vat_rate, vat_rate_bp, net_pence, vat_pence }] (recharge treatment), null for disbursements */
  cost_lines: Json | null;
}

/** A self-billing agreement with a contractor (HMRC VAT Notice 700/62). */
export interface SelfBillingAgreementTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  contractor_id: number;
  starts_on: ColumnType<string, string, string>;
  ends_on: ColumnType<string, string, string>;
  review_on: ColumnType<string, string, string>;
  vat_number_checked_on: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A payment the agency recorded to or from a landlord (a statement's entries; docs/money.md "Statements"). */
export interface LandlordLedgerEntryTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  landlord_id: number;
  /** payment_from_landlord | payment_to_landlord */
  kind: string;
  entry_date: ColumnType<string, string, string>;
  amount_pence: number;
  reference: string | null;
  description: string | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
}

export interface Database {
  self_billing_agreements: SelfBillingAgreementTable;
  landlord_ledger_entries: LandlordLedgerEntryTable;
}

/** Migration 2026_12_06_1100: the PAF parts of an address, its building, communal areas (docs/tenants.md "Address parts"). */
export interface AddressTable {
  sub_building: Generated<string | null>;
  building_name: Generated<string | null>;
  building_number: Generated<string | null>;
  street: Generated<string | null>;
  locality: Generated<string | null>;
  building_id: Generated<number | null>;
  is_communal: Generated<boolean>;
}

/** A building of several units (a block of flats): its address without the sub-building (docs/tenants.md "Buildings"). */
export interface BuildingTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  branch_id: number | null;
  external_ref: string | null;
  building_name: string | null;
  building_number: string | null;
  street: string | null;
  locality: string | null;
  /** the post town */
  town: string;
  county: string | null;
  postcode: string;
  latitude: number | null;
  longitude: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 2026_12_06_1100: look postcodes up at postcodes.io (docs/tenants.md "Postcode lookup"). */
export interface AgencyTable {
  postcode_lookup: Generated<boolean>;
}

export interface Database {
  buildings: BuildingTable;
}

/** Migration 2026_12_07_0050: what a property is, for the compliance it needs (docs/compliance.md "What a property needs"). */
export interface AddressTable {
  /** has a gas supply; null: not recorded (gas safety is then required) */
  gas_supply: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** storeys used wholly or partly as living accommodation; null: not recorded (at least one) */
  storeys: ColumnType<number | null, number | null | undefined, number | null>;
  /** rooms used as living accommodation with a fixed combustion appliance (gas cookers excepted) */
  combustion_rooms: ColumnType<string[], string[] | undefined, string[]>;
}

/** Migration 2026_12_07_0050: a building with a lift needs its LOLER thorough examination. */
export interface BuildingTable {
  has_lift: Generated<boolean>;
}

/** Migration 2026_12_07_0050: which properties a type applies to, and the regulation it implements. */
export interface ComplianceItemTypeTable {
  /** dwelling | gas | hmo | communal | lift | manual (added by hand only) */
  applies_to: Generated<string>;
  regulation: Generated<string>;
}

/** Migration 2026_12_07_0050: derived from what the property is (true) or added by hand. */
export interface ComplianceItemTable {
  derived: Generated<boolean>;
}

/** Migration 2026_12_07_0050: what each regulation asks a certificate to show (docs/compliance.md "The rules"). */
export interface ComplianceCertificateTable {
  epc_rating: ColumnType<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | null, 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | null | undefined, 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | null>;
  exemption_reference: ColumnType<string | null, string | null | undefined, string | null>;
  exemption_until: ColumnType<string | null, string | null | undefined, string | null>;
  outcome: ColumnType<'satisfactory' | 'unsatisfactory' | null, 'satisfactory' | 'unsatisfactory' | null | undefined, 'satisfactory' | 'unsatisfactory' | null>;
  remedial_due_on: ColumnType<string | null, string | null | undefined, string | null>;
  remedial_completed_on: ColumnType<string | null, string | null | undefined, string | null>;
  tenant_copy_due_on: ColumnType<string | null, string | null | undefined, string | null>;
  tenant_copy_served_on: ColumnType<string | null, string | null | undefined, string | null>;
  tenant_copy_method: ColumnType<string | null, string | null | undefined, string | null>;
  smoke_alarm_storeys: ColumnType<number | null, number | null | undefined, number | null>;
  co_alarm_rooms: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  tenancy_start_on: ColumnType<string | null, string | null | undefined, string | null>;
}

// GDPR exemptions, retention periods and restricted records (migration 2026_12_07_0100_gdpr_retention, docs/gdpr.md).
/** An item withheld from a tenant's subject-access report, with its ground (DPA 2018 Schedules 2-4). */
export interface GdprExemptionTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  tenant_id: number;
  /** The report's section holding the item (notes, conversations, files, messages, hazards, ...). */
  section: string;
  /** The item's uuid (its `ID` for activity entries). */
  record_ref: string;
  /** A ground of EXEMPTION_GROUNDS (src/modules/platform/gdpr/exemptions.ts). */
  ground: string;
  reason: string;
  by_user_id: number | null;
  created_at: Timestamp;
}

/** The agency's retention period of one record kind (no row: the default of RETENTION_KINDS). */
export interface RetentionPeriodTable {
  agency_id: number;
  record_kind: string;
  months: number;
  updated_by_user_id: number | null;
  updated_at: Timestamp;
}

/** A record an erasure kept (restricted) because a stated retention requires it, until when. */
export interface GdprRetainedTable {
  id: Generated<number>;
  agency_id: number;
  subject_type: 'tenant' | 'landlord';
  subject_id: number;
  record_kind: string;
  table_name: string;
  record_id: number;
  /** London date on which the retention ends and the record is released (scrubbed). */
  retained_until: ColumnType<string, string, string>;
  released_at: Timestamp | null;
  created_at: Timestamp;
}

export interface Database {
  gdpr_exemptions: GdprExemptionTable;
  retention_periods: RetentionPeriodTable;
  gdpr_retained: GdprRetainedTable;
}

/** Migration 2026_12_07_0300: an agency's OpenID Connect provider (docs/security.md "Single sign-on"). */
export interface AgencySsoTable {
  agency_id: number;
  /** Which button the sign-in page shows: Microsoft Entra ID, Google Workspace, or another provider. */
  provider: 'microsoft' | 'google' | 'other';
  issuer: string;
  client_id: string;
  /** Never returned by the API (as webhook secrets after creation). */
  client_secret: string;
  /** The agency's own e-mail domains, lower-case; only these are matched or created. */
  domains: string[];
  enabled: Generated<boolean>;
  create_users: Generated<boolean>;
  default_role_id: number | null;
  default_branch_id: number | null;
  require_for_staff: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 2026_12_07_0300: a pending single sign-on, used once by its callback. */
export interface SsoStateTable {
  /** SHA-256 of the `state` sent to the provider. */
  state_hash: string;
  agency_id: number;
  /** SHA-256 of the browser's binding cookie set at the start. */
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Migration 2026_12_07_0200: second factors (docs/security.md "Two-factor sign-in"). */
export interface AgencyTable {
  /** Staff (admin, agent) must sign in with a second factor; enrolment forced at the next sign-in. */
  require_second_factor: Generated<boolean>;
}

export interface UserTotpTable {
  user_id: number;
  /** The base32 secret (RFC 4648, 160 bits), encrypted under the secrets key (enc:v1:..., src/lib/secret-box.ts); plain in rows not yet reached by the backfill auth.totp-secrets. */
  secret: string;
  /** null until the first code is verified (enrolment pending). */
  confirmed_at: Timestamp | null;
  /** The last 30-second step a code was accepted for (replays refused). */
  last_step: ColumnType<string | null, number | null, number | null>;
  created_at: Timestamp;
}

export interface UserRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  /** argon2id PHC string of the code. */
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface UserPasskeyTable {
  id: Generated<number>;
  uuid: string;
  user_id: number;
  /** base64url credential id. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  counter: ColumnType<string, number, number>;
  transports: Generated<string[]>;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export type ChallengePurpose = 'second_factor' | 'enrol' | 'passkey_login' | 'passkey_register';

export interface AuthChallengeTable {
  id: Generated<number>;
  /** SHA-256 of the raw challenge handed to the client. */
  challenge_hash: string;
  user_id: number | null;
  purpose: ChallengePurpose;
  /** What the finished sign-in issues: a browser session, a login token (spec 4.1) or a mobile token (4.2). */
  credential: TokenKind | null;
  remember_me: Generated<boolean>;
  /** The WebAuthn challenge (base64url) a passkey answer must sign. */
  webauthn_challenge: string | null;
  /** The TOTP secret offered during a forced enrolment, encrypted as user_totp.secret. */
  totp_secret: string | null;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface Database {
  agency_sso: AgencySsoTable;
  sso_states: SsoStateTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodeTable;
  user_passkeys: UserPasskeyTable;
  auth_challenges: AuthChallengeTable;
}

// Migration 2026_12_08_0500: tenancies with their dates and tenants, the documents served on them
// (docs/compliance.md "Tenancies and served documents"); an erased landlord's VAT particulars (docs/gdpr.md "Landlords").
/** A tenancy of a property: its first day and (optional) last day. */
export interface TenancyTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  address_id: number;
  /** assured_shorthold (the How to Rent guide applies in England) | other */
  kind: Generated<'assured_shorthold' | 'other'>;
  starts_on: ColumnType<string, string, string>;
  ends_on: ColumnType<string | null, string | null | undefined, string | null>;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
/** A tenant of a tenancy. */
export interface TenancyTenantTable {
  tenancy_id: number;
  tenant_id: number;
}
/** A document served on a tenancy's tenants: the certificate (or guide edition) served, when, how, the proof. */
export interface TenancyServedDocumentTable {
  id: Generated<number>;
  uuid: string;
  agency_id: number;
  tenancy_id: number;
  document: 'gas_safety' | 'eicr' | 'epc' | 'how_to_rent';
  /** The compliance certificate served (null for the How to Rent guide). */
  certificate_id: number | null;
  /** How to Rent: the edition's date as printed on it (null for certificates). */
  guide_edition: ColumnType<string | null, string | null | undefined, string | null>;
  served_on: ColumnType<string, string, string>;
  method: 'hand' | 'post' | 'email';
  proof_note: string | null;
  proof_file_key: ColumnType<string | null, string | null | undefined, string | null>;
  proof_file_mime: ColumnType<string | null, string | null | undefined, string | null>;
  proof_file_size: ColumnType<number | null, number | null | undefined, number | null>;
  proof_file_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  created_by_user_id: number | null;
  created_at: Timestamp;
}
/** The name and postal address of an erased landlord that VAT records keep, restricted to that purpose until keep_until. */
export interface LandlordRestrictedParticularsTable {
  landlord_id: number;
  agency_id: number;
  name: string;
  address_line1: string | null;
  address_line2: string | null;
  address_town: string | null;
  address_postcode: string | null;
  purpose: string;
  keep_until: ColumnType<string, string, string>;
  restricted_at: Timestamp;
}

export interface Database {
  tenancies: TenancyTable;
  tenancy_tenants: TenancyTenantTable;
  tenancy_served_documents: TenancyServedDocumentTable;
  landlord_restricted_particulars: LandlordRestrictedParticularsTable;
}

/** Migration 2026_12_09_0200: a ticket of heavy work, waiting for or holding one of its agency's slots. */
export interface HeavyWorkTable {
  id: Generated<number>;
  uuid: string;
  /** null: the instance's own work (SysOps reports, database copies) */
  agency_id: number | null;
  /** export | report | gdpr_report | backup */
  kind: string;
  /** waiting | running */
  status: string;
  steps_done: Generated<number>;
  steps_total: number | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  heartbeat_at: Timestamp;
}

export interface Database {
  heavy_work: HeavyWorkTable;
}
