/**
 * Recurrence of maintenance schedules (docs/compliance.md "Planned maintenance"): an RFC 5545
 * RRULE (through the `rrule` library) counted in London dates. The rule's DTSTART is the
 * schedule's `starts_on`; every date is handled as midnight UTC of that calendar date, so the
 * clock change never moves an occurrence to another day. Rules more frequent than daily are
 * refused: maintenance is due on a date, not at an hour. The library is loaded at the first rule (its
 * CommonJS build, so these functions stay synchronous).
 */
import { createRequire } from 'node:module';
import type rrulePkg from 'rrule';

type RRuleClass = typeof rrulePkg.RRule;
type Rule = InstanceType<RRuleClass>;
let RRuleLoaded: RRuleClass | undefined;

/** The rrule library's RRule class, loaded at the first call. */
function rruleClass(): RRuleClass {
  RRuleLoaded ??= (createRequire(import.meta.url)('rrule') as typeof rrulePkg).RRule;
  return RRuleLoaded;
}

/** How far ahead a rule must have an occurrence to be accepted, years. */
const MUST_OCCUR_WITHIN_YEARS = 20;

const utc = (date: string): Date => new Date(`${date}T00:00:00Z`);
const iso = (d: Date): string => d.toISOString().slice(0, 10);

/** A parsed rule, or why it is refused (a sentence for the 400 answer). */
export type ParsedRule = { ok: true; text: string } | { ok: false; reason: string };

function build(text: string, startsOn: string): Rule {
  const RRule = rruleClass();
  const options = RRule.parseString(text);
  return new RRule({ ...options, dtstart: utc(startsOn), tzid: null });
}

/**
 * Checks an RRULE given with or without its `RRULE:` prefix: a known FREQ of a day or longer, no
 * DTSTART inside (it is `starts_on`), at least one occurrence in the 20 years from `startsOn`.
 * @returns the rule in its normal form (e.g. `FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15`), or the reason
 */
export function parseRule(input: string, startsOn: string): ParsedRule {
  const text = input.trim().replace(/^RRULE:/i, '');
  if (text === '' || /[\r\n]/.test(text)) return { ok: false, reason: 'rrule must be one RRULE line, e.g. FREQ=YEARLY;BYMONTH=3' };
  if (/(^|;)DTSTART/i.test(text)) return { ok: false, reason: 'rrule must not carry DTSTART; the schedule\'s starts_on is its start' };
  let rule: Rule;
  try {
    rule = build(text, startsOn);
  } catch (err) {
    return { ok: false, reason: `rrule is not a valid RFC 5545 rule: ${(err as Error).message}` };
  }
  const freq = rule.origOptions.freq;
  const RRule = rruleClass();
  if (freq === undefined || ![RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY].includes(freq)) return { ok: false, reason: 'rrule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY' };
  const until = new Date(utc(startsOn).getTime());
  until.setUTCFullYear(until.getUTCFullYear() + MUST_OCCUR_WITHIN_YEARS);
  if (rule.between(utc(startsOn), until, true, (_d, i) => i < 1).length === 0) {
    return { ok: false, reason: `rrule has no occurrence in the ${MUST_OCCUR_WITHIN_YEARS} years from starts_on` };
  }
  const { dtstart: _start, tzid: _tzid, ...options } = rule.origOptions;
  return { ok: true, text: RRule.optionsToString(options).replace(/^RRULE:/, '') };
}

/**
 * The due dates of a stored rule from `from` to `to` (London dates, both included), at most `max`.
 * @returns YYYY-MM-DD dates, earliest first
 */
export function occurrencesBetween(text: string, startsOn: string, from: string, to: string, max = 366): string[] {
  if (to < from) return [];
  return build(text, startsOn).between(utc(from), utc(to), true, (_d, i) => i < max).map(iso);
}

/** The next `n` due dates on or after `from` (a London date). */
export function nextOccurrences(text: string, startsOn: string, from: string, n: number): string[] {
  const rule = build(text, startsOn);
  const out: string[] = [];
  let after = utc(from);
  let inclusive = true;
  while (out.length < n) {
    const d = rule.after(after, inclusive);
    if (!d) break;
    out.push(iso(d));
    after = d;
    inclusive = false;
  }
  return out;
}
