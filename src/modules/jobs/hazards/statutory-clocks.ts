/**
 * The statutory clocks of a hazard as pure functions (docs/compliance.md "Hazards and statutory
 * clocks"; the Hazards in Social Housing (Prescribed Requirements) (England) Regulations 2025,
 * "Awaab's Law"). No SQL, no clock of their own.
 *
 * | kind | severity | starts | allowance | stops |
 * |---|---|---|---|---|
 * | `make_safe` | emergency | reported_at | 24 hours (every hour counts) | made_safe_at |
 * | `investigate` | significant | reported_at | 10 working days | investigated_at |
 * | `summary` | significant | investigated_at | 3 working days | summary_sent_at |
 * | `works_start` | significant | investigated_at | 5 working days | works_started_at |
 * | `works_complete` | significant | investigated_at | the agency's reasonable period (default 60 working days) | works_completed_at |
 *
 * A period of N working days runs from the London midnight after the day it starts (the day of
 * the report or of the investigation is not counted) to the end of the Nth London date after it
 * that is a Monday to Friday and not a bank holiday of the agency's UK region: the SLA module's
 * `working_days` counting (reused, not copied). Statutory clocks never pause: On hold does not stop
 * a legal deadline. At risk: the agency's at-risk share of the allowance (sla_at_risk_percent).
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
  /** The reasonable period for the works, working days. */
  works_working_days: number;
}

/** One clock as planned (state: running, met; at_risk and breached are set by the flags). */
export interface HazardClockPlan {
  kind: ClockKind;
  started_at: Date;
  due_at: Date;
  at_risk_at: Date;
  stopped_at: Date | null;
  /** Allowance: hours for make_safe, working days for the others. */
  allowance: { unit: 'hours' | 'working_days'; amount: number };
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
 * The clocks a hazard runs now (a clock that starts at the investigation exists once it is recorded).
 * @param atRiskPercent the agency's at-risk share (1..99)
 */
export function planHazardClocks(h: HazardInput, region: UkRegion, atRiskPercent: number): HazardClockPlan[] {
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
    days('summary', h.investigated_at, 3, h.summary_sent_at);
    days('works_start', h.investigated_at, 5, h.works_started_at);
    days('works_complete', h.investigated_at, h.works_working_days, h.works_completed_at);
  }
  return out;
}

/** The state a planned clock is written with: met when stopped in time, otherwise running (the flags move it on). */
export function plannedState(c: HazardClockPlan): 'met' | 'running' {
  return c.stopped_at && c.stopped_at.getTime() <= c.due_at.getTime() ? 'met' : 'running';
}
