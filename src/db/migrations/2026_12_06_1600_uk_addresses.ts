// UK addresses in the parts Royal Mail's PAF and BS 7666 name (docs/tenants.md "Address parts"):
// sub-building, building name, building number, street and locality beside the old line fields
// (kept, still read and written), the building a unit belongs to (a new `buildings` table: a block
// of flats, its communal areas as units of it), whether a unit is a communal area, and the agency's
// choice to look postcodes up (postcodes.io). The parts of existing addresses are read from their
// lines by the backfill `addresses.parts`; until then the service reads them from the lines.
// Expand: a new table, nullable or defaulted columns, indexes; older instances never read them.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table if not exists buildings (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      branch_id integer references branches(id),
      external_ref text,
      building_name text,
      building_number text,
      street text,
      locality text,
      town text not null,
      county text,
      postcode text not null,
      latitude double precision,
      longitude double precision,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index if not exists buildings_agency_postcode on buildings (agency_id, postcode);
    create unique index if not exists buildings_agency_external_ref on buildings (agency_id, external_ref) where external_ref is not null;
    alter table addresses add column if not exists sub_building text;
    alter table addresses add column if not exists building_name text;
    alter table addresses add column if not exists building_number text;
    alter table addresses add column if not exists street text;
    alter table addresses add column if not exists locality text;
    alter table addresses add column if not exists building_id integer references buildings(id);
    alter table addresses add column if not exists is_communal boolean not null default false;
    create index if not exists addresses_building on addresses (building_id) where building_id is not null;
    alter table agencies add column if not exists postcode_lookup boolean not null default false;
    insert into data_backfills (name) values ('addresses.parts') on conflict (name) do nothing;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    delete from data_backfills where name = 'addresses.parts';
    alter table agencies drop column if exists postcode_lookup;
    drop index if exists addresses_building;
    alter table addresses drop column if exists is_communal;
    alter table addresses drop column if exists building_id;
    alter table addresses drop column if exists locality;
    alter table addresses drop column if exists street;
    alter table addresses drop column if exists building_number;
    alter table addresses drop column if exists building_name;
    alter table addresses drop column if exists sub_building;
    drop table if exists buildings;
  `);
}
