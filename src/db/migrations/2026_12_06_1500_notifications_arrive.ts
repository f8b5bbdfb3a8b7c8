// Notifications that arrive, and live streams that end (docs/messaging.md "Slots", "Digests";
// docs/live-updates.md "When a stream ends"):
// - A delivery's slot (its idempotency key) is (event, message kind, recipient, channel): two
//   messages of one event to one person, such as the "Work completed" e-mail and the satisfaction
//   survey, no longer share a slot where the second was dropped.
// - notification_preferences.mode ('immediate', 'digest', 'off'; null: the kind's default, with
//   `enabled` false meaning off) and notification_digest_items, the lines waiting for a person's
//   next digest e-mail (SLA notices).
// - A trigger announces on the channel `caretaker_auth` every committed change that may end a
//   signed-in session (a token revoked or deleted, an account changed, an agency suspended or
//   reactivated, roles and permissions, the blacklist), so every instance ends the live streams it
//   holds at once. Payload: `user:<id>`, `agency:<id>` or `all`.
// Contract: an older instance's ON CONFLICT names the old key (event, recipient, channel), which no
// longer exists; upgrade every instance first. Frozen: never import application code here.
import { sql, type Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

/** Announces a change that may end sessions: the account of a token or user, or an agency. */
const AUTH_NOTIFY = `
  create or replace function caretaker_auth_notify() returns trigger language plpgsql as $$
  declare
    r jsonb := coalesce(to_jsonb(new), to_jsonb(old));
  begin
    if tg_op = 'UPDATE' and (to_jsonb(new) - array['last_used_at', 'last_login_at', 'updated_at']) = (to_jsonb(old) - array['last_used_at', 'last_login_at', 'updated_at']) then
      return null;
    end if;
    if tg_table_name = 'auth_tokens' then
      perform pg_notify('caretaker_auth', 'user:' || (r->>'user_id'));
    elsif tg_table_name = 'users' then
      perform pg_notify('caretaker_auth', 'user:' || (r->>'id'));
    elsif tg_table_name = 'agencies' then
      perform pg_notify('caretaker_auth', 'agency:' || (r->>'id'));
    end if;
    return null;
  end $$`;

/** Announces a change that may end anybody's session (roles, permissions, the blacklist). */
const AUTH_NOTIFY_ALL = `create or replace function caretaker_auth_notify_all() returns trigger language plpgsql as $$ begin perform pg_notify('caretaker_auth', 'all'); return null; end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table message_deliveries drop constraint if exists message_deliveries_event_id_recipient_key_channel_key;
    alter table message_deliveries add constraint message_deliveries_slot unique (event_id, template_key, recipient_key, channel);

    alter table notification_preferences add column mode text check (mode in ('immediate', 'digest', 'off'));
    create table notification_digest_items (
      id serial primary key,
      agency_id integer not null references agencies(id),
      user_id integer not null references users(id),
      event_id uuid not null,
      event_name text not null,
      template_key text not null,
      line text not null,
      url text,
      created_at timestamptz not null,
      sent_at timestamptz,
      delivery_uuid uuid,
      unique (event_id, template_key, user_id)
    );
    create index notification_digest_items_pending on notification_digest_items (user_id, id) where sent_at is null;
  `);
  // One statement each: the function bodies hold semicolons at line ends (runScript splits there).
  await sql.raw(AUTH_NOTIFY).execute(db);
  await sql.raw(AUTH_NOTIFY_ALL).execute(db);
  await runScript(db, `
    drop trigger if exists auth_tokens_auth_notify on auth_tokens;
    create trigger auth_tokens_auth_notify after update or delete on auth_tokens for each row execute function caretaker_auth_notify();
    drop trigger if exists users_auth_notify on users;
    create trigger users_auth_notify after update or delete on users for each row execute function caretaker_auth_notify();
    drop trigger if exists agencies_auth_notify on agencies;
    create trigger agencies_auth_notify after update on agencies for each row
      when (old.suspended_at is distinct from new.suspended_at) execute function caretaker_auth_notify();
    drop trigger if exists roles_auth_notify on roles;
    create trigger roles_auth_notify after update or delete on roles for each statement execute function caretaker_auth_notify_all();
    drop trigger if exists role_permissions_auth_notify on role_permissions;
    create trigger role_permissions_auth_notify after insert or update or delete on role_permissions for each statement execute function caretaker_auth_notify_all();
    drop trigger if exists security_blacklist_auth_notify on security_blacklist;
    create trigger security_blacklist_auth_notify after insert or update or delete on security_blacklist for each statement execute function caretaker_auth_notify_all();
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop trigger if exists security_blacklist_auth_notify on security_blacklist;
    drop trigger if exists role_permissions_auth_notify on role_permissions;
    drop trigger if exists roles_auth_notify on roles;
    drop trigger if exists agencies_auth_notify on agencies;
    drop trigger if exists users_auth_notify on users;
    drop trigger if exists auth_tokens_auth_notify on auth_tokens;
    drop function if exists caretaker_auth_notify_all();
    drop function if exists caretaker_auth_notify();
    drop table if exists notification_digest_items;
    alter table notification_preferences drop column if exists mode;
    alter table message_deliveries drop constraint if exists message_deliveries_slot;
    alter table message_deliveries add constraint message_deliveries_event_id_recipient_key_channel_key unique (event_id, recipient_key, channel);
  `);
}
