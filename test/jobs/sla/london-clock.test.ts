/**
 * Worked examples of the SLA clock (docs/sla.md "How time counts"): each due time below was worked
 * out by hand from the London wall clock, the agency's office hours (default Monday to Friday
 * 09:00 to 17:30) and the region's bank holidays, and written here as a UTC instant. British
 * Summer Time 2026 runs from Sun 29 Mar 01:00 UTC to Sun 25 Oct 01:00 UTC.
 */
import { describe, expect, it } from 'vitest';
import { addCountedMs, countedMs, fromLondonAxis, toLondonAxis, type Counting, type Interval, type SlaCalendar, type UkRegion } from '../../../src/modules/jobs/sla/working-time.ts';
import { measure, type JobInput, type RuleInput } from '../../../src/modules/jobs/sla/clock-engine.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

interface Example {
  why: string;
  mode: SlaCalendar;
  /** hours for calendar_hours / office_hours, days otherwise */
  amount: number;
  reported: string;
  due: string;
  region?: UkRegion;
  pauses?: Array<[string, string]>;
  /** The due time falls in the hour skipped in March: it snaps to the jump, so not exactly the allowance is counted back. */
  inGap?: true;
}

const EXAMPLES: Example[] = [
  // Around 17:00
  { why: 'Fri 17:00 GMT, 8 office hours: half an hour on Friday, 7.5 on Monday', mode: 'office_hours', amount: 8, reported: '2026-11-20T17:00:00Z', due: '2026-11-23T16:30:00Z' },
  { why: 'Fri 17:45 GMT (after closing), 1 office hour: Monday 10:00', mode: 'office_hours', amount: 1, reported: '2026-11-20T17:45:00Z', due: '2026-11-23T10:00:00Z' },
  { why: 'Thu 16:00 BST, 2 office hours: 1.5 on Thursday, Friday 09:30 BST', mode: 'office_hours', amount: 2, reported: '2026-06-11T15:00:00Z', due: '2026-06-12T08:30:00Z' },
  { why: 'Fri 17:00 GMT, 1 working day: the rest of Friday counts, Monday 17:00', mode: 'working_days', amount: 1, reported: '2026-11-20T17:00:00Z', due: '2026-11-23T17:00:00Z' },
  { why: 'Office hours ending exactly at closing time', mode: 'office_hours', amount: 8.5, reported: '2026-11-23T09:00:00Z', due: '2026-11-23T17:30:00Z' },
  // Midnight in BST and GMT
  { why: 'Sat 00:30 BST is Friday 23:30 UTC but a Saturday in London: 1 working day ends Tue 00:00 BST', mode: 'working_days', amount: 1, reported: '2026-06-12T23:30:00Z', due: '2026-06-15T23:00:00Z' },
  { why: 'Fri 23:30 BST (22:30 UTC): 30 minutes of Friday, then Mon 23:30 BST', mode: 'working_days', amount: 1, reported: '2026-06-12T22:30:00Z', due: '2026-06-15T22:30:00Z' },
  { why: 'Sat 00:30 GMT: counting starts Mon 00:00 GMT', mode: 'working_days', amount: 1, reported: '2026-11-21T00:30:00Z', due: '2026-11-24T00:00:00Z' },
  { why: 'Sat 00:30 BST, 24 calendar hours: Sun 00:30 BST', mode: 'calendar_hours', amount: 24, reported: '2026-06-12T23:30:00Z', due: '2026-06-13T23:30:00Z' },
  { why: 'Sat 00:30 BST, 2 office hours: Mon 11:00 BST', mode: 'office_hours', amount: 2, reported: '2026-06-12T23:30:00Z', due: '2026-06-15T10:00:00Z' },
  // Bank holidays of each region
  { why: 'England: Good Friday and Easter Monday skipped', mode: 'working_days', amount: 1, reported: '2026-04-02T09:00:00Z', due: '2026-04-07T09:00:00Z' },
  { why: 'Scotland: Good Friday skipped, Easter Monday worked', mode: 'working_days', amount: 1, reported: '2026-04-02T09:00:00Z', due: '2026-04-06T09:00:00Z', region: 'scotland' },
  { why: "Scotland: St Andrew's Day (Mon 30 Nov) closed, 4 office hours from Fri 16:30", mode: 'office_hours', amount: 4, reported: '2026-11-27T16:30:00Z', due: '2026-12-01T12:00:00Z', region: 'scotland' },
  { why: 'England: the same report is due on Monday 30 Nov', mode: 'office_hours', amount: 4, reported: '2026-11-27T16:30:00Z', due: '2026-11-30T12:00:00Z' },
  { why: "Northern Ireland: St Patrick's Day (Tue 17 Mar) closed", mode: 'office_hours', amount: 4, reported: '2026-03-16T15:30:00Z', due: '2026-03-18T11:00:00Z', region: 'northern-ireland' },
  { why: 'England works on 17 Mar', mode: 'office_hours', amount: 4, reported: '2026-03-16T15:30:00Z', due: '2026-03-17T11:00:00Z' },
  { why: 'Northern Ireland: the Boyne substitute day (Mon 13 Jul)', mode: 'working_days', amount: 1, reported: '2026-07-10T09:00:00Z', due: '2026-07-14T09:00:00Z', region: 'northern-ireland' },
  { why: 'Scotland: 2 January substitute (Mon 4 Jan 2027) after New Year', mode: 'working_days', amount: 1, reported: '2026-12-31T10:00:00Z', due: '2027-01-05T10:00:00Z', region: 'scotland' },
  { why: 'England: only New Year\'s Day', mode: 'working_days', amount: 1, reported: '2026-12-31T10:00:00Z', due: '2027-01-04T10:00:00Z' },
  { why: 'Christmas, Boxing Day substitute and the weekend', mode: 'office_hours', amount: 1, reported: '2026-12-24T17:00:00Z', due: '2026-12-29T09:30:00Z' },
  // A pause across a weekend
  { why: '8 office hours from Thu 14:00, On hold Fri 10:00 to Mon 12:00: 4.5 h before, 3.5 h after', mode: 'office_hours', amount: 8, reported: '2026-11-19T14:00:00Z', due: '2026-11-23T15:30:00Z', pauses: [['2026-11-20T10:00:00Z', '2026-11-23T12:00:00Z']] },
  { why: '2 working days from Thu 10:00, On hold Fri 10:00 to Tue 10:00', mode: 'working_days', amount: 2, reported: '2026-11-19T10:00:00Z', due: '2026-11-25T10:00:00Z', pauses: [['2026-11-20T10:00:00Z', '2026-11-24T10:00:00Z']] },
  { why: '3 calendar days from Fri 09:00, On hold Sat 12:00 to Mon 12:00', mode: 'calendar_days', amount: 3, reported: '2026-11-20T09:00:00Z', due: '2026-11-25T09:00:00Z', pauses: [['2026-11-21T12:00:00Z', '2026-11-23T12:00:00Z']] },
  // The clock changes
  { why: 'March: 1 calendar day from Sat 12:00 GMT is Sun 12:00 BST (23 hours)', mode: 'calendar_days', amount: 1, reported: '2026-03-28T12:00:00Z', due: '2026-03-29T11:00:00Z' },
  { why: 'March: 24 calendar hours from Sat 12:00 GMT is Sun 13:00 BST', mode: 'calendar_hours', amount: 24, reported: '2026-03-28T12:00:00Z', due: '2026-03-29T12:00:00Z' },
  { why: 'March: 1 working day from Fri 12:00 GMT is Mon 12:00 BST', mode: 'working_days', amount: 1, reported: '2026-03-27T12:00:00Z', due: '2026-03-30T11:00:00Z' },
  { why: 'March: 2 office hours from Fri 16:30 GMT end Mon 10:00 BST', mode: 'office_hours', amount: 2, reported: '2026-03-27T16:30:00Z', due: '2026-03-30T09:00:00Z' },
  { why: 'October: 1 calendar day from Sat 12:00 BST is Sun 12:00 GMT (25 hours)', mode: 'calendar_days', amount: 1, reported: '2026-10-24T11:00:00Z', due: '2026-10-25T12:00:00Z' },
  { why: 'October: 24 calendar hours from Sat 12:00 BST is Sun 11:00 GMT', mode: 'calendar_hours', amount: 24, reported: '2026-10-24T11:00:00Z', due: '2026-10-25T11:00:00Z' },
  { why: 'October: 1 working day from Fri 12:00 BST is Mon 12:00 GMT', mode: 'working_days', amount: 1, reported: '2026-10-23T11:00:00Z', due: '2026-10-26T12:00:00Z' },
  { why: 'October: 2 office hours from Fri 16:30 BST end Mon 10:00 GMT', mode: 'office_hours', amount: 2, reported: '2026-10-23T15:30:00Z', due: '2026-10-26T10:00:00Z' },
  { why: 'March: 1 calendar day from Sat 01:30 GMT ends in the skipped hour, so at 02:00 BST', mode: 'calendar_days', amount: 1, reported: '2026-03-28T01:30:00Z', due: '2026-03-29T01:00:00Z', inGap: true },
];

