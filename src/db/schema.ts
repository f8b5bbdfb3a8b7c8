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
  created_at: Timestamp;
  updated_at: Timestamp;
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
  status: Generated<'active' | 'disabled'>;
  last_login_at: Timestamp | null;
  disabled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
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
}

export interface JobTable {
  id: Generated<number>;
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
  rate_limit_overrides: RateLimitOverrideTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Job = Selectable<JobTable>;
export type NewJob = Insertable<JobTable>;
export type AuthToken = Selectable<AuthTokenTable>;
