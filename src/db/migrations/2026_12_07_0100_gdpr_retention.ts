// Subject access that is complete and erasure with retention (docs/gdpr.md): the exemptions an
// agency applies to single items of a subject-access report, each with its ground in the Data
// Protection Act 2018 Schedules 2-4 (gdpr_exemptions); the agency's retention period per record
// kind (retention_periods; no row: the lawful default in src/modules/platform/gdpr/retention.ts);
// the records an erasure restricted rather than scrubbed because a stated retention keeps them,
// until when (gdpr_retained; the periodic task gdpr.retention releases them).
// Expand: three new tables.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table gdpr_exemptions (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      tenant_id integer not null references tenants(id),
      section text not null,
      record_ref text not null,
      ground text not null,
      reason text not null,
      by_user_id integer,
      created_at timestamptz not null,
      unique (tenant_id, section, record_ref)
    );
    create table retention_periods (
      agency_id integer not null references agencies(id),
      record_kind text not null,
      months integer not null check (months between 0 and 1200),
      updated_by_user_id integer,
      updated_at timestamptz not null,
      primary key (agency_id, record_kind)
    );
    create table gdpr_retained (
      id serial primary key,
      agency_id integer not null references agencies(id),
      subject_type text not null check (subject_type in ('tenant', 'landlord')),
      subject_id integer not null,
      record_kind text not null,
      table_name text not null,
      record_id integer not null,
      retained_until date not null,
      released_at timestamptz,
      created_at timestamptz not null
    );
    create index gdpr_retained_due on gdpr_retained (retained_until) where released_at is null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gdpr_retained').ifExists().execute();
  await db.schema.dropTable('retention_periods').ifExists().execute();
  await db.schema.dropTable('gdpr_exemptions').ifExists().execute();
}
