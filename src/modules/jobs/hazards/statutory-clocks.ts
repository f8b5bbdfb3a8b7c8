/**
 * The statutory clocks of a hazard as pure functions (docs/compliance.md "Hazards and statutory
 * clocks"), from the Hazards in Social Housing (Prescribed Requirements) (England) Regulations 2025
 * (SI 2025/1042, "Awaab's Law", in force 27 October 2025). No SQL, no clock of their own.
 *
 * | kind | severity | starts | allowance | stops | source |
 * |---|---|---|---|---|---|
 * | `make_safe` | emergency | aware_at | 24 hours (every hour counts) | made_safe_at | the emergency requirements |
 * | `investigate` | significant | aware_at | 10 working days | investigated_at | reg. 6 |
 * | `summary` | significant | investigated_at | 3 working days | summary_delivered_at | reg. 9 |
 * | `works_start` | significant | investigated_at | 5 working days | works_started_at (relevant safety work) | reg. 11(2)(a) |
 * | `further_works_start` | significant, further works needed | investigated_at | 5 working days; 12 weeks when beginning sooner is not reasonably practicable (a reason stated) | further_works_started_at | reg. 13(2), 13(3) |
 *
 * Completing further works has no fixed period ("within a reasonable period", reg. 13(4)): no
 * clock. Every *_at is when the thing happened, never when it was recorded.
 *
 * A period of N working days runs from the London midnight after the day it starts (the day of
 * awareness or of the investigation is not counted) to the end of the Nth London date after it
 * that is a Monday to Friday and not a bank holiday in England: always England and Wales' bank
 * holidays (the regulations are England's), whatever the agency's SLA region. 12 weeks are 84
 * calendar days counted the same way. Statutory clocks never pause: On hold does not stop a legal
 * deadline. At risk: the agency's at-risk share of the allowance (sla_at_risk_percent).
 */
import { addCountedMs, fromLondonAxis, toLondonAxis, type UkRegion } from '../sla/index.ts';
import { DAY_MS } from '../../../lib/clock.ts';
import { HAZARD_CLOCK_KINDS, type HazardClockKind } from '../../../lib/hhsrs.ts';

const HOUR_MS = 3_600_000;

export const CLOCK_KINDS = HAZARD_CLOCK_KINDS;
export type ClockKind = HazardClockKind;

