// Messaging and notices (docs/messaging.md): per-agency template overrides with their version
// history, the delivery log (one row per event, recipient and channel: the idempotency key of a
// sent message), per-user notification preferences, notices and their read receipts.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table message_template_versions (
      id serial primary key,
      agency_id integer not null references agencies(id),
      template_key text not null,
      channel text not null check (channel in ('email', 'push', 'sms')),
      version integer not null,
      reverted boolean not null default false,
      subject text,
      mjml text,
      text_body text,
      title text,
      body text,
      created_by_user_id integer references users(id),
      created_at timestamptz not null,
      unique (agency_id, template_key, channel, version)
    );
    create table message_deliveries (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      event_id uuid not null,
      event_name text not null,
      template_key text not null,
      channel text not null,
      recipient_key text not null,
      recipient_kind text not null,
      recipient_user_id integer references users(id),
      recipient_address text,
      status text not null check (status in ('queued', 'sent', 'failed', 'suppressed')),
      reason text,
      attempts integer not null default 0,
      last_error text,
      subject text,
      content jsonb,
      next_attempt_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      sent_at timestamptz,
      unique (event_id, recipient_key, channel)
    );
    create index message_deliveries_agency on message_deliveries (agency_id, id desc);
    create index message_deliveries_due on message_deliveries (next_attempt_at) where status = 'queued';
    create table notification_preferences (
      user_id integer not null references users(id),
      template_key text not null,
      channel text not null,
      enabled boolean not null,
      updated_at timestamptz not null,
      primary key (user_id, template_key, channel)
    );
    create table notices (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      branch_id integer references branches(id),
      role_id integer references roles(id),
      title text not null,
      body text not null,
      severity text not null check (severity in ('info', 'warning', 'critical')),
      starts_at timestamptz not null,
      expires_at timestamptz,
      created_by_user_id integer references users(id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index notices_agency on notices (agency_id, starts_at desc);
    create table notice_reads (
      notice_id integer not null references notices(id),
      user_id integer not null references users(id),
      read_at timestamptz not null,
      primary key (notice_id, user_id)
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['notice_reads', 'notices', 'notification_preferences', 'message_deliveries', 'message_template_versions']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
