// Backfills of derived state (docs/operations.md "Upgrades"): one row per backfill that a
// migration asks for; the background worker runs each in batches on the queue, records its
// progress here and logs it. This migration asks for `sla.clocks`: the SLA clocks of every open job
// (databases made before the SLA clocks existed measured an existing job only once a rule changed).
// Expand: older instances never read the table. Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table data_backfills (
      name text primary key,
      requested_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      leased_until timestamptz,
      cursor_id integer not null default 0,
      done integer not null default 0,
      total integer,
      last_error text
    );
    insert into data_backfills (name) values ('sla.clocks') on conflict (name) do nothing;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_backfills').ifExists().execute();
}
