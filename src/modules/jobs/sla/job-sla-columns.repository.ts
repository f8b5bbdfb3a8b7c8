/**
 * The SLA summary of a job for the jobs list and detail (docs/sla.md "On jobs"): `sla_state` and
 * `sla_due_at` of its most urgent clock (breached, then at_risk, running, paused, met; earliest
 * due_at first; not_applicable clocks ignored). Correlated subqueries over alias `j` (jobs),
 * served by the (job_id, rule_id) unique index of sla_clocks.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';

type JobsEb = ExpressionBuilder<Database & { j: Database['jobs'] }, 'j'>;

/** States a job's summary can take (the list filter `sla_state`). */
export const SLA_SUMMARY_STATES = ['breached', 'at_risk', 'running', 'paused', 'met'] as const;

const URGENCY = sql`case sc.state when 'breached' then 0 when 'at_risk' then 1 when 'running' then 2 when 'paused' then 3 else 4 end`;

function mostUrgent(eb: JobsEb) {
  return eb
    .selectFrom('sla_clocks as sc')
    .whereRef('sc.job_id', '=', 'j.id')
    .where('sc.state', '<>', 'not_applicable')
    .orderBy(URGENCY)
    .orderBy('sc.due_at')
    .limit(1);
}

/** The summary's state (null when the job has no clock): a subquery over alias `j`. */
export function jobSlaState(eb: JobsEb) {
  return mostUrgent(eb).select('sc.state');
}

/** Columns `sla_state` and `sla_due_at` for a select over alias `j`. */
export function jobSlaColumns(eb: JobsEb) {
  return [jobSlaState(eb).as('sla_state'), mostUrgent(eb).select('sc.due_at').as('sla_due_at')] as const;
}
