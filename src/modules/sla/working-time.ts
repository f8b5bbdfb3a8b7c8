/**
 * Counting SLA time (docs/sla.md "Working days"): a rule counts calendar days (every second) or
 * working days (seconds on Monday to Friday UTC dates that are not bank holidays of the agency's
 * UK region); time On hold never counts. Bank holidays come from the `date-holidays` library
 * (GB with its ENG, SCT and NIR regions), never from a hand-typed list.
 */
import Holidays from 'date-holidays';
import { DAY_MS } from '../../lib/clock.ts';

/** UK regions an agency may choose (column agencies.uk_region). */
export const UK_REGIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export type UkRegion = (typeof UK_REGIONS)[number];

/** Calendars a rule may use (column branch_sla_rules.calendar). */
export const SLA_CALENDARS = ['calendar_days', 'working_days'] as const;
export type SlaCalendar = (typeof SLA_CALENDARS)[number];

const LIBRARY_STATE: Record<UkRegion, string> = { 'england-and-wales': 'ENG', scotland: 'SCT', 'northern-ireland': 'NIR' };

const holidayCache = new Map<string, ReadonlySet<string>>();

/**
 * The bank holidays of a UK region in one year, as UTC date strings (YYYY-MM-DD).
 * @param region one of UK_REGIONS
 * @param year e.g. 2026
 */
export function bankHolidays(region: UkRegion, year: number): ReadonlySet<string> {
  const key = `${region}:${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    const hd = new Holidays('GB', LIBRARY_STATE[region]);
    days = new Set(
      hd.getHolidays(year)
        .filter((h) => h.type === 'public' || h.type === 'bank')
        .map((h) => h.date.slice(0, 10)),
    );
    holidayCache.set(key, days);
  }
  return days;
}

/** True when the UTC date of `ms` is a Monday to Friday that is not a bank holiday of the region. */
export function isWorkingDay(ms: number, region: UkRegion): boolean {
  const d = new Date(ms);
  const dow = d.getUTCDay();
  if (dow === 0 || dow === 6) return false;
  return !bankHolidays(region, d.getUTCFullYear()).has(d.toISOString().slice(0, 10));
}

/** A half-open interval [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

/** How time counts for one clock. */
export interface Counting {
  calendar: SlaCalendar;
  region: UkRegion;
  /** Paused intervals (On hold), sorted, not overlapping; an ongoing pause ends at "now". */
  pauses: readonly Interval[];
}

/** Whether time at `t` counts, and until when that stays so (next day boundary or pause edge). */
function segmentAt(t: number, c: Counting): { counts: boolean; until: number } {
  let until = Infinity;
  let paused = false;
  for (const p of c.pauses) {
    if (p.end <= t) continue;
    if (p.start <= t) {
      paused = true;
      until = Math.min(until, p.end);
    } else {
      until = Math.min(until, p.start);
    }
    break;
  }
  let workday = true;
  if (c.calendar === 'working_days') {
    workday = isWorkingDay(t, c.region);
    until = Math.min(until, (Math.floor(t / DAY_MS) + 1) * DAY_MS);
  }
  return { counts: workday && !paused, until };
}

/**
 * Counted milliseconds between two instants (0 when `to` is not after `from`).
 * @param from epoch ms; @param to epoch ms
 */
export function countedMs(from: number, to: number, c: Counting): number {
  let total = 0;
  let t = from;
  while (t < to) {
    const seg = segmentAt(t, c);
    const end = Math.min(seg.until, to);
    if (seg.counts) total += end - t;
    t = end;
  }
  return total;
}

/**
 * The instant at which `amountMs` of counted time has passed since `from`.
 * @returns epoch ms (equal to `from` when amountMs is 0)
 */
export function addCountedMs(from: number, amountMs: number, c: Counting): number {
  let remaining = amountMs;
  let t = from;
  while (remaining > 0) {
    const seg = segmentAt(t, c);
    if (seg.counts) {
      if (seg.until - t >= remaining) return t + remaining;
      remaining -= seg.until - t;
    }
    t = seg.until;
  }
  return t;
}
