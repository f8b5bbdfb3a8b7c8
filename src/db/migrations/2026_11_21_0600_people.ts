// People: extends tenants, addresses, contractors and trades of the foundation, and adds
// contractor contacts, certifications, coverage districts and GDPR consent records
// (docs/tenants.md, docs/contractors.md, docs/gdpr.md). Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table tenants add column mobile text;
    alter table tenants add column preferred_contact text;
    alter table tenants add column notes text;

    alter table addresses add column line3 text;

    alter table contractors add column notes text;
    alter table contractors add column active boolean not null default true;

    alter table trades add column agency_id integer references agencies(id);
    alter table trades add column retired_at timestamptz;
    alter table trades drop constraint trades_code_key;
    create unique index trades_scope_code on trades ((coalesce(agency_id, 0)), code);

    insert into trades (code, name) values ('oil_heating', 'Oil heating');

    create table contractor_contacts (
      id serial primary key,
      uuid uuid not null unique,
      contractor_id integer not null references contractors(id),
      name text not null,
      role text,
      email text,
      phone text,
      is_primary boolean not null default false,
      created_at timestamptz not null
    );
    create index contractor_contacts_contractor on contractor_contacts (contractor_id);

    create table contractor_certifications (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      contractor_id integer not null references contractors(id),
      cert_type text not null,
      reference text not null,
      issued_on date,
      expires_on date not null,
      file_key text,
      file_mime text,
      file_size integer,
      file_sha256 char(64),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index contractor_certifications_contractor on contractor_certifications (contractor_id) where deleted_at is null;
    create index contractor_certifications_expiry on contractor_certifications (agency_id, expires_on) where deleted_at is null;

    create table contractor_coverage (
      contractor_id integer not null references contractors(id),
      district text not null,
      primary key (contractor_id, district)
    );
    create index contractor_coverage_district on contractor_coverage (district);

    create table gdpr_consents (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      tenant_id integer references tenants(id),
      user_id integer references users(id),
      purpose text not null,
      source text not null,
      given_at timestamptz not null,
      withdrawn_at timestamptz,
      withdrawn_source text,
      recorded_by_user_id integer references users(id),
      created_at timestamptz not null,
      check (tenant_id is not null or user_id is not null)
    );
    create index gdpr_consents_tenant on gdpr_consents (tenant_id) where tenant_id is not null;
    create index gdpr_consents_user on gdpr_consents (user_id) where user_id is not null;
    create index gdpr_consents_agency on gdpr_consents (agency_id, given_at desc);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['gdpr_consents', 'contractor_coverage', 'contractor_certifications', 'contractor_contacts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await runScript(db, `
    delete from trades where code = 'oil_heating' and agency_id is null;
    drop index if exists trades_scope_code;
    alter table trades add constraint trades_code_key unique (code);
    alter table trades drop column retired_at;
    alter table trades drop column agency_id;
    alter table contractors drop column active;
    alter table contractors drop column notes;
    alter table addresses drop column line3;
    alter table tenants drop column notes;
    alter table tenants drop column preferred_contact;
    alter table tenants drop column mobile;
  `);
}
