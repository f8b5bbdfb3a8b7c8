// CSRF tokens by session (docs/security.md "CSRF"): issuing a token in the database deletes that
// session's spent and expired ones, and deleting a session cascades to its tokens; both looked the
// tokens up by auth_token_id without an index, reading the whole table. Expand: an index only.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `create index if not exists csrf_tokens_auth_token on csrf_tokens (auth_token_id);`);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `drop index if exists csrf_tokens_auth_token;`);
}
