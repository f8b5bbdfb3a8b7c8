/**
 * Reading the activity (audit) log (spec 4.6, 2.3; docs/administration.md): the caller's scope, the
 * date range and the wire shape of an entry. The SQL is in the activity module.
 */
import type { AppDeps } from '../../app-deps.ts';
import { readAgency } from '../../http/agency-scope.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { utcDayRange } from '../../http/date-range.ts';
import { toIso } from '../../lib/clock.ts';
import { listActivity } from '../activity/index.ts';

/** Filters of GET /api/admin/activity-log (ISO dates; ids are integers). */
export interface ActivityLogQuery {
  user_id?: number | undefined;
  action?: string | undefined;
  from_date?: string | undefined;
  to_date?: string | undefined;
  before?: number | undefined;
  after?: number | undefined;
  limit: number;
  offset: number;
}

/** One entry on the wire (spec 2.3): `user_id` 0 when no account was identified. */
export interface ActivityLogEntryDto {
  ID: number;
  user_id: number;
  user_name: string;
  action: string;
  resource_type: string;
  resource_id: number | null;
  ip_address: string;
  created_at: string;
}

/**
 * One page of the log, newest first: an agency's entries for its administrators, all for SysOps.
 * @returns the entries, the total (capped at COUNT_CAP) and whether it was capped
 * @throws 400 naming to_date when to_date is before from_date
 */
export async function readActivityLog(
  deps: AppDeps,
  auth: AuthContext,
  q: ActivityLogQuery,
): Promise<{ entries: ActivityLogEntryDto[]; total: number; capped: boolean }> {
  const { from, to } = utcDayRange(q.from_date, q.to_date);
  const agencyId = readAgency(auth);
  const { rows, total, capped } = await listActivity(deps.db, {
    agencyId: agencyId ?? undefined,
    userId: q.user_id,
    action: q.action,
    from,
    to,
    before: q.before,
    after: q.after,
    limit: q.limit,
    offset: q.offset,
  });
  const entries = rows.map((r) => ({
    ID: r.id,
    user_id: r.user_id ?? 0,
    user_name: r.user_name,
    action: r.action,
    resource_type: r.resource_type,
    resource_id: r.resource_id,
    ip_address: r.ip_address,
    created_at: toIso(r.created_at),
  }));
  return { entries, total, capped };
}
