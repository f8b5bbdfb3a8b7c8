// Tenancies with their dates and tenants, and the documents served on them before they start
// (docs/compliance.md "Tenancies and served documents"); and the particulars of an erased landlord
// that VAT records must keep, restricted (docs/gdpr.md "Landlords").
// Expand: new tables only; older instances never read them.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table if not exists tenancies (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      address_id integer not null references addresses(id),
      kind text not null default 'assured_shorthold' check (kind in ('assured_shorthold', 'other')),
      starts_on date not null,
      ends_on date,
      created_by_user_id integer,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (ends_on is null or ends_on >= starts_on)
    );
    create index if not exists tenancies_address on tenancies (address_id, starts_on desc, id desc);
    create table if not exists tenancy_tenants (
      tenancy_id integer not null references tenancies(id) on delete cascade,
      tenant_id integer not null references tenants(id),
      primary key (tenancy_id, tenant_id)
    );
    create index if not exists tenancy_tenants_tenant on tenancy_tenants (tenant_id);
    create table if not exists tenancy_served_documents (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      tenancy_id integer not null references tenancies(id) on delete cascade,
      document text not null check (document in ('gas_safety', 'eicr', 'epc', 'how_to_rent')),
      certificate_id integer references compliance_certificates(id),
      guide_edition date,
      served_on date not null,
      method text not null check (method in ('hand', 'post', 'email')),
      proof_note text,
      proof_file_key text,
      proof_file_mime text,
      proof_file_size integer,
      proof_file_sha256 text,
      created_by_user_id integer,
      created_at timestamptz not null,
      check ((document = 'how_to_rent') = (certificate_id is null)),
      check ((document = 'how_to_rent') = (guide_edition is not null))
    );
    create index if not exists tenancy_served_documents_tenancy on tenancy_served_documents (tenancy_id, served_on, id);
    create table if not exists landlord_restricted_particulars (
      landlord_id integer primary key references landlords(id),
      agency_id integer not null references agencies(id),
      name text not null,
      address_line1 text,
      address_line2 text,
      address_town text,
      address_postcode text,
      purpose text not null,
      keep_until date not null,
      restricted_at timestamptz not null
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['landlord_restricted_particulars', 'tenancy_served_documents', 'tenancy_tenants', 'tenancies']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
