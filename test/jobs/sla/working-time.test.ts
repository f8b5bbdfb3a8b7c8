import { describe, expect, it } from 'vitest';
import { addCountedMs, countedMs, type Counting } from '../../../src/modules/jobs/sla/working-time.ts';
import { planClocks, type JobInput, type RuleInput } from '../../../src/modules/jobs/sla/clock-engine.ts';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number) => new Date(ms).toISOString();
const working = (region: Counting['region']): Counting => ({ calendar: 'working_days', region, pauses: [] });

describe('SLA working days skip weekends and the UK bank holidays of the agency region', () => {
  it('one working day from a Friday morning is due on Monday morning', () => {
    expect(iso(addCountedMs(at('2026-11-20T10:00:00Z'), DAY, working('england-and-wales')))).toBe('2026-11-23T10:00:00.000Z');
  });

  it('a clock started on a Saturday starts counting on Monday', () => {
    expect(iso(addCountedMs(at('2026-11-21T10:00:00Z'), DAY, working('england-and-wales')))).toBe('2026-11-24T00:00:00.000Z');
  });

  it('Christmas Day, Boxing Day (substitute Monday) and the weekend are skipped', () => {
    expect(iso(addCountedMs(at('2026-12-24T10:00:00Z'), DAY, working('england-and-wales')))).toBe('2026-12-29T10:00:00.000Z');
  });

  it('Good Friday and Easter Monday are skipped in England and Wales; Scotland works on Easter Monday', () => {
    expect(iso(addCountedMs(at('2026-04-02T10:00:00Z'), DAY, working('england-and-wales')))).toBe('2026-04-07T10:00:00.000Z');
    expect(iso(addCountedMs(at('2026-04-02T10:00:00Z'), DAY, working('scotland')))).toBe('2026-04-06T10:00:00.000Z');
  });

  it("St Andrew's Day is a Scottish bank holiday that England lacks", () => {
    expect(iso(addCountedMs(at('2026-11-27T10:00:00Z'), DAY, working('england-and-wales')))).toBe('2026-11-30T10:00:00.000Z');
    expect(iso(addCountedMs(at('2026-11-27T10:00:00Z'), DAY, working('scotland')))).toBe('2026-12-01T10:00:00.000Z');
  });

  it('Northern Ireland skips St Patrick\'s Day', () => {
    expect(iso(addCountedMs(at('2026-03-16T10:00:00Z'), DAY, working('northern-ireland')))).toBe('2026-03-18T10:00:00.000Z');
    expect(iso(addCountedMs(at('2026-03-16T10:00:00Z'), DAY, working('england-and-wales')))).toBe('2026-03-17T10:00:00.000Z');
  });

  it('paused time does not count, in calendar and working days', () => {
    const pauses = [{ start: at('2026-11-21T12:00:00Z'), end: at('2026-11-23T12:00:00Z') }];
    const c: Counting = { calendar: 'calendar_days', region: 'england-and-wales', pauses };
    expect(iso(addCountedMs(at('2026-11-21T09:00:00Z'), DAY, c))).toBe('2026-11-24T09:00:00.000Z');
    expect(countedMs(at('2026-11-21T09:00:00Z'), at('2026-11-24T09:00:00Z'), c)).toBe(DAY);
  });
});

describe('SLA clock planning', () => {
  const job: JobInput = {
    id: 1, agency_id: 1, branch_id: 1, job_type_id: 2, priority: 1, status_id: 1,
    dates: { created_at: new Date('2026-11-21T09:00:00Z'), attended_at: null },
  };
  const rule = (id: number, days: number, extra: Partial<RuleInput> = {}): RuleInput => ({
    id, job_status_from_id: 1, job_status_to_id: 6, job_type_id: null, job_priority: null,
    date_field_to_compare: 'created_at', date_field_to_track: 'attended_at', minimum_response_days: days, response_hours: null, calendar: 'calendar_days', ...extra,
  });
  const settings = { region: 'england-and-wales' as const, atRiskPercent: 75 };
  const history = [{ to_status_id: 1, created_at: new Date('2026-11-21T09:00:00Z') }];
  const now = new Date('2026-11-21T10:00:00Z');

  it('the strictest of the rules watching the same transition wins; the others are not applicable', () => {
    const plan = planClocks(job, history, [rule(1, 3), rule(2, 1), rule(3, 1, { calendar: 'working_days' })], [], settings, now);
    const byRule = Object.fromEntries(plan.upserts.map((u) => [u.rule_id, u.state]));
    expect(byRule).toEqual({ 1: 'not_applicable', 2: 'running', 3: 'not_applicable' });
  });

  it('a rule of another type or priority, or whose from-status was never reached, makes no clock', () => {
    const plan = planClocks(job, history, [rule(1, 1, { job_type_id: 1 }), rule(2, 1, { job_priority: 2 }), rule(3, 1, { job_status_from_id: 3, date_field_to_compare: 'created_at' })], [], settings, now);
    expect(plan.upserts).toEqual([]);
  });

  it('met and breached are final: a later change never rewrites them', () => {
    const plan = planClocks(job, history, [rule(1, 1)], [{ id: 9, rule_id: 1, state: 'breached', stopped_at: null, at_risk_flagged_at: null }], settings, now);
    expect(plan.upserts).toEqual([]);
    expect(plan.deleteIds).toEqual([]);
  });
});
