// Tracing (docs/operations.md "Tracing"): the W3C traceparent of the span that emitted an outbox
// event or queued a webhook delivery, so the job and the delivery made later are spans of the
// request's trace. Nullable and written only while tracing is on. Expand: older instances neither
// read nor write the columns. Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table outbox add column if not exists traceparent text;
    alter table webhook_deliveries add column if not exists traceparent text;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table webhook_deliveries drop column if exists traceparent;
    alter table outbox drop column if exists traceparent;
  `);
}
