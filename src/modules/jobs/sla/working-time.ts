/**
 * Counting SLA time (docs/sla.md "How time counts"). A rule counts in one of four modes:
 *
 * - `calendar_hours`: every elapsed second counts (an hour is 3,600 s of real time).
 * - `calendar_days`: every day counts; a day runs from a London wall-clock time to the same time
 *   on the next London date (23 hours across the March clock change, 25 across October's).
 * - `working_days`: only London dates from Monday to Friday that are not bank holidays of the
 *   agency's UK region count, each from midnight to midnight London time.
 * - `office_hours`: only the agency's office hours (London wall-clock, per weekday) on London
 *   dates that are not bank holidays count.
 *
 * Time On hold (pauses) never counts, in any mode. The three day-like modes are computed on the
 * "London axis": an instant's London wall-clock time written as if it were UTC, made monotonic
 * (the hour repeated when the clocks go back stands still), so a London date is a whole 24-hour
 * slice of that axis and bank holidays, weekdays and office hours are read straight off it. Bank
 * holidays come from the `date-holidays` library (GB with its ENG, SCT and NIR regions), never
 * from a hand-typed list. Pure functions; no SQL, no clock of their own.
 */
import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { DAY_MS } from '../../../lib/clock.ts';
import { londonOffsetMinutes } from '../../../lib/london-time.ts';

const HOUR_MS = 3_600_000;

/** UK regions an agency may choose (column agencies.uk_region). */
export const UK_REGIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export type UkRegion = (typeof UK_REGIONS)[number];

/** How a rule counts time (column branch_sla_rules.calendar). */
export const SLA_CALENDARS = ['calendar_hours', 'calendar_days', 'working_days', 'office_hours'] as const;
export type SlaCalendar = (typeof SLA_CALENDARS)[number];

/** Modes whose allowance is a number of hours (branch_sla_rules.response_hours); the others count days. */
export const HOUR_CALENDARS: readonly SlaCalendar[] = ['calendar_hours', 'office_hours'];

/** The weekdays, Monday first (index 0 = Monday ... 6 = Sunday). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * An agency's office hours: for each weekday (Monday first) the opening and closing London
 * wall-clock times in minutes after midnight (opens < closes), or null when closed all day.
 */
export type OfficeHours = ReadonlyArray<readonly [number, number] | null>;

/** Office hours of an agency that has not set its own: Monday to Friday, 09:00 to 17:30. */
export const DEFAULT_OFFICE_HOURS: OfficeHours = [
  [540, 1050], [540, 1050], [540, 1050], [540, 1050], [540, 1050], null, null,
];

const LIBRARY_STATE: Record<UkRegion, string> = { 'england-and-wales': 'ENG', scotland: 'SCT', 'northern-ireland': 'NIR' };

const holidayCache = new Map<string, ReadonlySet<string>>();

let HolidaysClass: typeof Holidays | undefined;

/**
 * date-holidays (every country's rules, about 100 modules with its calendars), loaded when a bank
 * holiday is first asked for rather than at start (docs/operations.md "Starting"); its CommonJS
 * build, so the synchronous callers stay synchronous.
 */
function holidaysLibrary(): typeof Holidays {
  HolidaysClass ??= createRequire(import.meta.url)('date-holidays') as typeof Holidays;
  return HolidaysClass;
}

/**
 * The bank holidays of a UK region in one year, as London dates (YYYY-MM-DD).
 * @param region one of UK_REGIONS
 * @param year e.g. 2026
 */
