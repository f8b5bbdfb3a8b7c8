// Provider callbacks accepted once (docs/security.md "One rule for every way in"): a signed
// Mailgun call's (timestamp, token) is remembered until its freshness window has passed
// (provider_callback_uses, the database's copy when Redis is not configured), and every STOP or
// START text's Twilio MessageSid is remembered for good (sms_keyword_texts; other received texts
// are already unique in sms_messages), so a replayed request changes nothing. Expand: new tables.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table if not exists provider_callback_uses (
      provider text not null,
      key text not null,
      expires_at timestamptz not null,
      primary key (provider, key)
    );
    create index if not exists provider_callback_uses_expiry on provider_callback_uses (expires_at);

    create table if not exists sms_keyword_texts (
      id serial primary key,
      provider text not null,
      provider_sid text not null,
      keyword text not null,
      action text not null check (action in ('stop', 'start')),
      received_at timestamptz not null
    );
    create unique index if not exists sms_keyword_texts_sid on sms_keyword_texts (provider, provider_sid);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop table if exists sms_keyword_texts;
    drop table if exists provider_callback_uses;
  `);
}
