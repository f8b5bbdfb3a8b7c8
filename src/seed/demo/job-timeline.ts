/**
 * Status and date fields of a demo job: a status plausible for the job's age (old jobs mostly
 * Closed or Invoiced, recent ones open) and dates in the order created < approved < assigned <
 * scheduled_for < attended < completed < invoiced < closed (cancelled last for Cancelled), none in
 * the future except scheduled_for of an upcoming Scheduled job.
 */
import { pickWeighted, type Rng } from './context.ts';
import { DAY, HOUR, MINUTE, between, dayStart, inOfficeHours, ukLocal, ukOffsetMinutes, weekday } from './time.ts';

export const STATUS = {
  reported: 1, awaitingApproval: 2, approved: 3, assigned: 4, scheduled: 5, inProgress: 6,
  completed: 7, invoiced: 8, closed: 9, cancelled: 10, onHold: 11,
} as const;

/** Status weights by job age in days (upper bound inclusive). */
const BANDS: Array<{ maxAge: number; weights: Record<number, number> }> = [
  { maxAge: 7, weights: { 1: 25, 2: 14, 3: 12, 4: 15, 5: 18, 6: 7, 7: 4, 10: 3, 11: 2 } },
  { maxAge: 21, weights: { 1: 3, 2: 6, 3: 6, 4: 9, 5: 15, 6: 11, 7: 20, 8: 10, 9: 8, 10: 5, 11: 7 } },
  { maxAge: 60, weights: { 2: 2, 4: 2, 5: 3, 6: 5, 7: 14, 8: 22, 9: 38, 10: 7, 11: 7 } },
  { maxAge: Infinity, weights: { 7: 2, 8: 8, 9: 80, 10: 9, 11: 1 } },
];

/** A status for a job reported `ageDays` ago. */
export function statusForAge(rng: Rng, ageDays: number): number {
  const band = BANDS.find((b) => ageDays <= b.maxAge)!;
  const entries = Object.entries(band.weights).map(([s, w]) => ({ s: Number(s), w }));
  return pickWeighted(rng, entries, (e) => e.w).s;
}

/** Steps reached: 0 reported, 1 approved, 2 assigned, 3 scheduled, 4 attended, 5 completed, 6 invoiced, 7 closed. */
const STAGE: Record<number, number> = { 1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 11: 4 };

/** The seeded job time ranges (migration 0001): id -> local start and end hour. */
export const TIME_RANGES: Record<number, [number, number]> = { 1: [8, 12], 2: [12, 17], 3: [17, 20], 4: [8, 18] };

export interface Timeline {
  status: number;
  /** True when the job reached Assigned (so it has a contractor). */
  assignedStage: boolean;
  /** True when the job reached Approved (so it has an agreed cost). */
  approvedStage: boolean;
  timeRangeId: number | null;
  created: number;
  approved: number | null;
  assigned: number | null;
  scheduled: number | null;
  attended: number | null;
  completed: number | null;
  invoiced: number | null;
  closed: number | null;
  cancelled: number | null;
}

/** Lead time from assignment to the visit, in days, by priority. */
const LEAD_DAYS: Record<number, [number, number]> = { 1: [0, 0], 2: [0, 1], 3: [2, 6], 4: [3, 12], 5: [5, 20] };

/** A visit slot on or after the day of `after` + lead, later than `after`; returns [start ms, range id]. */
function visitSlot(rng: Rng, after: number, priority: number, longLead: boolean): [number, number] {
  const [minLead, maxLead] = longLead ? [5, 25] : LEAD_DAYS[priority]!;
  let day = dayStart(after) + rng.int(minLead, maxLead) * DAY;
  const rangeId = pickWeighted(rng, [1, 2, 3, 4], (id) => [0, 45, 35, 8, 12][id]!);
  for (;;) {
    const weekend = weekday(day) === 0 || weekday(day) === 6;
    const start = ukLocal(day, TIME_RANGES[rangeId]![0]);
    if (start > after && !(weekend && priority > 2)) return [start, rangeId];
    day += DAY;
  }
}

