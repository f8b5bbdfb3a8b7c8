// Insight figures over the SLA engine and money (docs/insight.md "Dashboard", "Search"): a partial
// index of the flagged SLA clocks (at risk or breached), from which the dashboard's SLA counts take
// their candidate jobs, and a trigram index over contractors' own invoice references for the global
// search. Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create index sla_clocks_flagged on sla_clocks (agency_id, state, job_id) where state in ('at_risk', 'breached');
    create index invoices_contractor_reference_trgm on invoices using gin (lower(contractor_reference) gin_trgm_ops)
      where contractor_reference is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop index if exists invoices_contractor_reference_trgm;
    drop index if exists sla_clocks_flagged;
  `);
}
