// The tickets of heavy work (agency exports, report downloads, subject-access reports, database
// copies) that share each agency's CARETAKER_AGENCY_HEAVY_MAX slots with import commits, waiting
// in order or running (docs/operations.md "Fairness between agencies").
// Expand: a new table only; older instances never read it.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table if not exists heavy_work (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer references agencies(id) on delete cascade,
      kind text not null,
      status text not null check (status in ('waiting', 'running')),
      steps_done integer not null default 0,
      steps_total integer,
      created_at timestamptz not null,
      started_at timestamptz,
      heartbeat_at timestamptz not null
    );
    create index if not exists heavy_work_agency on heavy_work (agency_id, status, id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, 'drop table if exists heavy_work;');
}
