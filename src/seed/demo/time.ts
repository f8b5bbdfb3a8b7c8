/**
 * Time helpers for the demo data: durations in milliseconds, UK local time (GMT/BST) and a
 * deterministic "some working-hours moment so many days ago".
 */
import type { Rng } from './context.ts';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The UTC instant of the last Sunday of a month at 01:00 UTC (UK clock change). */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const sunday = lastDay.getUTCDate() - lastDay.getUTCDay();
  return Date.UTC(year, month, sunday, 1);
}

/** Minutes UK local time is ahead of UTC at `ms`: 60 during BST, else 0. */
export function ukOffsetMinutes(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  return ms >= lastSundayAt1Utc(year, 2) && ms < lastSundayAt1Utc(year, 9) ? 60 : 0;
}

/** The UTC instant of UK local `hour:minute` on the UTC calendar day containing `dayMs`. */
export function ukLocal(dayMs: number, hour: number, minute = 0): number {
  const day = new Date(dayMs);
  const naive = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute);
  return naive - ukOffsetMinutes(naive) * MINUTE;
}

/** The start (00:00 UTC) of the calendar day containing `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

/** Day of week of `ms` in UTC: 0 Sunday .. 6 Saturday. */
export function weekday(ms: number): number {
  return new Date(ms).getUTCDay();
}

/** A random instant in [from, to). */
export function between(rng: Rng, from: number, to: number): number {
  return from + Math.floor(rng.next() * Math.max(1, to - from));
}

/**
 * A random office-hours instant (UK 08:30-17:30, Monday to Friday) between `minDays` and
 * `maxDays` days before `now`: when a property, tenant or contractor was set up.
 */
export function officeMomentDaysAgo(rng: Rng, now: Date, minDays: number, maxDays: number): Date {
  let day = dayStart(now.getTime()) - rng.int(minDays, maxDays) * DAY;
  while (weekday(day) === 0 || weekday(day) === 6) day -= DAY;
  return new Date(ukLocal(day, 8, 30) + rng.int(0, 9 * 60 - 1) * MINUTE);
}

/**
 * `ms` if it falls in UK office hours (Monday to Friday 08:30-17:30), else a moment in the first
 * hour of the next working morning: when office staff would act on something.
 */
export function inOfficeHours(rng: Rng, ms: number): number {
  let day = dayStart(ms);
  for (;;) {
    const open = ukLocal(day, 8, 30);
    const close = ukLocal(day, 17, 30);
    const working = weekday(day) !== 0 && weekday(day) !== 6;
    if (working && ms < close) return ms >= open ? ms : open + rng.int(0, 59) * MINUTE;
    day += DAY;
  }
}
