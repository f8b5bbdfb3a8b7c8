// Agency onboarding (docs/onboarding.md): the agency profile (legal name, registered address,
// company number, contacts, office hours, default approval limit), suspension, and the import
// runs with their per-row outcomes.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table agencies add column legal_name text;
    alter table agencies add column registered_line1 text;
    alter table agencies add column registered_line2 text;
    alter table agencies add column registered_town text;
    alter table agencies add column registered_postcode text;
    alter table agencies add column company_number text;
    alter table agencies add column contact_email text;
    alter table agencies add column contact_phone text;
    alter table agencies add column office_hours jsonb;
    alter table agencies add column default_approval_limit_pence integer check (default_approval_limit_pence >= 0);
    alter table agencies add column suspended_at timestamptz;
    alter table agencies add column suspended_reason text;

    create table imports (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      entity text not null,
      file_name text not null,
      file_sha256 text not null,
      status text not null,
      skip_bad_rows boolean not null default false,
      rows_total integer not null default 0,
      rows_done integer not null default 0,
      error_count integer not null default 0,
      counts jsonb not null default '{}',
      cursor integer not null default 0,
      encoding text,
      delimiter text,
      failure text,
      created_by integer references users(id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      committed_at timestamptz
    );
    create index imports_agency_idx on imports (agency_id, created_at desc);

    create table import_rows (
      import_id integer not null references imports(id) on delete cascade,
      row_number integer not null,
      outcome text not null,
      data jsonb not null,
      errors jsonb not null default '[]',
      applied boolean not null default false,
      primary key (import_id, row_number)
    );

    alter table addresses add column external_ref text;
    alter table tenants add column external_ref text;
    alter table contractors add column external_ref text;
    create unique index addresses_agency_external_ref on addresses (agency_id, external_ref) where external_ref is not null;
    create unique index tenants_agency_external_ref on tenants (agency_id, external_ref) where external_ref is not null;
    create unique index contractors_agency_external_ref on contractors (agency_id, external_ref) where external_ref is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_rows').execute();
  await db.schema.dropTable('imports').execute();
  for (const t of ['addresses', 'tenants', 'contractors']) {
    await db.schema.dropIndex(`${t}_agency_external_ref`).execute();
    await db.schema.alterTable(t).dropColumn('external_ref').execute();
  }
  for (const c of ['legal_name', 'registered_line1', 'registered_line2', 'registered_town', 'registered_postcode', 'company_number',
    'contact_email', 'contact_phone', 'office_hours', 'default_approval_limit_pence', 'suspended_at', 'suspended_reason']) {
    await db.schema.alterTable('agencies').dropColumn(c).execute();
  }
}
