// Job documents and photos (docs/job-files.md) and per-user calendar feed keys (docs/calendar.md).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table job_files (
      id serial primary key,
      uuid uuid not null unique,
      job_id integer not null references jobs(id),
      agency_id integer not null references agencies(id),
      kind text not null check (kind in ('document', 'photo')),
      storage_key text not null unique,
      original_filename text not null,
      mime text not null,
      ext text not null,
      size_bytes integer not null,
      sha256 char(64) not null,
      description text,
      internal boolean not null default false,
      uploaded_by_user_id integer references users(id),
      created_at timestamptz not null,
      deleted_at timestamptz,
      deleted_by_user_id integer references users(id),
      verified_at timestamptz,
      integrity text not null default 'unverified' check (integrity in ('unverified', 'ok', 'mismatch', 'missing'))
    );
    create index job_files_job on job_files (job_id, kind, created_at desc, id desc);
    create index job_files_agency on job_files (agency_id, id);

    create table calendar_feed_keys (
      user_id integer primary key references users(id),
      key_hash char(64) not null unique,
      created_at timestamptz not null,
      last_used_at timestamptz
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['calendar_feed_keys', 'job_files']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
