/**
 * Demo step for insight (docs/insight.md): outdoor work on the calendar (gutters, landscaping,
 * external painting jobs with visits in the coming days, so the weather block and weather_risk
 * show), and scheduled report e-mails for the Northwind admin (weekly jobs register, XLSX) and
 * agent (monthly contractor performance). Dashboard, analytics and search read the jobs the
 * earlier steps created. Deterministic: choices from ctx.rng, dates from ctx.now.
 */
import type { DemoContext } from './context.ts';
import { DAY_MS } from '../../lib/clock.ts';
import { agencyIdByName, insertRows, scheduledJobsWithContractor, tradeIdsByCode, updateById, usersByEmail } from '../../db/seed.repository.ts';

const OUTDOOR_JOBS: Array<{ trade: string; title: string; description: string }> = [
  { trade: 'gutters', title: 'Gutter overflowing at the back', description: 'Rainwater pours over the rear gutter onto the patio door; probably leaves blocking the downpipe.' },
  { trade: 'landscaping', title: 'Overgrown hedge blocking the path', description: 'Front hedge has grown across the path to the front door; the tenant cannot get the bins out.' },
  { trade: 'external_painting', title: 'Peeling paint on front windows', description: 'Window frames at the front need scraping back and repainting before winter.' },
  { trade: 'roofing', title: 'Slipped slates above the bay', description: 'Two slates have slipped above the bay window after the storm; water staining on the bedroom ceiling.' },
];

/** Adds outdoor jobs with upcoming visits and report subscriptions. */
export async function insightStep(ctx: DemoContext): Promise<void> {
  const { trx, rng, now } = ctx;
  const agencyId = await agencyIdByName(trx, 'Northwind Lettings');
  if (agencyId === undefined) return;
  const trades = await tradeIdsByCode(trx, { globalOnly: true });
  // Scheduled, not yet attended jobs of Northwind become the outdoor visits of the next days.
  const candidates = await scheduledJobsWithContractor(trx, agencyId, OUTDOOR_JOBS.length);
  for (const [i, c] of candidates.entries()) {
    const o = OUTDOOR_JOBS[i]!;
    const tradeId = trades.get(o.trade);
    if (tradeId === undefined) continue;
    const day = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + (i + 1) * DAY_MS + rng.int(8, 10) * 3_600_000);
    await updateById(trx, 'jobs', c.id, { trade_id: tradeId, title: o.title, description: o.description, scheduled_for: day, attended_at: null });
    // The assigned contractor does that work too (contractors are matched to jobs by trade).
    await insertRows(trx, 'contractor_trades', [{ contractor_id: c.contractor_id!, trade_id: tradeId }], { ignoreConflicts: true });
  }
  const users = await usersByEmail(trx, ['admin@northwind.test', 'agent@northwind.test']);
  for (const u of users) {
    const admin = u.email.startsWith('admin');
    await insertRows(trx, 'report_subscriptions', [{
      uuid: ctx.uuid(), agency_id: u.agency_id!, user_id: u.id,
      report: admin ? 'jobs-register' : 'contractor-performance', format: admin ? 'xlsx' : 'csv', frequency: admin ? 'weekly' : 'monthly',
      filters: JSON.stringify(admin ? { sort: 'created_at', order: 'desc' } : {}), last_period: null, last_sent_at: null, created_at: now, updated_at: now,
    }]);
  }
  ctx.log(`insight: ${candidates.length} outdoor visits in the coming days, ${users.length} report subscriptions`);
}
