// Tables of the SLA-rule, device, time-range and appearance areas (docs/sla-rules.md,
// docs/devices.md, docs/time-ranges.md, docs/appearance.md): branch SLA response-time rules (spec 2.3a, 4.7, 4.8), push-notification device
// tokens (2.4, 4.12), per-agency job time ranges (2.5, 4.13) and per-user appearance (2.5a, 4.14).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table branch_sla_rules (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      branch_id integer not null references branches(id),
      job_status_from_id integer not null references job_statuses(id),
      job_status_to_id integer not null references job_statuses(id),
      job_type_id integer references job_types(id),
      job_priority smallint check (job_priority between 1 and 5),
      date_field_to_track text not null,
      date_field_to_compare text not null,
      minimum_response_days integer not null check (minimum_response_days >= 0),
      description text not null default '',
      created_by_user_id integer references users(id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index branch_sla_rules_branch on branch_sla_rules (branch_id, id) where deleted_at is null;
    create index branch_sla_rules_agency on branch_sla_rules (agency_id, id) where deleted_at is null;

    create table device_tokens (
      id serial primary key,
      user_id integer not null references users(id),
      device_token text not null,
      token_hash char(64) not null unique,
      platform text not null check (platform in ('ios', 'android', 'web')),
      registered_at timestamptz not null
    );
    create index device_tokens_user on device_tokens (user_id, id);

    alter table job_time_ranges add column agency_id integer references agencies(id);
    create index job_time_ranges_agency on job_time_ranges (agency_id) where retired_at is null;

    create table user_appearance (
      user_id integer primary key references users(id),
      dashboard_bg_custom text,
      banner_key text,
      banner_size integer,
      banner_sha256 char(64),
      banner_mime text,
      banner_uploaded_at timestamptz,
      updated_at timestamptz not null
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_appearance').ifExists().execute();
  await db.schema.dropIndex('job_time_ranges_agency').ifExists().execute();
  await db.schema.alterTable('job_time_ranges').dropColumn('agency_id').execute();
  await db.schema.dropTable('device_tokens').ifExists().execute();
  await db.schema.dropTable('branch_sla_rules').ifExists().execute();
}