const counting = (e: Example): Counting => ({
  calendar: e.mode,
  region: e.region ?? 'england-and-wales',
  pauses: (e.pauses ?? []).map(([s, end]): Interval => ({ start: at(s), end: at(end) })),
});
const amountMs = (e: Example) => e.amount * (e.mode === 'calendar_hours' || e.mode === 'office_hours' ? HOUR : DAY);

describe('SLA clock: worked examples in London time', () => {
  it.each(EXAMPLES)('$why', (e) => {
    const c = counting(e);
    expect(iso(addCountedMs(at(e.reported), amountMs(e), c))).toBe(e.due);
    // And back: exactly the allowance is counted between the report and the due time.
    if (!e.inGap) expect(countedMs(at(e.reported), at(e.due), c)).toBe(amountMs(e));
  });

  it('the London axis runs forward through both clock changes and inverts', () => {
    for (const t of ['2026-03-29T00:30:00Z', '2026-03-29T01:00:00Z', '2026-10-25T00:59:00Z', '2026-10-25T02:00:01Z', '2026-07-01T12:00:00Z']) {
      expect(iso(fromLondonAxis(toLondonAxis(at(t))))).toBe(t);
    }
    // The repeated October hour stands still at 02:00 on the axis; its first instant is the inverse.
    expect(toLondonAxis(at('2026-10-25T01:30:00Z'))).toBe(at('2026-10-25T02:00:00Z'));
    expect(iso(fromLondonAxis(at('2026-10-25T02:00:00Z')))).toBe('2026-10-25T01:00:00Z');
  });

  it('an agency with Saturday hours counts them', () => {
    const sat: Counting = { calendar: 'office_hours', region: 'england-and-wales', pauses: [], officeHours: [[540, 1020], [540, 1020], [540, 1020], [540, 1020], [540, 1020], [600, 720], null] };
    // Fri 16:00 GMT, 3 h: 1 h Friday, 2 h Saturday 10:00-12:00
    expect(iso(addCountedMs(at('2026-11-20T16:00:00Z'), 3 * HOUR, sat))).toBe('2026-11-21T12:00:00Z');
  });
});

