// TOTP secrets encrypted at rest (docs/security.md "Secrets at rest"): the application now writes
// user_totp.secret and auth_challenges.totp_secret as AES-256-GCM ciphertext under the instance's
// secrets key (enc:v1:...). The secrets stored before are encrypted by the backfill
// `auth.totp-secrets` (the key is the application's, so no SQL can do it); until then the
// application reads a plain one as it is. No schema change.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    insert into data_backfills (name) values ('auth.totp-secrets') on conflict (name) do nothing;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    delete from data_backfills where name = 'auth.totp-secrets';
  `);
}
