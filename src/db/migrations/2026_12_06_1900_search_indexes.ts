// Search indexes for the address, building, landlord and e-mail matches (docs/insight.md "Search"):
// the search matches an address by its whole text (flat, building, lines, town) and a building by
// its name, number, street, locality and town, with pg_trgm's word similarity (`<%`) or ILIKE.
// concat_ws is only STABLE, so an index cannot be built on it directly: two IMMUTABLE SQL functions
// (of text arguments only, for which concat_ws cannot vary) name those texts, the repository
// matches on the same calls, and a trigram GIN index on each lets PostgreSQL answer both operators
// from the index. Landlords' names and the e-mails ORed into the people searches get trigram
// indexes too, so the OR can be a BitmapOr instead of a scan. Expand: functions and indexes only.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create or replace function caretaker_address_text(sub_building text, building_name text, line1 text, line2 text, line3 text, town text)
      returns text language sql immutable parallel safe
      as $$ select concat_ws(', ', sub_building, building_name, line1, line2, line3, town) $$;
    create or replace function caretaker_building_text(building_name text, building_number text, street text, locality text, town text)
      returns text language sql immutable parallel safe
      as $$ select concat_ws(' ', building_name, building_number, street, locality, town) $$;
    create index if not exists addresses_text_trgm on addresses
      using gin (caretaker_address_text(sub_building, building_name, line1, line2, line3, town) gin_trgm_ops);
    create index if not exists buildings_text_trgm on buildings
      using gin (caretaker_building_text(building_name, building_number, street, locality, town) gin_trgm_ops);
    create index if not exists landlords_name_trgm on landlords using gin (name gin_trgm_ops);
    create index if not exists landlords_email_trgm on landlords using gin (email gin_trgm_ops);
    create index if not exists tenants_email_trgm on tenants using gin (email gin_trgm_ops);
    create index if not exists contractors_email_trgm on contractors using gin (email gin_trgm_ops);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop index if exists contractors_email_trgm;
    drop index if exists tenants_email_trgm;
    drop index if exists landlords_email_trgm;
    drop index if exists landlords_name_trgm;
    drop index if exists buildings_text_trgm;
    drop index if exists addresses_text_trgm;
    drop function if exists caretaker_building_text(text, text, text, text, text);
    drop function if exists caretaker_address_text(text, text, text, text, text, text);
  `);
}