export const SEVERITIES = ['emergency', 'significant'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The hazard's dates as the planner reads them. */
export interface HazardInput {
  severity: Severity;
  reported_at: Date;
  made_safe_at: Date | null;
  investigated_at: Date | null;
  summary_sent_at: Date | null;
  works_started_at: Date | null;
  works_completed_at: Date | null;
  /** Supplementary preventative work identified by the investigation (reg. 13); default true. */
  further_works_required?: boolean;
  /** Why beginning further works within 5 working days is not reasonably practicable: the 12-week limit applies. */
  further_works_reason?: string | null;
  further_works_started_at?: Date | null;
  /** When the written summary reached the tenant (e-mail or SMS sent, letter posted); summary_sent_at is ignored. */
  summary_delivered_at?: Date | null;
}

/** The bank holidays statutory working days skip: England's, whatever the agency's SLA region. */
export const STATUTORY_REGION: UkRegion = 'england-and-wales';
/** The outer limit to begin further works when 5 working days is not reasonably practicable (reg. 13(3)): 12 weeks. */
export const FURTHER_WORKS_LIMIT_DAYS = 84;

/** One clock as planned (state: running, met; at_risk and breached are set by the flags). */
export interface HazardClockPlan {
  kind: ClockKind;
  started_at: Date;
  due_at: Date;
  at_risk_at: Date;
  stopped_at: Date | null;
  /** Allowance: hours for make_safe, calendar days for the 12-week limit, working days for the others. */
  allowance: { unit: 'hours' | 'working_days' | 'calendar_days'; amount: number };
}

/**
 * The end of a period of working days started at `start`: the London midnight ending the Nth
 * working day after the London date of `start`, and the at-risk instant (that share of the period).
 * @param start epoch ms; @param days N >= 1; @param atRiskPercent 1..99
 * @returns { due, atRisk } epoch ms
 */
export function workingDaysDeadline(start: number, days: number, region: UkRegion, atRiskPercent: number): { due: number; atRisk: number } {
  const nextMidnight = fromLondonAxis(Math.floor(toLondonAxis(start) / DAY_MS) * DAY_MS + DAY_MS);
  const counting = { calendar: 'working_days' as const, region, pauses: [] };
  return {
    due: addCountedMs(nextMidnight, days * DAY_MS, counting),
    atRisk: addCountedMs(nextMidnight, Math.floor((days * DAY_MS * atRiskPercent) / 100), counting),
  };
}

/**
 * The end of a period of calendar days started at `start`: the London midnight ending the Nth
 * London date after the date of `start` (12 weeks: N = 84), and the at-risk instant.
 * @param start epoch ms; @param days N >= 1; @param atRiskPercent 1..99
 * @returns { due, atRisk } epoch ms
 */
export function calendarDaysDeadline(start: number, days: number, atRiskPercent: number): { due: number; atRisk: number } {
  const nextMidnight = fromLondonAxis(Math.floor(toLondonAxis(start) / DAY_MS) * DAY_MS + DAY_MS);
  const counting = { calendar: 'calendar_days' as const, region: STATUTORY_REGION, pauses: [] };
  return {
    due: fromLondonAxis(Math.floor(toLondonAxis(start) / DAY_MS) * DAY_MS + (days + 1) * DAY_MS),
    atRisk: addCountedMs(nextMidnight, Math.floor((days * DAY_MS * atRiskPercent) / 100), counting),
  };
}

/**
 * The clocks a hazard runs now (a clock that starts at the investigation exists once it is
 * recorded), always on England's working days; a hazard out of scope runs none (hazardScope).
 * @param h the hazard's times (reported_at is the moment of awareness)
 * @param atRiskPercent the agency's at-risk share (1..99)
 * @returns the planned clocks
 */
export function planHazardClocks(h: HazardInput, atRiskPercent: number): HazardClockPlan[] {
  const region = STATUTORY_REGION;
  const out: HazardClockPlan[] = [];
  if (h.severity === 'emergency') {
    const s = h.reported_at.getTime();
    out.push({
      kind: 'make_safe', started_at: h.reported_at, due_at: new Date(s + 24 * HOUR_MS),
      at_risk_at: new Date(s + Math.floor((24 * HOUR_MS * atRiskPercent) / 100)), stopped_at: h.made_safe_at, allowance: { unit: 'hours', amount: 24 },
    });
    return out;
  }
  const days = (kind: ClockKind, start: Date, n: number, stop: Date | null) => {
    const d = workingDaysDeadline(start.getTime(), n, region, atRiskPercent);
    out.push({ kind, started_at: start, due_at: new Date(d.due), at_risk_at: new Date(d.atRisk), stopped_at: stop, allowance: { unit: 'working_days', amount: n } });
  };
  days('investigate', h.reported_at, 10, h.investigated_at);
  if (h.investigated_at) {
    days('summary', h.investigated_at, 3, h.summary_delivered_at ?? null);
    days('works_start', h.investigated_at, 5, h.works_started_at);
    if (h.further_works_required !== false) {
      const stop = h.further_works_started_at ?? null;
      if (h.further_works_reason) {
        const d = calendarDaysDeadline(h.investigated_at.getTime(), FURTHER_WORKS_LIMIT_DAYS, atRiskPercent);
        out.push({
          kind: 'further_works_start', started_at: h.investigated_at, due_at: new Date(d.due), at_risk_at: new Date(d.atRisk), stopped_at: stop,
          allowance: { unit: 'calendar_days', amount: FURTHER_WORKS_LIMIT_DAYS },
        });
      } else days('further_works_start', h.investigated_at, 5, stop);
    }
  }
  return out;
}

/** The state a planned clock is written with: met when stopped in time, otherwise running (the flags move it on). */
export function plannedState(c: HazardClockPlan): 'met' | 'running' {
  return c.stopped_at && c.stopped_at.getTime() <= c.due_at.getTime() ? 'met' : 'running';
}
