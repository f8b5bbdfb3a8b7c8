/**
 * Demo step of visit booking (docs/tenant-reporting.md "Booking the visit"; docs/demo-data.md):
 * three Northwind jobs, the demo contractor's (Fletcher Gas & Heating) first, get visits so the
 * console's Visit panel and the contractor scorecard show them on a fresh demo:
 *
 * - an Assigned job whose tenant gave three availability windows on the next working days
 *   (waiting for the contractor to book a slot inside one);
 * - a Scheduled job (its date already ahead) with a timed visit booked by the contractor tomorrow,
 *   09:00-12:00 London, its reminder not sent yet;
 * - an Assigned job whose visit on the last working day before yesterday was missed by the
 *   contractor (a no-show, with a note), so the scorecard counts it.
 *
 * Working days are the SLA calendar's (isWorkingDate: Monday to Friday, not a bank holiday of
 * England and Wales). No job changes status and no job is added (the 1,000 demo jobs stay 1,000).
 * Deterministic: dates from ctx.now, uuids from ctx.uuid().
 */
import { addDays, londonDate, londonToUtc } from '../../lib/london-time.ts';
import { isWorkingDate } from '../../modules/jobs/sla/index.ts';
import { insertRows, tenantUserIds, updateById, visitCandidateJobs } from '../../db/seed.repository.ts';
import type { DemoContext } from './context.ts';

/** The next `n` working days (London dates) after `from`. */
function workingDaysAfter(from: string, n: number): string[] {
  const out: string[] = [];
  for (let d = addDays(from, 1); out.length < n; d = addDays(d, 1)) if (isWorkingDate(d, 'england-and-wales')) out.push(d);
  return out;
}

/** Writes the demo visits: windows waiting, a visit booked tomorrow, a missed visit. */
export async function visitsStep(ctx: DemoContext): Promise<void> {
  const { trx, ids, now } = ctx;
  const agencyId = ids.agencies.northwind;
  const today = londonDate(now);
  const jobs = await visitCandidateJobs(trx, agencyId, ids.demoContractorId);
  const userOf = await tenantUserIds(trx, agencyId);
  const used = new Set<number>();
  const take = (ok: (j: (typeof jobs)[number]) => boolean) => {
    const j = jobs.find((x) => !used.has(x.id) && ok(x));
    if (j) used.add(j.id);
    return j;
  };
  let missedOn = addDays(today, -2);
  while (!isWorkingDate(missedOn, 'england-and-wales')) missedOn = addDays(missedOn, -1);
  const missedStart = londonToUtc(missedOn, '10:00');

  // The missed visit first (it needs a job assigned before it), then the booked one, then the windows.
  const missed = take((j) => j.status_id === 4 && j.assigned_at !== null && new Date(j.assigned_at) < missedStart);
  if (missed) {
    await insertRows(trx, 'job_visits', [{
      uuid: ctx.uuid(), agency_id: agencyId, job_id: missed.id, contractor_id: missed.contractor_id!, starts_at: missedStart, ends_at: londonToUtc(missedOn, '12:00'),
      booked_by: 'contractor', state: 'missed', missed_by: 'contractor', missed_note: 'Van broke down on the ring road; rang the tenant at 11:15.',
      missed_at: londonToUtc(missedOn, '12:30'), reminder_sent_at: londonToUtc(addDays(missedOn, -1), '08:35'),
      created_at: new Date(missedStart.getTime() - 2 * 86_400_000), updated_at: londonToUtc(missedOn, '12:30'),
    }]);
  }
  const tomorrow = addDays(today, 1);
  const booked = take((j) => j.status_id === 5 && j.scheduled_for !== null && new Date(j.scheduled_for) > now);
  if (booked) {
    await updateById(trx, 'jobs', booked.id, { scheduled_for: new Date(`${tomorrow}T00:00:00Z`) });
    await insertRows(trx, 'job_visits', [{
      uuid: ctx.uuid(), agency_id: agencyId, job_id: booked.id, contractor_id: booked.contractor_id!, starts_at: londonToUtc(tomorrow, '09:00'), ends_at: londonToUtc(tomorrow, '12:00'),
      booked_by: 'contractor', state: 'booked', missed_by: null, missed_note: null, missed_at: null, reminder_sent_at: null,
      created_at: new Date(now.getTime() - 86_400_000 + 11 * 3_600_000), updated_at: new Date(now.getTime() - 86_400_000 + 11 * 3_600_000),
    }]);
  }
  const waiting = take((j) => j.status_id === 4);
  if (waiting) {
    const user = userOf.get(waiting.tenant_id!) ?? null;
    const given = new Date(now.getTime() - 86_400_000 + 19 * 3_600_000);
    const [a, b, c] = workingDaysAfter(today, 3) as [string, string, string];
    await insertRows(trx, 'job_visit_windows', [[a, '08:00', '12:00'], [b, '13:00', '17:00'], [c, '08:00', '17:00']].map(([d, s, e]) => ({
      uuid: ctx.uuid(), agency_id: agencyId, job_id: waiting.id, starts_at: londonToUtc(d!, s), ends_at: londonToUtc(d!, e),
      given_by: user === null ? 'link' as const : 'tenant' as const, by_user_id: user, created_at: given,
    })));
  }
  ctx.log(`visits: ${waiting ? 1 : 0} job with windows waiting, ${booked ? 1 : 0} visit booked tomorrow, ${missed ? 1 : 0} missed visit`);
}
