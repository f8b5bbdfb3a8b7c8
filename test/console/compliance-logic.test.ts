/**
 * The compliance page's plain-words recurrence (console/src/logic/recurrence.ts, docs/compliance.md
 * "In the console"): the form's "every 12 months" becomes the RFC 5545 rule the API takes and a
 * stored rule reads back in words; the rules are checked against the API's own parser, so the
 * console never sends a rule the server refuses.
 */
import { describe, expect, it } from 'vitest';
import { buildRule, leadWords, longDate, ruleParts, ruleWords, typeCodeOf } from '../../console/src/logic/recurrence.ts';
import { parseRule } from '../../src/modules/jobs/compliance/recurrence.ts';

describe('console: maintenance recurrence in words', () => {
  it('builds rules the API accepts in their normal form, and reads them back', () => {
    const cases: Array<[number, 'years' | 'months' | 'weeks' | 'days', string, string]> = [
      [12, 'months', 'FREQ=MONTHLY;INTERVAL=12', 'every 12 months'],
      [1, 'years', 'FREQ=YEARLY', 'every year'],
      [5, 'years', 'FREQ=YEARLY;INTERVAL=5', 'every 5 years'],
      [2, 'weeks', 'FREQ=WEEKLY;INTERVAL=2', 'every 2 weeks'],
      [1, 'days', 'FREQ=DAILY', 'every day'],
    ];
    for (const [every, unit, rule, words] of cases) {
      expect(buildRule(every, unit)).toBe(rule);
      expect(parseRule(rule, '2026-11-26')).toEqual({ ok: true, text: rule });
      expect(ruleWords(rule)).toBe(words);
      expect(ruleParts(rule)).toEqual({ every, unit, more: false });
    }
    expect(ruleParts('RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15')).toEqual({ every: 1, unit: 'years', more: true });
    expect(ruleWords('FREQ=MONTHLY;BYDAY=+1MO')).toBe('every month (with extra rules: FREQ=MONTHLY;BYDAY=+1MO)');
  });
  it('says the lead time, the London date and the type code', () => {
    expect(leadWords(28)).toBe('raised 28 days before');
    expect(leadWords(1)).toBe('raised 1 day before');
    expect(leadWords(0)).toBe('raised on the day it is due');
    expect(longDate('2026-11-26')).toBe('Thu 26 Nov 2026');
    expect(longDate('2027-03-28')).toBe('Sun 28 Mar 2027');
    expect(longDate(null)).toBe('');
    expect(typeCodeOf('PAT testing')).toBe('pat_testing');
    expect(typeCodeOf('  Fire doors (annual) ')).toBe('fire_doors_annual');
    expect(typeCodeOf('Électricité')).toBe('electricite');
    expect(typeCodeOf('x'.repeat(50))).toHaveLength(40);
  });
});
