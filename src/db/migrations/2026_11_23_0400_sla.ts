// SLA breach detection (docs/sla.md): one clock per job and matching branch SLA rule, the rule's
// calendar (calendar or working days), and per agency the UK region whose bank holidays working
// days skip and the share of the allowed time after which a clock is at risk.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table agencies add column uk_region text not null default 'england-and-wales'
      check (uk_region in ('england-and-wales', 'scotland', 'northern-ireland'));
    alter table agencies add column sla_at_risk_percent integer not null default 75
      check (sla_at_risk_percent between 1 and 99);
    alter table branch_sla_rules add column calendar text not null default 'calendar_days'
      check (calendar in ('calendar_days', 'working_days'));
    create table sla_clocks (
      id serial primary key,
      agency_id integer not null references agencies(id),
      branch_id integer not null references branches(id),
      job_id integer not null references jobs(id),
      rule_id integer not null references branch_sla_rules(id),
      state text not null check (state in ('running', 'at_risk', 'breached', 'met', 'paused', 'not_applicable')),
      started_at timestamptz not null,
      due_at timestamptz not null,
      at_risk_at timestamptz not null,
      stopped_at timestamptz,
      paused_seconds integer not null default 0,
      at_risk_flagged_at timestamptz,
      breached_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (job_id, rule_id)
    );
    create index sla_clocks_running_due on sla_clocks (due_at) where state in ('running', 'at_risk');
    create index sla_clocks_running_at_risk on sla_clocks (at_risk_at) where state = 'running';
    create index sla_clocks_agency_due on sla_clocks (agency_id, due_at);
    create index sla_clocks_rule on sla_clocks (rule_id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sla_clocks').ifExists().execute();
  await db.schema.alterTable('branch_sla_rules').dropColumn('calendar').execute();
  await db.schema.alterTable('agencies').dropColumn('sla_at_risk_percent').execute();
  await db.schema.alterTable('agencies').dropColumn('uk_region').execute();
}
