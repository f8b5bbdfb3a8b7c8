// Transactional outbox (docs/events.md): every domain event is written in the transaction of the
// change that caused it; a relay hands committed rows to the queue, and handlers record each
// (handler, event) they completed so that a redelivered event has its effect once.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table outbox (
      id bigserial primary key,
      event_id uuid not null unique,
      name text not null,
      version integer not null,
      agency_id integer references agencies(id),
      payload jsonb not null,
      occurred_at timestamptz not null,
      published_at timestamptz
    );
    create index outbox_unpublished on outbox (id) where published_at is null;
    create index outbox_name_id on outbox (name, id desc);
    create index outbox_agency_id on outbox (agency_id, id desc);
    create table event_handler_runs (
      handler text not null,
      event_id uuid not null,
      completed_at timestamptz not null,
      primary key (handler, event_id)
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_handler_runs').ifExists().execute();
  await db.schema.dropTable('outbox').ifExists().execute();
}
