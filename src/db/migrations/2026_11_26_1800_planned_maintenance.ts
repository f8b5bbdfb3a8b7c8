// Planned maintenance and custom compliance types (docs/compliance.md "Planned maintenance",
// "Custom types"). maintenance_schedules: an agency's standing instruction to raise a job on each
// occurrence of an RFC 5545 recurrence rule, lead_days ahead of the due date, for one property
// (address_id) or for every property with an item of one compliance type (type_id), optionally
// assigned to the contractor who usually does it. maintenance_occurrences: one row per schedule,
// property and due date, written with the job it raised in one transaction; its unique key is what
// makes two workers raise one job per occurrence. certificate_id links the certificate taken from
// the job's first document back to the compliance item. compliance_item_types gains `custom`
// (created by the agency; the seeded UK types are false) and `retired_at` (a retired type takes
// no new items or schedules; its items and certificates stay).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table compliance_item_types add column custom boolean not null default false;
    alter table compliance_item_types add column retired_at timestamptz;
    create table maintenance_schedules (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      address_id integer references addresses(id),
      type_id integer references compliance_item_types(id),
      title text not null,
      description text not null default '',
      rrule text not null,
      starts_on date not null,
      lead_days integer not null check (lead_days between 0 and 365),
      contractor_id integer references contractors(id),
      trade_id integer references trades(id),
      priority integer not null default 4 check (priority between 1 and 5),
      active_from date not null,
      retired_at timestamptz,
      created_by_user_id integer,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (address_id is not null or type_id is not null)
    );
    create index maintenance_schedules_agency on maintenance_schedules (agency_id, id);
    create table maintenance_occurrences (
      id serial primary key,
      agency_id integer not null references agencies(id),
      schedule_id integer not null references maintenance_schedules(id),
      address_id integer not null references addresses(id),
      item_id integer references compliance_items(id),
      due_on date not null,
      job_id integer references jobs(id),
      certificate_id integer references compliance_certificates(id),
      created_at timestamptz not null,
      unique (schedule_id, address_id, due_on)
    );
    create index maintenance_occurrences_job on maintenance_occurrences (job_id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('maintenance_occurrences').ifExists().execute();
  await db.schema.dropTable('maintenance_schedules').ifExists().execute();
  await db.schema.alterTable('compliance_item_types').dropColumn('retired_at').execute();
  await db.schema.alterTable('compliance_item_types').dropColumn('custom').execute();
}
