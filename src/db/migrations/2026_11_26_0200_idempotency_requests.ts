// Idempotency keys on every write (docs/api.md "Idempotency-Key"): the route a key was used on, and
// the first answer as sent (its bytes and the headers that matter), so a replay answers exactly that.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table idempotency_keys add column route text;
    alter table idempotency_keys add column response_text text;
    alter table idempotency_keys add column response_headers jsonb;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table idempotency_keys drop column if exists response_headers;
    alter table idempotency_keys drop column if exists response_text;
    alter table idempotency_keys drop column if exists route;
  `);
}
