/**
 * The calendar of scheduled jobs (docs/calendar.md): jobs with scheduled_for inside a range of
 * London dates, for what the caller may see (jobScope), with their time slot. A job's event runs
 * on the London date of scheduled_for from the slot's start to its end (Europe/London); without
 * slot times it is all day when scheduled_for is London midnight, else one hour from it.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { jobScope, type JobScope } from '../jobs/index.ts';
import { weatherBlocks } from '../weather/index.ts';
import * as repo from './calendar.repository.ts';
import type { CalendarEntryDto, CalendarQueryInput } from './calendar.schemas.ts';
import { addDays, daysBetween, londonDate, londonTime, londonToUtc } from '../../../lib/london-time.ts';

/** Longest range of one calendar read, in days (inclusive of both ends). */
export const MAX_RANGE_DAYS = 366;
/** Default length of a range without to_date, in days after from_date. */
export const DEFAULT_RANGE_DAYS = 30;

/** Start and end of a job's event from scheduled_for and its slot. */
export function eventTimes(scheduledFor: Date, startsAt: string | null, endsAt: string | null) {
  const date = londonDate(scheduledFor);
  if (startsAt && endsAt) {
    return { date, allDay: false, start: londonToUtc(date, startsAt), end: londonToUtc(date, endsAt) };
  }
  if (londonTime(scheduledFor) === '00:00') {
    return { date, allDay: true, start: londonToUtc(date), end: londonToUtc(addDays(date, 1)) };
  }
  return { date, allDay: false, start: scheduledFor, end: new Date(scheduledFor.getTime() + 3_600_000) };
}

/** The job address on one line, or null. */
export function locationOf(row: Pick<repo.ScheduledRow, 'line1' | 'line2' | 'town' | 'postcode'>): string | null {
  if (!row.line1) return null;
  return [row.line1, row.line2, row.town, row.postcode].filter((p) => p && p.trim() !== '').join(', ');
}

/** Wire shape of a scheduled job. */
export function toEntry(row: repo.ScheduledRow): CalendarEntryDto {
  const scheduled = new Date(row.scheduled_for!);
  const t = eventTimes(scheduled, row.starts_at ?? null, row.ends_at ?? null);
  return {
    job_uuid: row.uuid,
    reference: row.reference,
    title: row.title,
    summary: `${row.reference} ${row.title}`,
    status: row.status,
    status_id: row.status_id,
    priority: row.priority,
    scheduled_for: scheduled.toISOString(),
    date: t.date,
    all_day: t.allDay,
    start: t.start.toISOString(),
    end: t.end.toISOString(),
    time_range:
      row.slot_id === null || row.slot_id === undefined
        ? null
        : { ID: row.slot_id, range_label: row.range_label ?? '', starts_at: row.starts_at ?? null, ends_at: row.ends_at ?? null },
    location: locationOf(row),
    address_uuid: row.address_uuid ?? null,
    branch_name: row.branch_name,
    contractor_name: row.contractor_name ?? null,
  };
}

/**
 * The UTC bounds of a range of London dates.
 * @returns [from, to) as instants
 * @throws 400 naming to_date when it is before from_date or the range exceeds 366 days
 */
export function rangeBounds(fromDate: string, toDate: string): { from: Date; to: Date } {
  const days = daysBetween(fromDate, toDate) + 1;
  if (days < 1 || days > MAX_RANGE_DAYS) throw invalidParam('to_date');
  return { from: londonToUtc(fromDate), to: londonToUtc(addDays(toDate, 1)) };
}

/** Scheduled jobs of a scope between two instants, one page. */
export async function scheduledEntries(deps: AppDeps, scope: JobScope, from: Date, to: Date, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.scheduledJobs(deps.db, scope, from, to, page);
  return { rows, entries: rows.map(toEntry), total };
}

/**
 * GET /api/calendar: one page of the caller's scheduled jobs between from_date and to_date
 * (inclusive London dates; default today and 30 days on), earliest first.
 * @returns { rows: CalendarEntryDto[], total }
 * @throws 400 for an inverted range or one longer than 366 days
 */
export async function listCalendar(deps: AppDeps, auth: AuthContext, q: CalendarQueryInput) {
  const fromDate = q.from_date ?? londonDate(deps.clock.now());
  const toDate = q.to_date ?? addDays(fromDate, DEFAULT_RANGE_DAYS);
  const { from, to } = rangeBounds(fromDate, toDate);
  const { rows, entries, total } = await scheduledEntries(deps, jobScope(auth), from, to, q);
  const blocks = await weatherBlocks(deps, rows.map((r, i) => ({
    outdoor: r.trade_outdoor, postcode: r.postcode, latitude: r.latitude, longitude: r.longitude, date: entries[i]!.date,
  })));
  blocks.forEach((b, i) => {
    if (b) entries[i]!.weather = b;
  });
  return { rows: entries, total };
}
