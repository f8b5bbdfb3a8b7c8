// Tenant self-service (docs/tenant-reporting.md): per agency the guided-reporting triage flows and
// their versions (each version a frozen tree of questions and outcomes), the reports tenants made
// by walking them (the version and the answers given, the outcome, the job raised or joined), the
// branches' on-call contacts for emergencies, the agency's reporting settings (recall window,
// survey link lifetime), duplicate merges, recalls (a repair reopened within the window, linked
// to the original job) and the satisfaction surveys sent after completion.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table triage_flows (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      code text not null,
      name text not null,
      position integer not null default 0,
      current_version integer not null default 1,
      retired_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (agency_id, code)
    );
    create table triage_flow_versions (
      id serial primary key,
      flow_id integer not null references triage_flows(id),
      version integer not null check (version >= 1),
      name text not null,
      tree jsonb not null,
      created_by_user_id integer,
      created_at timestamptz not null,
      unique (flow_id, version)
    );
    create table tenant_reports (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      branch_id integer references branches(id),
      flow_id integer not null references triage_flows(id),
      flow_version_id integer not null references triage_flow_versions(id),
      tenant_id integer references tenants(id),
      reported_by_user_id integer,
      address_id integer references addresses(id),
      answers jsonb not null,
      outcome text not null check (outcome in ('advice', 'emergency', 'job', 'added_to_job')),
      outcome_node text not null,
      job_id integer references jobs(id),
      description text not null default '',
      created_at timestamptz not null
    );
    create index tenant_reports_agency on tenant_reports (agency_id, created_at desc, id desc);
    create index tenant_reports_job on tenant_reports (job_id) where job_id is not null;
    create table branch_on_call (
      branch_id integer primary key references branches(id),
      agency_id integer not null references agencies(id),
      name text not null,
      phone text not null,
      email text not null,
      updated_at timestamptz not null
    );
    create table reporting_settings (
      agency_id integer primary key references agencies(id),
      recall_days integer not null default 28 check (recall_days between 1 and 365),
      survey_link_days integer not null default 14 check (survey_link_days between 1 and 90),
      updated_at timestamptz not null
    );
    create table job_merges (
      id serial primary key,
      agency_id integer not null references agencies(id),
      kept_job_id integer not null references jobs(id),
      merged_job_id integer not null unique references jobs(id),
      by_user_id integer,
      note text,
      created_at timestamptz not null,
      check (kept_job_id <> merged_job_id)
    );
    create index job_merges_kept on job_merges (kept_job_id);
    create table job_recalls (
      job_id integer primary key references jobs(id),
      original_job_id integer not null references jobs(id),
      agency_id integer not null references agencies(id),
      reason text not null default '',
      by_user_id integer,
      created_at timestamptz not null,
      check (job_id <> original_job_id)
    );
    create index job_recalls_original on job_recalls (original_job_id);
    create table job_surveys (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null unique references jobs(id),
      tenant_id integer not null references tenants(id),
      contractor_id integer references contractors(id),
      nonce text not null unique,
      expires_at timestamptz not null,
      answered_at timestamptz,
      rating integer check (rating between 1 and 5),
      comment text,
      created_at timestamptz not null
    );
    create index job_surveys_contractor on job_surveys (contractor_id) where rating is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'job_surveys', 'job_recalls', 'job_merges', 'reporting_settings', 'branch_on_call', 'tenant_reports', 'triage_flow_versions', 'triage_flows',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