describe('SLA clock: pausing moves every derived time, at-risk included', () => {
  const rule = (calendar: SlaCalendar, days: number, hours: number | null): RuleInput => ({
    id: 1, job_status_from_id: 1, job_status_to_id: 6, job_type_id: null, job_priority: null,
    date_field_to_compare: 'created_at', date_field_to_track: 'attended_at', minimum_response_days: days, response_hours: hours, calendar,
  });
  const job = (created: string): JobInput => ({
    id: 1, agency_id: 1, branch_id: 1, job_type_id: 1, priority: 2, status_id: 1, dates: { created_at: new Date(created), attended_at: null },
  });
  const settings = { region: 'england-and-wales' as const, atRiskPercent: 75 };
  const now = new Date('2026-11-26T00:00:00Z');

  it('working days: at risk Fri 22:00 without the pause, Tue 22:00 with it', () => {
    const plain = measure(rule('working_days', 2, null), job('2026-11-19T10:00:00Z'), [], settings, now)!;
    expect([iso(plain.atRisk.getTime()), iso(plain.due.getTime())]).toEqual(['2026-11-20T22:00:00Z', '2026-11-23T10:00:00Z']);
    const paused = measure(rule('working_days', 2, null), job('2026-11-19T10:00:00Z'), [{ start: at('2026-11-20T10:00:00Z'), end: at('2026-11-24T10:00:00Z') }], settings, now)!;
    expect([iso(paused.atRisk.getTime()), iso(paused.due.getTime())]).toEqual(['2026-11-24T22:00:00Z', '2026-11-25T10:00:00Z']);
  });

  it('office hours: 75 % of 8 hours (6 h) moves from Fri 11:30 to Mon 13:30', () => {
    const plain = measure(rule('office_hours', 0, 8), job('2026-11-19T14:00:00Z'), [], settings, now)!;
    expect(iso(plain.atRisk.getTime())).toBe('2026-11-20T11:30:00Z');
    const paused = measure(rule('office_hours', 0, 8), job('2026-11-19T14:00:00Z'), [{ start: at('2026-11-20T10:00:00Z'), end: at('2026-11-23T12:00:00Z') }], settings, now)!;
    expect([iso(paused.atRisk.getTime()), iso(paused.due.getTime())]).toEqual(['2026-11-23T13:30:00Z', '2026-11-23T15:30:00Z']);
  });
});