export function bankHolidays(region: UkRegion, year: number): ReadonlySet<string> {
  const key = `${region}:${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    const hd = new (holidaysLibrary())('GB', LIBRARY_STATE[region]);
    days = new Set(
      hd.getHolidays(year)
        .filter((h) => h.type === 'public' || h.type === 'bank')
        .map((h) => h.date.slice(0, 10)),
    );
    holidayCache.set(key, days);
  }
  return days;
}

/**
 * True when a London date is a Monday to Friday that is not a bank holiday of the region.
 * @param date YYYY-MM-DD (a London date)
 */
export function isWorkingDate(date: string, region: UkRegion): boolean {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  return dow !== 0 && dow !== 6 && !isBankHoliday(date, region);
}

/** True when a London date (YYYY-MM-DD) is a bank holiday of the region. */
export function isBankHoliday(date: string, region: UkRegion): boolean {
  return bankHolidays(region, Number(date.slice(0, 4))).has(date);
}

/**
 * An instant on the London axis (epoch ms of its London wall-clock time read as UTC). In the hour
 * repeated when the clocks go back (01:00 to 02:00 UTC on the last Sunday of October) the axis
 * stands still at 02:00, so the axis never runs backwards.
 */
export function toLondonAxis(t: number): number {
  const off = londonOffsetMinutes(new Date(t)) * 60_000;
  const offHourAgo = londonOffsetMinutes(new Date(t - HOUR_MS)) * 60_000;
  // UK clocks change at 01:00 UTC, a whole hour: the repeated hour starts at floor-hour(t).
  if (off < offHourAgo) return Math.floor(t / HOUR_MS) * HOUR_MS + offHourAgo;
  return t + off;
}

/** The earliest instant whose London-axis value is at least `v` (inverse of toLondonAxis). */
export function fromLondonAxis(v: number): number {
  let lo = v - HOUR_MS;
  if (toLondonAxis(lo) >= v) return lo;
  if (toLondonAxis(v - 1) < v && toLondonAxis(v) >= v) return v;
  // Inside the hour skipped when the clocks go forward: search [v - 1h, v] (toLondonAxis is monotonic).
  let hi = v;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (toLondonAxis(mid) >= v) hi = mid;
    else lo = mid;
  }
  return hi;
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
  /** For office_hours; DEFAULT_OFFICE_HOURS when absent. */
  officeHours?: OfficeHours;
}

/** The London date (YYYY-MM-DD) of a London-axis day index. */
const axisDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Whether time at axis position `t` counts, and until when that stays so (the next pause edge,
 * London midnight or office opening/closing). `pauses` are on the same axis.
 */
function segmentAt(t: number, c: Counting, pauses: readonly Interval[]): { counts: boolean; until: number } {
  let until = Infinity;
  let paused = false;
  for (const p of pauses) {
    if (p.end <= t) continue;
    if (p.start <= t) {
      paused = true;
      until = Math.min(until, p.end);
    } else {
      until = Math.min(until, p.start);
    }
    break;
  }
  if (c.calendar === 'calendar_hours' || c.calendar === 'calendar_days') return { counts: !paused, until };
  const day = Math.floor(t / DAY_MS);
  const midnight = day * DAY_MS;
  const nextMidnight = midnight + DAY_MS;
  if (c.calendar === 'working_days') return { counts: isWorkingDate(axisDate(day), c.region) && !paused, until: Math.min(until, nextMidnight) };
  // office_hours: the agency's hours of the London date's weekday (Monday = 0), none on a bank holiday.
  const date = axisDate(day);
  const weekday = (new Date(midnight).getUTCDay() + 6) % 7;
  const hours = isBankHoliday(date, c.region) ? null : (c.officeHours ?? DEFAULT_OFFICE_HOURS)[weekday];
  if (!hours) return { counts: false, until: Math.min(until, nextMidnight) };
  const open = midnight + hours[0] * 60_000;
  const close = midnight + hours[1] * 60_000;
  if (t < open) return { counts: false, until: Math.min(until, open) };
  if (t < close) return { counts: !paused, until: Math.min(until, close) };
  return { counts: false, until: Math.min(until, nextMidnight) };
}

/** True when the mode is computed on the London axis (every mode but calendar_hours). */
const onLondonAxis = (c: Counting) => c.calendar !== 'calendar_hours';

/** The pauses on the clock's axis. */
function axisPauses(c: Counting): Interval[] {
  if (!onLondonAxis(c)) return [...c.pauses];
  return c.pauses.map((p) => ({ start: toLondonAxis(p.start), end: toLondonAxis(p.end) })).filter((p) => p.end > p.start);
}

/** No mode leaves more than this much of its axis uncounted in a row (guards an agency without office hours). */
const SEARCH_LIMIT_MS = 20 * 366 * DAY_MS;

/**
 * Counted milliseconds between two instants (0 when `to` is not after `from`).
 * @param from epoch ms; @param to epoch ms
 * @returns ms of counted time (London-axis ms for the day-like modes: a calendar day across a
 *   clock change is 86,400,000 although 23 or 25 real hours pass)
 */
export function countedMs(from: number, to: number, c: Counting): number {
  const axis = onLondonAxis(c);
  const pauses = axisPauses(c);
  const end = axis ? toLondonAxis(to) : to;
  let total = 0;
  let t = axis ? toLondonAxis(from) : from;
  while (t < end) {
    const seg = segmentAt(t, c, pauses);
    const stop = Math.min(seg.until, end);
    if (seg.counts) total += stop - t;
    t = stop;
  }
  return total;
}

/**
 * The instant at which `amountMs` of counted time has passed since `from`.
 * @param from epoch ms (UTC instant)
 * @param amountMs counted ms (a calendar, working or office hour is 3,600,000; a day 86,400,000)
 * @returns epoch ms (equal to `from` when amountMs is 0; the earliest instant with that much time
 *   counted, so a deadline ending at office closing is the closing instant)
 */
export function addCountedMs(from: number, amountMs: number, c: Counting): number {
  const axis = onLondonAxis(c);
  const pauses = axisPauses(c);
  const start = axis ? toLondonAxis(from) : from;
  let remaining = amountMs;
  let t = start;
  while (remaining > 0) {
    const seg = segmentAt(t, c, pauses);
    if (seg.counts) {
      if (seg.until - t >= remaining) {
        t += remaining;
        remaining = 0;
        break;
      }
      remaining -= seg.until - t;
    }
    // Nothing counts for 20 years (an agency without office hours): a deadline that far out.
    if (seg.until === Infinity || seg.until - start > SEARCH_LIMIT_MS) return from + SEARCH_LIMIT_MS;
    t = seg.until;
  }
  return axis ? fromLondonAxis(t) : t;
}
