// Jobs lifecycle (docs/jobs.md): status history, the status a job was put on hold
// from, the contractor's acceptance, idempotency keys for job creation, and list indexes.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table job_status_history (
      id serial primary key,
      job_id integer not null references jobs(id),
      from_status_id integer references job_statuses(id),
      to_status_id integer not null references job_statuses(id),
      by_user_id integer references users(id),
      note text,
      created_at timestamptz not null
    );
    create index job_status_history_job on job_status_history (job_id, created_at, id);

    alter table jobs add column on_hold_from_status_id integer references job_statuses(id);
    alter table jobs add column contractor_accepted_at timestamptz;

    create index jobs_agent on jobs (agent_user_id) where agent_user_id is not null;
    create index jobs_agency_updated on jobs (agency_id, updated_at desc, id desc);

    create table idempotency_keys (
      user_id integer not null references users(id),
      key text not null,
      request_hash char(64) not null,
      response_status integer,
      response_body jsonb,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (user_id, key)
    );
    create index idempotency_keys_expiry on idempotency_keys (expires_at);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
  await db.schema.dropTable('job_status_history').ifExists().execute();
  await db.schema.alterTable('jobs').dropColumn('contractor_accepted_at').execute();
  await db.schema.alterTable('jobs').dropColumn('on_hold_from_status_id').execute();
}
