// Users area (docs/users.md): single-use tokens for invitations and password resets
// (stored as SHA-256 only) and the invitation state of an account. Frozen: never import
// application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table users add column invited_at timestamptz;

    create table user_tokens (
      id serial primary key,
      user_id integer not null references users(id),
      purpose text not null check (purpose in ('invitation', 'password_reset')),
      token_hash char(64) not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_by_user_id integer references users(id)
    );
    create index user_tokens_user_open on user_tokens (user_id, purpose) where used_at is null;
    create index users_agency_name on users (agency_id, name, id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_tokens').ifExists().execute();
  await db.schema.dropIndex('users_agency_name').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('invited_at').execute();
}
