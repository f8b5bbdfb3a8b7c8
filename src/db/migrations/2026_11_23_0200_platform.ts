// Platform (docs/events.md): the certificates already warned about, so the periodic expiry scan
// emits contractor.certificate_expiring once per certificate and expiry date (a renewed
// certificate, with a new expiry date, is warned about again).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table certificate_expiry_warnings (
      certification_id integer not null references contractor_certifications(id),
      expires_on date not null,
      warned_at timestamptz not null,
      primary key (certification_id, expires_on)
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('certificate_expiry_warnings').ifExists().execute();
}
