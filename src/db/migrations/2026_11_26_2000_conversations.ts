// Job conversations, reply by e-mail and SMS (docs/conversations.md): threads per job and
// audience, their messages (web, e-mail, SMS) with attachments kept as job files, read state per
// person, and the view `conversation_entries` that shows the job's case notes in the threads
// their visibility maps onto (nothing is copied: job_notes stays the notes' only home). The SMS
// log (one row per message sent or received, with the provider's id, status and price) and the
// opt-out list of phone numbers (STOP / START).
// Expand: new tables and a view; older instances never read them. Frozen: never import
// application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table conversation_threads (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      audience text not null check (audience in ('tenant', 'contractor', 'landlord', 'internal')),
      created_at timestamptz not null,
      last_message_at timestamptz,
      unique (job_id, audience)
    );

    create table conversation_messages (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      thread_id integer not null references conversation_threads(id),
      job_id integer not null references jobs(id),
      author_user_id integer references users(id),
      author_kind text not null check (author_kind in ('staff', 'tenant', 'contractor', 'landlord', 'system')),
      author_key text,
      author_name text not null,
      channel text not null check (channel in ('web', 'email', 'sms')),
      body text not null,
      urgent boolean not null default false,
      external_id text,
      created_at timestamptz not null
    );
    create index conversation_messages_thread on conversation_messages (thread_id, created_at, id);
    create index conversation_messages_job on conversation_messages (job_id);
    create unique index conversation_messages_external on conversation_messages (thread_id, external_id) where external_id is not null;

    create table conversation_message_files (
      message_id integer not null references conversation_messages(id),
      file_id integer not null references job_files(id),
      primary key (message_id, file_id)
    );

    create table conversation_reads (
      job_id integer not null references jobs(id),
      audience text not null,
      user_id integer not null references users(id),
      read_at timestamptz not null,
      primary key (job_id, audience, user_id)
    );

    create view conversation_entries as
      select 'message'::text as kind, m.id, m.uuid, m.job_id, t.audience, m.author_user_id, m.author_kind, m.author_name,
             m.channel, m.body, m.urgent, m.created_at
        from conversation_messages m join conversation_threads t on t.id = m.thread_id
      union all
      select 'note'::text, n.id, n.uuid, n.job_id, a.audience, n.author_user_id, null::text, null::text,
             'note'::text, n.body, false, n.created_at
        from job_notes n
        join (values ('internal', 'internal'), ('tenant', 'tenant'), ('contractor', 'contractor'), ('both', 'tenant'), ('both', 'contractor'))
          as a (visibility, audience) on a.visibility = n.visibility;

    create table sms_messages (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer references agencies(id),
      direction text not null check (direction in ('outbound', 'inbound')),
      delivery_id integer references message_deliveries(id),
      thread_id integer references conversation_threads(id),
      to_number text not null,
      from_number text,
      body text,
      provider text not null,
      provider_sid text,
      status text not null,
      error_code text,
      segments integer,
      price_micros bigint,
      price_currency text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create unique index sms_messages_provider_sid on sms_messages (provider, provider_sid) where provider_sid is not null;
    create index sms_messages_to on sms_messages (to_number, created_at);
    create index sms_messages_agency on sms_messages (agency_id, created_at);

    create table sms_opt_outs (
      phone text primary key,
      opted_out_at timestamptz not null,
      keyword text not null
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop table if exists sms_opt_outs;
    drop table if exists sms_messages;
    drop view if exists conversation_entries;
    drop table if exists conversation_reads;
    drop table if exists conversation_message_files;
    drop table if exists conversation_messages;
    drop table if exists conversation_threads;
  `);
}
