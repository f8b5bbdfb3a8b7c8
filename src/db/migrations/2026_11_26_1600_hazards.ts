// Hazards and statutory clocks (docs/compliance.md "Hazards and statutory clocks"): a job may carry
// one hazard (an HHSRS category, severity emergency or significant) with the dates of its statutory
// milestones and the written summary sent to the tenant; each statutory clock of the hazard
// (make_safe, investigate, summary, works_start, works_complete) is a row of hazard_clocks, moved
// to at_risk and breached once each like the SLA clocks. agencies.hazard_works_working_days is the
// agency's "reasonable period" for completing the works (default 60 working days, about 12 weeks).
// compliance_reminders records each reminder sent before a certificate expires (once per item,
// expiry date and threshold). addresses.is_hmo marks a house in multiple occupation (its HMO
// compliance items are added when it is set).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table agencies add column hazard_works_working_days integer not null default 60
      check (hazard_works_working_days between 1 and 260);
    create table job_hazards (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null unique references jobs(id),
      category text not null,
      severity text not null check (severity in ('emergency', 'significant')),
      description text not null default '',
      reported_at timestamptz not null,
      made_safe_at timestamptz,
      investigated_at timestamptz,
      summary_sent_at timestamptz,
      works_started_at timestamptz,
      works_completed_at timestamptz,
      works_working_days integer not null check (works_working_days between 1 and 260),
      summary_findings text,
      summary_actions text,
      summary_text text,
      created_by_user_id integer,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index job_hazards_agency on job_hazards (agency_id);
    create table hazard_clocks (
      id serial primary key,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      hazard_id integer not null references job_hazards(id),
      kind text not null check (kind in ('make_safe', 'investigate', 'summary', 'works_start', 'works_complete')),
      state text not null check (state in ('running', 'at_risk', 'met', 'breached')),
      started_at timestamptz not null,
      due_at timestamptz not null,
      at_risk_at timestamptz not null,
      stopped_at timestamptz,
      at_risk_flagged_at timestamptz,
      breached_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (hazard_id, kind)
    );
    create index hazard_clocks_due on hazard_clocks (state, due_at);
    create index hazard_clocks_job on hazard_clocks (job_id);
    alter table addresses add column is_hmo boolean not null default false;
    create table compliance_reminders (
      id serial primary key,
      agency_id integer not null references agencies(id),
      item_id integer not null references compliance_items(id),
      expires_on date not null,
      threshold_days integer not null,
      created_at timestamptz not null,
      unique (item_id, expires_on, threshold_days)
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('compliance_reminders').ifExists().execute();
  await db.schema.dropTable('hazard_clocks').ifExists().execute();
  await db.schema.dropTable('job_hazards').ifExists().execute();
  await db.schema.alterTable('agencies').dropColumn('hazard_works_working_days').execute();
  await db.schema.alterTable('addresses').dropColumn('is_hmo').execute();
}
