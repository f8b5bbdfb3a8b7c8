/**
 * The SLA clock rules as pure functions (docs/sla.md; meaning of a rule: docs/sla-rules.md). Given
 * one job, its status history, the live rules of its branch, the agency's settings and the clocks
 * already stored, `planClocks` says which clocks to write and which to drop. No SQL here.
 *
 * - A rule applies to a job when branch, type (or any) and priority (or any) match, the job has
 *   reached the rule's from-status, and its compare field is set.
 * - Among the rules that apply to the same transition (from-status, to-status), the strictest wins:
 *   least allowed time, then calendar hours or days before working days or office hours, then earliest due_at, then oldest rule.
 *   The others are kept as `not_applicable`.
 * - Time On hold does not count; working days skip weekends and bank holidays (working-time.ts).
 * - `met` and `breached` are final: never changed again (only a missing stopped_at is filled).
 * - Escalation to `at_risk` and `breached` is not decided here but by the conditional updates of
 *   sla.repository.ts (flagDueClocks), so that each is flagged, and announced, once.
 */
import { addCountedMs, countedMs, HOUR_CALENDARS, type Counting, type Interval, type OfficeHours, type SlaCalendar, type UkRegion } from './working-time.ts';
import { DAY_MS } from '../../../lib/clock.ts';

/** Status ids the engine needs (table job_statuses). */
export const ON_HOLD = 11;
const CLOSED = 9;
const CANCELLED = 10;

/** The live rule as the engine reads it. */
export interface RuleInput {
  id: number;
  job_status_from_id: number;
  job_status_to_id: number;
  job_type_id: number | null;
  job_priority: number | null;
  date_field_to_compare: string;
  date_field_to_track: string;
  minimum_response_days: number;
  /** The allowance of the hour modes (calendar_hours, office_hours); null for the day modes. */
  response_hours: number | null;
  calendar: string;
}

/**
 * The rule's allowance in counted ms: response_hours hours for calendar_hours and office_hours,
 * minimum_response_days days otherwise.
 */
export function allowedMs(rule: Pick<RuleInput, 'calendar' | 'minimum_response_days' | 'response_hours'>): number {
  return HOUR_CALENDARS.includes(rule.calendar as SlaCalendar) ? (rule.response_hours ?? 0) * 3_600_000 : rule.minimum_response_days * DAY_MS;
}

/** The job as the engine reads it: ids, status and every date field a rule may name. */
export interface JobInput {
  id: number;
  agency_id: number;
  branch_id: number;
  job_type_id: number;
  priority: number;
  status_id: number;
  dates: Record<string, Date | null>;
}

/** One status-history row (oldest first). */
export interface HistoryInput {
  to_status_id: number;
  created_at: Date;
}

/** A stored clock as the engine reads it. */
export interface ExistingClock {
  id: number;
  rule_id: number;
  state: string;
  stopped_at: Date | null;
  at_risk_flagged_at: Date | null;
}

/** The agency's settings. */
export interface AgencySettings {
  region: UkRegion;
  atRiskPercent: number;
  /** The agency's office hours (office_hours rules); the default week when absent. */
  officeHours?: OfficeHours;
}

/** A clock to insert or update (keyed by job and rule). */
export interface ClockPlan {
  rule_id: number;
  state: string;
  started_at: Date;
  due_at: Date;
  at_risk_at: Date;
  stopped_at: Date | null;
  paused_seconds: number;
  at_risk_flagged_at: Date | null;
}

/** What to write for one job: clocks to upsert and ids of clocks to delete. */
export interface JobPlan {
  upserts: ClockPlan[];
  /** Only the final clocks whose stopped_at was filled are included among upserts. */
  deleteIds: number[];
}

/** True for the outcomes that never change again. */
export function isFinal(state: string): boolean {
  return state === 'met' || state === 'breached';
}

/** On-hold intervals from the history (an ongoing hold ends at `now`). */
export function pausesOf(history: readonly HistoryInput[], now: Date): Interval[] {
  const out: Interval[] = [];
  for (let i = 0; i < history.length; i++) {
    if (history[i]!.to_status_id !== ON_HOLD) continue;
    const start = history[i]!.created_at.getTime();
    const end = i + 1 < history.length ? history[i + 1]!.created_at.getTime() : now.getTime();
    if (end > start) out.push({ start, end });
  }
  return out;
}

/** True when the rule's type, priority and from-status match the job (branch is the caller's filter). */
export function ruleMatches(rule: RuleInput, job: JobInput, reached: ReadonlySet<number>): boolean {
  if (rule.job_type_id !== null && rule.job_type_id !== job.job_type_id) return false;
  if (rule.job_priority !== null && rule.job_priority !== job.priority) return false;
  return reached.has(rule.job_status_from_id);
}

