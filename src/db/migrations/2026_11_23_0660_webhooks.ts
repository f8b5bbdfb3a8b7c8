// Outbound webhooks (docs/webhooks.md): per-agency endpoints subscribed to domain events, with a
// signing secret (and the previous one during a rotation overlap), and one delivery row per
// (endpoint, event) carrying its retry state and the last response.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table webhook_endpoints (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      url text not null,
      description text not null default '',
      events jsonb not null,
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      enabled boolean not null default true,
      disabled_reason text,
      created_by_user_id integer references users(id),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index webhook_endpoints_agency on webhook_endpoints (agency_id, id);
    create table webhook_deliveries (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      endpoint_id integer not null references webhook_endpoints(id) on delete cascade,
      message_id text not null,
      event_name text not null,
      payload jsonb not null,
      status text not null,
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_response_code integer,
      last_duration_ms integer,
      last_error text,
      created_at timestamptz not null,
      unique (endpoint_id, message_id)
    );
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
    create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc);
    create index webhook_deliveries_agency on webhook_deliveries (agency_id, id desc);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('webhook_endpoints').ifExists().execute();
}
