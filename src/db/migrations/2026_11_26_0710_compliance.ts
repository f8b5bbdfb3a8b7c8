// The compliance register (docs/compliance.md): per agency the types of compliance item (seeded
// with the UK ones: gas safety record, EICR, EPC, smoke and CO alarms, legionella, HMO fire risk
// assessment, HMO licence), per property the items it needs, and the certificates that satisfy
// them (issue and expiry dates, the contractor who issued them, the job file holding the document).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table compliance_item_types (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      code text not null,
      name text not null,
      interval_months integer check (interval_months between 1 and 600),
      at_tenancy_start boolean not null default false,
      hmo_only boolean not null default false,
      required_document text not null,
      due_soon_days integer not null default 30 check (due_soon_days between 0 and 365),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (agency_id, code)
    );
    create table compliance_items (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      address_id integer not null references addresses(id),
      type_id integer not null references compliance_item_types(id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (address_id, type_id)
    );
    create index compliance_items_agency on compliance_items (agency_id, address_id);
    create table compliance_certificates (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      item_id integer not null references compliance_items(id),
      issued_on date not null,
      expires_on date,
      reference text not null default '',
      contractor_id integer references contractors(id),
      job_id integer references jobs(id),
      job_file_id integer references job_files(id),
      created_by_user_id integer,
      created_at timestamptz not null,
      check (expires_on is null or expires_on >= issued_on)
    );
    create index compliance_certificates_item on compliance_certificates (item_id, issued_on desc, id desc);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['compliance_certificates', 'compliance_items', 'compliance_item_types']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
