// Insight (docs/insight.md): search indexes (full text and pg_trgm trigrams, on both engines),
// report subscriptions, and the outdoor flag of trades for the weather forecast.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create extension if not exists pg_trgm;

    -- Full text over a job's reference, title and description: a stored generated column, so
    -- ranking reads the vector instead of re-parsing the text of every candidate.
    alter table jobs add column search_vector tsvector
      generated always as (to_tsvector('english'::regconfig, reference || ' ' || title || ' ' || description)) stored;
    create index jobs_search_fts on jobs using gin (search_vector) where deleted_at is null;
    create index jobs_title_trgm on jobs using gin (title gin_trgm_ops) where deleted_at is null;
    create index jobs_reference_trgm on jobs using gin (lower(reference) gin_trgm_ops) where deleted_at is null;
    create index jobs_live_reference on jobs (reference) where deleted_at is null;
    create index addresses_postcode_trgm on addresses using gin ((replace(lower(postcode), ' ', '')) gin_trgm_ops);
    create index addresses_line1_trgm on addresses using gin (line1 gin_trgm_ops);
    create index tenants_name_trgm on tenants using gin (name gin_trgm_ops);
    create index contractors_name_trgm on contractors using gin (company_name gin_trgm_ops);
    create index users_name_trgm on users using gin (name gin_trgm_ops);
    create index users_email_trgm on users using gin (email gin_trgm_ops);

    -- Dashboard: open jobs by (status, priority) and visits by scheduled_for, per agency and branch.
    create index jobs_live_agency_status on jobs (agency_id, status_id, priority) where deleted_at is null;
    create index jobs_live_branch_status on jobs (branch_id, status_id, priority) where deleted_at is null;
    create index jobs_scheduled_for on jobs (agency_id, scheduled_for) where deleted_at is null and scheduled_for is not null;
    create index jobs_branch_scheduled_for on jobs (branch_id, scheduled_for) where deleted_at is null and scheduled_for is not null;

    alter table trades add column outdoor boolean not null default false;
    update trades set outdoor = true where agency_id is null and code in ('roofing');
    insert into trades (code, name, outdoor)
      select v.code, v.name, true from (values
        ('gutters', 'Gutters'), ('external_painting', 'External painting'), ('landscaping', 'Landscaping')
      ) as v(code, name)
      where not exists (select 1 from trades t where t.agency_id is null and t.code = v.code);

    create table report_subscriptions (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer references agencies(id),
      user_id integer not null references users(id),
      report text not null,
      format text not null,
      frequency text not null,
      filters jsonb not null default '{}',
      last_period text,
      last_sent_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index report_subscriptions_user on report_subscriptions (user_id) where deleted_at is null;
    create index report_subscriptions_due on report_subscriptions (frequency) where deleted_at is null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop table if exists report_subscriptions;
    delete from trades where agency_id is null and code in ('gutters', 'external_painting', 'landscaping');
    alter table trades drop column if exists outdoor;
    drop index if exists jobs_branch_scheduled_for;
    drop index if exists jobs_scheduled_for;
    drop index if exists jobs_live_branch_status;
    drop index if exists jobs_live_agency_status;
    drop index if exists users_email_trgm;
    drop index if exists users_name_trgm;
    drop index if exists contractors_name_trgm;
    drop index if exists tenants_name_trgm;
    drop index if exists addresses_line1_trgm;
    drop index if exists addresses_postcode_trgm;
    drop index if exists jobs_live_reference;
    drop index if exists jobs_reference_trgm;
    drop index if exists jobs_title_trgm;
    drop index if exists jobs_search_fts;
    alter table jobs drop column if exists search_vector;
  `);
}
