// Foundation schema: agencies, branches, roles, users, tokens, CSRF tokens, activity log, and the
// reference and business tables the first jobs endpoints and the demo data stand on.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';


export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table agencies (
      id serial primary key,
      uuid uuid not null unique,
      name text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table branches (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      name text not null,
      sharing_enabled boolean not null default false,
      closed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (agency_id, name)
    );

    create table roles (
      id serial primary key,
      name text not null,
      code text not null unique,
      level integer not null,
      agency_id integer references agencies(id),
      is_builtin boolean not null default false,
      description text not null default '',
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table role_permissions (
      role_id integer not null references roles(id) on delete cascade,
      permission_key text not null,
      primary key (role_id, permission_key)
    );

    create table role_permission_defaults (
      role_id integer not null references roles(id) on delete cascade,
      permission_key text not null,
      primary key (role_id, permission_key)
    );

    create table trades (
      id serial primary key,
      code text not null unique,
      name text not null
    );

    create table addresses (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      branch_id integer references branches(id),
      line1 text not null,
      line2 text,
      town text not null,
      county text,
      postcode text not null,
      latitude double precision,
      longitude double precision,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index addresses_agency_postcode on addresses (agency_id, postcode);

    create table tenants (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      name text not null,
      email text,
      phone text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      erased_at timestamptz
    );
    create index tenants_agency_name on tenants (agency_id, name);

    create table tenant_addresses (
      tenant_id integer not null references tenants(id),
      address_id integer not null references addresses(id),
      created_at timestamptz not null,
      primary key (tenant_id, address_id)
    );
    create index tenant_addresses_address on tenant_addresses (address_id);

    create table contractors (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      company_name text not null,
      contact_name text,
      email text,
      phone text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table contractor_trades (
      contractor_id integer not null references contractors(id),
      trade_id integer not null references trades(id),
      primary key (contractor_id, trade_id)
    );

    create table users (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer references agencies(id),
      branch_id integer references branches(id),
      role_id integer not null references roles(id),
      contractor_id integer references contractors(id),
      tenant_id integer references tenants(id),
      name text not null,
      email text not null,
      password_hash text not null,
      status text not null default 'active',
      last_login_at timestamptz,
      disabled_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create unique index users_email on users (email);
    create index users_agency on users (agency_id);

    create table auth_tokens (
      id serial primary key,
      user_id integer not null references users(id),
      token_hash char(64) not null unique,
      kind text not null,
      remember_me boolean not null default false,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      last_used_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text,
      ip_address text,
      user_agent text
    );
    create index auth_tokens_user_active on auth_tokens (user_id) where revoked_at is null;

    create table csrf_tokens (
      id serial primary key,
      auth_token_id integer not null references auth_tokens(id) on delete cascade,
      token_hash char(64) not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index csrf_tokens_expiry on csrf_tokens (expires_at);

    create table activity_log (
      id serial primary key,
      agency_id integer references agencies(id),
      user_id integer references users(id),
      user_name text not null,
      action text not null,
      resource_type text not null,
      resource_id integer,
      ip_address text not null,
      details jsonb,
      created_at timestamptz not null
    );
    create index activity_log_created on activity_log (created_at desc, id desc);
    create index activity_log_agency_created on activity_log (agency_id, created_at desc, id desc);
    create index activity_log_user_created on activity_log (user_id, created_at desc, id desc);
    create index activity_log_action_created on activity_log (action, created_at desc, id desc);

    create table agency_counters (
      agency_id integer not null references agencies(id),
      name text not null,
      value integer not null,
      primary key (agency_id, name)
    );

    create table job_statuses (
      id integer primary key,
      code text not null unique,
      name text not null,
      sort_order integer not null,
      is_open boolean not null
    );

    create table job_types (
      id integer primary key,
      code text not null unique,
      name text not null
    );

    create table job_time_ranges (
      id serial primary key,
      range_label text not null,
      starts_at text,
      ends_at text,
      sort_order integer not null default 0,
      retired_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table jobs (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      branch_id integer not null references branches(id),
      reference text not null,
      title text not null,
      description text not null default '',
      priority smallint not null,
      status_id integer not null references job_statuses(id),
      job_type_id integer not null references job_types(id),
      address_id integer references addresses(id),
      tenant_id integer references tenants(id),
      contractor_id integer references contractors(id),
      trade_id integer references trades(id),
      agent_user_id integer references users(id),
      time_range_id integer references job_time_ranges(id),
      reported_by_user_id integer references users(id),
      estimated_cost_pence integer,
      agreed_cost_pence integer,
      currency char(3) not null default 'GBP',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      approved_at timestamptz,
      assigned_at timestamptz,
      scheduled_for timestamptz,
      attended_at timestamptz,
      completed_at timestamptz,
      invoiced_at timestamptz,
      closed_at timestamptz,
      cancelled_at timestamptz,
      deleted_at timestamptz,
      unique (agency_id, reference)
    );
    create table job_notes (
      id serial primary key,
      uuid uuid not null unique,
      job_id integer not null references jobs(id),
      author_user_id integer references users(id),
      body text not null,
      visibility text not null check (visibility in ('internal', 'tenant', 'contractor', 'both')),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      edited_at timestamptz
    );
    create index job_notes_job on job_notes (job_id, created_at);

    create index jobs_branch_created on jobs (branch_id, created_at desc, id desc);
    create index jobs_agency_created on jobs (agency_id, created_at desc, id desc);
    create index jobs_status on jobs (status_id);
    create index jobs_contractor on jobs (contractor_id) where contractor_id is not null;
    create index jobs_tenant on jobs (tenant_id) where tenant_id is not null;
    create index jobs_address on jobs (address_id) where address_id is not null;
  `);

  await runScript(db, `
    insert into job_statuses (id, code, name, sort_order, is_open) values
      (1, 'reported', 'Reported', 10, true),
      (2, 'awaiting_approval', 'Awaiting approval', 20, true),
      (3, 'approved', 'Approved', 30, true),
      (4, 'assigned', 'Assigned', 40, true),
      (5, 'scheduled', 'Scheduled', 50, true),
      (6, 'in_progress', 'In progress', 60, true),
      (7, 'completed', 'Completed', 70, true),
      (8, 'invoiced', 'Invoiced', 80, true),
      (9, 'closed', 'Closed', 90, false),
      (10, 'cancelled', 'Cancelled', 100, false),
      (11, 'on_hold', 'On hold', 65, true);

    insert into job_time_ranges (range_label, starts_at, ends_at, sort_order, created_at, updated_at) values
      ('Morning 08:00-12:00', '08:00', '12:00', 10, now(), now()),
      ('Afternoon 12:00-17:00', '12:00', '17:00', 20, now(), now()),
      ('Evening 17:00-20:00', '17:00', '20:00', 30, now(), now()),
      ('All day 08:00-18:00', '08:00', '18:00', 40, now(), now());

    insert into job_types (id, code, name) values
      (1, 'reactive_repair', 'Reactive repair'),
      (2, 'emergency', 'Emergency'),
      (3, 'planned_maintenance', 'Planned maintenance'),
      (4, 'inspection', 'Inspection'),
      (5, 'compliance_check', 'Compliance check'),
      (6, 'void_works', 'Void works');

    insert into trades (code, name) values
      ('plumbing', 'Plumbing'), ('electrical', 'Electrical'), ('gas', 'Gas'),
      ('heating', 'Heating'), ('roofing', 'Roofing'), ('carpentry', 'Carpentry'),
      ('glazing', 'Glazing'), ('locksmith', 'Locksmith'), ('drainage', 'Drainage'),
      ('pest_control', 'Pest control'), ('cleaning', 'Cleaning'),
      ('general_maintenance', 'General maintenance'), ('decorating', 'Decorating'),
      ('damp_and_mould', 'Damp and mould'), ('appliance_repair', 'Appliance repair');
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'job_notes', 'jobs', 'job_time_ranges', 'job_types', 'job_statuses', 'agency_counters', 'activity_log', 'csrf_tokens',
    'auth_tokens', 'users', 'contractor_trades', 'contractors', 'tenant_addresses', 'tenants',
    'addresses', 'trades', 'role_permission_defaults', 'role_permissions', 'roles', 'branches', 'agencies',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