/** The timing of one rule on one job (null when its compare field is empty). */
export function measure(rule: RuleInput, job: JobInput, pauses: readonly Interval[], settings: AgencySettings, now: Date) {
  const started = job.dates[rule.date_field_to_compare] ?? null;
  if (!started) return null;
  const stopped = job.dates[rule.date_field_to_track] ?? null;
  const counting: Counting = { calendar: rule.calendar as SlaCalendar, region: settings.region, pauses, officeHours: settings.officeHours };
  const allowed = allowedMs(rule);
  const s = started.getTime();
  const due = addCountedMs(s, allowed, counting);
  const atRisk = addCountedMs(s, Math.floor((allowed * settings.atRiskPercent) / 100), counting);
  const end = stopped ? Math.max(stopped.getTime(), s) : now.getTime();
  const pausedMs = pauses.reduce((sum, p) => sum + Math.max(0, Math.min(p.end, end) - Math.max(p.start, s)), 0);
  return { started, stopped, due: new Date(due), atRisk: new Date(atRisk), pausedSeconds: Math.round(pausedMs / 1000), allowed, counting };
}

/**
 * Seconds of the rule's allowed time left at `now` (or at the stop), counted in the rule's
 * calendar without On-hold time; negative when over.
 */
export function secondsLeft(rule: RuleInput, job: JobInput, history: readonly HistoryInput[], settings: AgencySettings, now: Date): number | null {
  const m = measure(rule, job, pausesOf(history, now), settings, now);
  if (!m) return null;
  const end = m.stopped ? Math.max(m.stopped.getTime(), m.started.getTime()) : now.getTime();
  return Math.round((m.allowed - countedMs(m.started.getTime(), end, m.counting)) / 1000);
}

/** 0 for the modes where every second counts (calendar hours and days), 1 for working days and office hours. */
const elapsedFirst = (rule: RuleInput) => (rule.calendar === 'calendar_days' || rule.calendar === 'calendar_hours' ? 0 : 1);

/** Orders candidate rules of one transition, strictest first. */
function stricter(a: { rule: RuleInput; due: Date }, b: { rule: RuleInput; due: Date }): number {
  return (
    allowedMs(a.rule) - allowedMs(b.rule) ||
    elapsedFirst(a.rule) - elapsedFirst(b.rule) ||
    a.due.getTime() - b.due.getTime() ||
    a.rule.id - b.rule.id
  );
}

/**
 * Plans the clocks of one job.
 * @param rules the live rules of the job's branch
 * @param existing the job's stored clocks
 * @returns upserts (every applying rule not already final, plus final clocks gaining stopped_at)
 *   and the ids of non-final clocks whose rule no longer applies
 */
export function planClocks(
  job: JobInput,
  history: readonly HistoryInput[],
  rules: readonly RuleInput[],
  existing: readonly ExistingClock[],
  settings: AgencySettings,
  now: Date,
): JobPlan {
  const reached = new Set<number>(history.map((h) => h.to_status_id));
  reached.add(job.status_id);
  const pauses = pausesOf(history, now);
  const byRule = new Map(existing.map((c) => [c.rule_id, c]));
  const open = job.status_id !== CLOSED && job.status_id !== CANCELLED;

  const groups = new Map<string, Array<{ rule: RuleInput; due: Date; m: NonNullable<ReturnType<typeof measure>> }>>();
  for (const rule of rules) {
    if (!ruleMatches(rule, job, reached)) continue;
    const m = measure(rule, job, pauses, settings, now);
    if (!m) continue;
    const key = `${rule.job_status_from_id}>${rule.job_status_to_id}`;
    const list = groups.get(key) ?? [];
    list.push({ rule, due: m.due, m });
    groups.set(key, list);
  }

  const upserts: ClockPlan[] = [];
  const applying = new Set<number>();
  for (const list of groups.values()) {
    list.sort(stricter);
    list.forEach(({ rule, m }, i) => {
      applying.add(rule.id);
      const prior = byRule.get(rule.id);
      const base = {
        rule_id: rule.id,
        started_at: m.started,
        due_at: m.due,
        at_risk_at: m.atRisk,
        stopped_at: m.stopped,
        paused_seconds: m.pausedSeconds,
        at_risk_flagged_at: null as Date | null,
      };
      if (prior && isFinal(prior.state)) {
        // Final: only fill a stop that was not known when the outcome was decided.
        if (prior.stopped_at === null && m.stopped) upserts.push({ ...base, state: prior.state, at_risk_flagged_at: prior.at_risk_flagged_at });
        return;
      }
      if (i > 0) {
        upserts.push({ ...base, state: 'not_applicable' });
      } else if (m.stopped) {
        // Met when stopped in time; a late stop stays running here and flagDueClocks marks it breached.
        upserts.push({ ...base, state: m.stopped.getTime() <= m.due.getTime() ? 'met' : 'running' });
      } else if (!open) {
        upserts.push({ ...base, state: 'not_applicable' });
      } else if (job.status_id === ON_HOLD) {
        upserts.push({ ...base, state: 'paused', at_risk_flagged_at: prior?.at_risk_flagged_at ?? null });
      } else if (prior?.at_risk_flagged_at && now.getTime() >= m.atRisk.getTime()) {
        // Already announced as at risk and still past the threshold: no second announcement.
        upserts.push({ ...base, state: 'at_risk', at_risk_flagged_at: prior.at_risk_flagged_at });
      } else {
        upserts.push({ ...base, state: 'running' });
      }
    });
  }
  const deleteIds = existing.filter((c) => !applying.has(c.rule_id) && !isFinal(c.state)).map((c) => c.id);
  return { upserts, deleteIds };
}