/** The range a given instant falls in (emergency visits are booked for the slot they fall in). */
function rangeAt(ms: number): number {
  const hour = new Date(ms + ukOffsetMinutes(ms) * MINUTE).getUTCHours();
  return hour < 12 ? 1 : hour < 17 ? 2 : 3;
}

/**
 * Builds the dates of a job.
 * @param created when it was reported (ms)
 * @param bigJob multi-day work (completion takes days, not hours)
 * @param compliance booked further ahead (gas safety, EICR ...)
 * @param now reference time (ms); nothing but an upcoming visit lies after it
 */
export function buildTimeline(rng: Rng, status: number, created: number, priority: number, bigJob: boolean, compliance: boolean, now: number): Timeline {
  const stage = status === STATUS.cancelled ? rng.int(0, 2) : STAGE[status]!;
  const urgent = priority <= 2;
  const tl: Timeline = {
    status, assignedStage: stage >= 2, approvedStage: stage >= 1, timeRangeId: null, created,
    approved: null, assigned: null, scheduled: null, attended: null, completed: null, invoiced: null, closed: null, cancelled: null,
  };
  // Emergencies are handled at once (out-of-hours service); anything else in office hours.
  const office = (ms: number) => (priority === 1 ? ms : inOfficeHours(rng, ms));
  let last = created;
  if (stage >= 1) last = tl.approved = office(last + (priority === 1 ? between(rng, 5 * MINUTE, 30 * MINUTE) : urgent ? between(rng, 15 * MINUTE, 4 * HOUR) : between(rng, HOUR, 3 * DAY)));
  if (stage >= 2) last = tl.assigned = office(last + (priority === 1 ? between(rng, 5 * MINUTE, 20 * MINUTE) : urgent ? between(rng, 15 * MINUTE, 3 * HOUR) : between(rng, HOUR, 2 * DAY)));
  if (stage >= 3 && status !== STATUS.scheduled) {
    if (priority === 1) {
      tl.scheduled = last + between(rng, 30 * MINUTE, 3 * HOUR);
      tl.timeRangeId = rangeAt(tl.scheduled);
    } else {
      [tl.scheduled, tl.timeRangeId] = visitSlot(rng, last, priority, compliance);
    }
    last = tl.scheduled;
  }
  if (stage >= 4) {
    const [from, to] = TIME_RANGES[tl.timeRangeId!]!;
    last = tl.attended = last + (priority === 1 ? between(rng, 0, 45 * MINUTE) : between(rng, 0, (to - from) * HOUR - 30 * MINUTE));
  }
  if (stage >= 5) last = tl.completed = last + (bigJob ? between(rng, DAY, 5 * DAY) : between(rng, 30 * MINUTE, 4 * HOUR));
  if (stage >= 6) last = tl.invoiced = inOfficeHours(rng, last + between(rng, HOUR, 10 * DAY));
  if (stage >= 7) last = tl.closed = inOfficeHours(rng, last + between(rng, DAY, 21 * DAY));
  if (status === STATUS.cancelled) last = tl.cancelled = inOfficeHours(rng, last + between(rng, HOUR, 5 * DAY));

  // Keep the past in the past: move the whole job back by whole days (keeps visit times in their slot).
  const margin = 10 * MINUTE;
  if (last > now - margin) {
    const shift = Math.ceil((last - (now - margin)) / DAY) * DAY;
    for (const key of ['created', 'approved', 'assigned', 'scheduled', 'attended', 'completed', 'invoiced', 'closed', 'cancelled'] as const) {
      if (tl[key] !== null) tl[key] = tl[key]! - shift;
    }
  }
  if (status === STATUS.scheduled) {
    // An upcoming visit: after now and after the assignment.
    [tl.scheduled, tl.timeRangeId] = visitSlot(rng, Math.max(now, tl.assigned!), priority, compliance);
  }
  return tl;
}

/** The latest date of the job that is not in the future: its updated_at. */
export function lastTouched(tl: Timeline, now: number): number {
  const dates = [tl.created, tl.approved, tl.assigned, tl.scheduled, tl.attended, tl.completed, tl.invoiced, tl.closed, tl.cancelled];
  return Math.max(...dates.filter((d): d is number => d !== null && d <= now));
}
