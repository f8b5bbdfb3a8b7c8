// One login, one lifetime (docs/security.md "Logout"): a login issues a bearer token and a browser
// session; both rows carry the same login_id, so revoking either revokes the other. Tokens issued
// before this migration have none and are revoked alone, as before. Frozen: never import
// application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table auth_tokens add column login_id uuid;
    create index auth_tokens_login on auth_tokens (login_id) where login_id is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop index if exists auth_tokens_login;
    alter table auth_tokens drop column if exists login_id;
  `);
}
