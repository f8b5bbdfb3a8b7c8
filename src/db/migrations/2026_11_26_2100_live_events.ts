// Live updates (docs/live-updates.md): every committed outbox row is announced on the channel
// `caretaker_outbox` with its id as payload (NOTIFY is transactional: a rolled-back change is never
// announced, a committed one is announced at its COMMIT). Every instance LISTENs and streams the
// events to the browsers it serves, each one authorised per recipient. Expand: older instances
// do not listen, and a notification nobody listens to costs nothing. Frozen: never import
// application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create or replace function caretaker_outbox_notify() returns trigger language plpgsql as $$ begin perform pg_notify('caretaker_outbox', new.id::text); return null; end $$;
    drop trigger if exists outbox_live_notify on outbox;
    create trigger outbox_live_notify after insert on outbox for each row execute function caretaker_outbox_notify();
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop trigger if exists outbox_live_notify on outbox;
    drop function if exists caretaker_outbox_notify();
  `);
}
