/**
 * Demo step for hazards and statutory clocks (docs/compliance.md "Hazards and statutory clocks"):
 * one damp and mould hazard on Northwind's latest open job with a tenant (a damp job when there is
 * one), reported when the job was, investigated two days later, its written summary not yet sent,
 * so its clocks show a met investigation and a running summary and works clocks.
 */
import { recomputeHazardClocks, setPrivateRentedPolicy } from '../../modules/jobs/hazards/index.ts';
import { DAY_MS } from '../../lib/clock.ts';
import type { DemoContext } from './context.ts';
import { insertId, latestOpenTenantJob } from '../../db/seed.repository.ts';

/** Writes the demo hazard. */
export async function hazardsStep(ctx: DemoContext): Promise<void> {
  const { trx, now } = ctx;
  const job = await latestOpenTenantJob(trx, ctx.ids.agencies.northwind, new Date(now.getTime() - 4 * DAY_MS), '%damp%');
  if (!job) return;
  // Northwind lets privately and applies Awaab's Law timescales as its policy (docs/compliance.md "Scope").
  await setPrivateRentedPolicy(trx, job.agency_id, true, now);
  const reported = new Date(job.created_at);
  const investigated = new Date(reported.getTime() + 2 * DAY_MS);
  const hazardId = await insertId(trx, 'job_hazards', {
    uuid: ctx.uuid(), agency_id: job.agency_id, job_id: job.id, category: 'damp_and_mould', severity: 'significant',
    description: 'Black mould spreading on the bedroom ceiling and around the window; the tenant\'s child has asthma.',
    reported_at: reported, investigated_at: investigated, investigated_recorded_at: investigated, works_working_days: 60, created_by_user_id: null, created_at: reported, updated_at: investigated,
  });
  await recomputeHazardClocks(trx, hazardId, job.id, now, { announce: false });
  ctx.log(`demo: a damp and mould hazard on ${job.reference}`);
}
