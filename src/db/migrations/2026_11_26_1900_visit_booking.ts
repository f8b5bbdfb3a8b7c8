// Visits booked by the people involved (docs/tenant-reporting.md "Booking the visit"): the
// tenant's availability windows of a job, the timed visits booked inside them (or picked by the
// tenant from the contractor's free slots) with the day-before reminder and, when a visit is
// missed, who missed it; and the signed single-use links a tenant without an account answers.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table job_visit_windows (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      given_by text not null check (given_by in ('tenant', 'link', 'staff')),
      by_user_id integer,
      created_at timestamptz not null,
      check (ends_at > starts_at)
    );
    create index job_visit_windows_job on job_visit_windows (job_id, starts_at);
    create table job_visits (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      contractor_id integer not null references contractors(id),
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      booked_by text not null check (booked_by in ('contractor', 'tenant')),
      state text not null check (state in ('booked', 'moved', 'missed')),
      missed_by text check (missed_by in ('tenant', 'contractor')),
      missed_note text,
      missed_at timestamptz,
      reminder_sent_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (ends_at > starts_at),
      check ((state = 'missed') = (missed_by is not null))
    );
    create unique index job_visits_one_booked on job_visits (job_id) where state = 'booked';
    create index job_visits_contractor on job_visits (contractor_id, starts_at) where state = 'booked';
    create index job_visits_missed on job_visits (contractor_id) where state = 'missed';
    create index job_visits_reminders on job_visits (starts_at) where state = 'booked' and reminder_sent_at is null;
    create table visit_links (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      tenant_id integer not null references tenants(id),
      nonce text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      used_action text,
      created_at timestamptz not null
    );
    create index visit_links_job on visit_links (job_id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['visit_links', 'job_visits', 'job_visit_windows']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
