// SLA clocks in office hours and London time (docs/sla.md "How time counts"): two more ways a
// branch SLA rule counts (calendar hours, office hours) with their allowance in hours, and the
// agency's office hours per weekday (London wall-clock minutes after midnight; no rows = the
// default week, Monday to Friday 09:00 to 17:30).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table branch_sla_rules drop constraint branch_sla_rules_calendar_check;
    alter table branch_sla_rules add constraint branch_sla_rules_calendar_check
      check (calendar in ('calendar_hours', 'calendar_days', 'working_days', 'office_hours'));
    alter table branch_sla_rules add column response_hours integer
      check (response_hours between 1 and 87600);
    create table agency_office_hours (
      agency_id integer not null references agencies(id),
      weekday smallint not null check (weekday between 0 and 6),
      opens_minute smallint not null check (opens_minute between 0 and 1439),
      closes_minute smallint not null check (closes_minute between 1 and 1440),
      updated_at timestamptz not null,
      primary key (agency_id, weekday),
      check (opens_minute < closes_minute)
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agency_office_hours').ifExists().execute();
  await runScript(db, `
    alter table branch_sla_rules drop column response_hours;
    alter table branch_sla_rules drop constraint branch_sla_rules_calendar_check;
    alter table branch_sla_rules add constraint branch_sla_rules_calendar_check
      check (calendar in ('calendar_days', 'working_days'));
  `);
}
