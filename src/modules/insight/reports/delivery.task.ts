/**
 * The periodic task e-mailing subscribed reports (docs/insight.md "Scheduled reports"). Daily at
 * 06:00 UTC it sends every subscription whose current period (ISO week, or month, of the London
 * date) has not been delivered: so a weekly report goes out on Monday, a monthly one on the 1st,
 * and a new subscription at the next run. The report runs as its subscriber (same visibility as a
 * download); a subscriber no longer active or without api.reports.view is skipped. Safe to run
 * again: the period is claimed in the transaction that sends, so a second run sends nothing.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { PeriodicTask } from '../../../events/handlers.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { londonDate } from '../../../lib/london-time.ts';
import { findReport, mayDownload } from './reports.catalogue.ts';
import { CONTENT_TYPES, renderToBuffer } from './reports.render.ts';
import * as repo from './subscriptions.repository.ts';

/** ISO week key of a YYYY-MM-DD date, e.g. 2026-W48. */
export function isoWeekKey(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 4 - (d.getUTCDay() || 7)); // the Thursday of its week decides the year
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The current period keys at `now`. */
export function periodKeys(now: Date): { weekly: string; monthly: string } {
  const date = londonDate(now);
  return { weekly: isoWeekKey(date), monthly: date.slice(0, 7) };
}

async function subscriber(deps: AppDeps, userId: number): Promise<AuthContext | undefined> {
  const row = await repo.findSubscriber(deps.db, userId);
  if (!row) return undefined;
  const permissions = new Set(row.permissions);
  if (!permissions.has('api.reports.view')) return undefined;
  return {
    userId: row.user_id, userUuid: row.user_uuid, name: row.name, email: row.email, agencyId: row.agency_id,
    branchId: row.branch_id, roleId: row.role_id, roleCode: row.role_code, roleName: row.role_name, level: row.level,
    contractorId: row.contractor_id, tenantId: row.tenant_id, landlordId: row.landlord_id, permissions, tokenId: 0, tokenKind: 'login',
  };
}

/** Sends every due subscription; returns how many e-mails went out. */
export async function deliverDueReports(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const keys = periodKeys(now);
  let sent = 0;
  for (const s of await repo.due(deps.db, keys)) {
    const def = findReport(s.report);
    const auth = await subscriber(deps, s.user_id);
    if (!def || !auth || !mayDownload(def, auth)) continue;
    const period = keys[s.frequency];
    const filters = (typeof s.filters === 'string' ? JSON.parse(s.filters) : s.filters) as Record<string, unknown>;
    // Rendered before the transaction: PGlite has one connection, which the transaction holds.
    const content = await renderToBuffer(s.format, def.columns, def.rows(deps, auth, filters ?? {}), def.title);
    const claimed = await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.claim(trx, s.id, period, now))) return false;
      await deps.mailer.send({
        to: auth.email,
        subject: `Caretaker report: ${def.title} (${period})`,
        text: `Hello ${auth.name},\n\nattached is your ${s.frequency} report "${def.title}" for ${period}, produced ${now.toISOString()}.\n\nManage your report e-mails at /api/reports/subscriptions.\n`,
        attachments: [{ filename: `${def.name}-${period}.${s.format}`, content, contentType: CONTENT_TYPES[s.format] }],
      });
      return true;
    });
    if (claimed) sent += 1;
  }
  return sent;
}

/** The daily delivery tick. */
export const reportDeliveryTask: PeriodicTask = {
  name: 'reports.deliver',
  cron: '0 6 * * *',
  run: async (deps) => {
    await deliverDueReports(deps);
  },
};
