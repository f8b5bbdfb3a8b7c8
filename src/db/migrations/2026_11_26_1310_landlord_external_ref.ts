// The agency's own reference of a landlord (docs/onboarding.md, "Import"): the key of the landlord
// import, like external_ref on addresses, tenants and contractors (migration 2026_11_26_0500).
// Expand: a nullable column and a partial unique index; older instances never read them.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table landlords add column if not exists external_ref text;
    create unique index if not exists landlords_agency_external_ref on landlords (agency_id, external_ref) where external_ref is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('landlords_agency_external_ref').ifExists().execute();
  await db.schema.alterTable('landlords').dropColumn('external_ref').execute();
}
