/**
 * Demo step for SLA breach detection (docs/sla.md): a working-days rule for one branch of each
 * agency, Southbank's at-risk share at 60 %, then every job of both agencies measured against its
 * branch's rules (those every branch already has and these), so the breaches list and compliance
 * report show real clocks in every state on a fresh demo.
 */
import { recomputeJobs } from '../../modules/jobs/sla/index.ts';
import type { DemoContext } from './context.ts';
import { insertRows, slaClockStates, updateById } from '../../db/seed.repository.ts';

/** Jobs measured per batch. */
const BATCH = 500;

/** Writes the SLA demo data. */
export async function slaStep(ctx: DemoContext): Promise<void> {
  const { trx, now, ids } = ctx;
  const rules = [
    { agency: ids.agencies.northwind, branch: ids.branches.leeds, user: ids.users['admin@northwind.test'] },
    { agency: ids.agencies.southbank, branch: ids.branches.london, user: ids.users['admin@southbank.test'] },
  ];
  for (const r of rules) {
    await insertRows(trx, 'branch_sla_rules', [{
      uuid: ctx.uuid(), agency_id: r.agency, branch_id: r.branch, job_status_from_id: 1, job_status_to_id: 3,
      job_type_id: null, job_priority: null, date_field_to_compare: 'created_at', date_field_to_track: 'approved_at',
      minimum_response_days: 2, calendar: 'working_days', description: 'Reported jobs approved within 2 working days',
      created_by_user_id: r.user ?? null, created_at: now, updated_at: now,
    }]);
  }
  await updateById(trx, 'agencies', ids.agencies.southbank, { sla_at_risk_percent: 60 });
  for (let i = 0; i < ids.jobs.length; i += BATCH) {
    // History is flagged without events: no handler should announce a year-old breach.
    await recomputeJobs(trx, ids.jobs.slice(i, i + BATCH), now, { announce: false });
  }
  const states = await slaClockStates(trx);
  ctx.log(`demo: SLA clocks (${states.map((s) => `${s.state} ${s.n}`).join(', ')})`);
}
