/**
 * Planned maintenance recurrence in plain words for the compliance page (docs/compliance.md
 * "Planned maintenance", "In the console"): the form asks "every 12 months" and sends the
 * RFC 5545 rule the API takes (`FREQ=MONTHLY;INTERVAL=12`); a stored rule is read back as
 * "every 5 years". London dates are shown as "Thu 26 Nov 2026".
 */

/** The units a schedule repeats in, as the form offers them, with the RRULE FREQ of each. */
export const RECUR_UNITS = { years: 'YEARLY', months: 'MONTHLY', weeks: 'WEEKLY', days: 'DAILY' } as const;
export type RecurUnit = keyof typeof RECUR_UNITS;

const SINGULAR: Record<RecurUnit, string> = { years: 'year', months: 'month', weeks: 'week', days: 'day' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The RRULE of "every `every` `unit`" (`every` from 1), e.g. (12, 'months') -> "FREQ=MONTHLY;INTERVAL=12". */
export function buildRule(every: number, unit: RecurUnit): string {
  const freq = `FREQ=${RECUR_UNITS[unit]}`;
  return every > 1 ? `${freq};INTERVAL=${every}` : freq;
}

/**
 * A stored rule as the form's fields: how many of which unit, and whether it says more than that
 * (BYMONTH, BYDAY, COUNT...), which the plain form cannot show and keeps unless changed.
 */
export function ruleParts(rrule: string): { every: number; unit: RecurUnit; more: boolean } {
  const parts = Object.fromEntries(
    rrule
      .replace(/^RRULE:/i, '')
      .split(';')
      .filter(Boolean)
      .map((p) => p.split('=') as [string, string]),
  );
  const unit = (Object.entries(RECUR_UNITS).find(([, f]) => f === parts.FREQ)?.[0] ?? 'years') as RecurUnit;
  const every = Math.max(1, Number.parseInt(parts.INTERVAL ?? '1', 10) || 1);
  const more = Object.keys(parts).some((k) => k !== 'FREQ' && k !== 'INTERVAL');
  return { every, unit, more };
}

/** "every year", "every 12 months", "every 5 years"; "(with extra rules)" after a rule that says more. */
export function ruleWords(rrule: string): string {
  const { every, unit, more } = ruleParts(rrule);
  const base = every === 1 ? `every ${SINGULAR[unit]}` : `every ${every} ${unit}`;
  return more ? `${base} (with extra rules: ${rrule.replace(/^RRULE:/i, '')})` : base;
}

/** "raised 28 days before" / "raised on the day it is due". */
export function leadWords(days: number): string {
  if (days === 0) return 'raised on the day it is due';
  return `raised ${days} ${days === 1 ? 'day' : 'days'} before`;
}

/** A London calendar date (YYYY-MM-DD) as "Thu 26 Nov 2026"; '' for none. */
export function longDate(iso: string | null | undefined): string {
  if (!iso || !/^\d{4}-\d{2}-\d{2}/.test(iso)) return '';
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Today's London date (YYYY-MM-DD). */
export function londonToday(now = new Date()): string {
  return now.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** A custom type's code from its name: "PAT testing" -> "pat_testing" (the API's `^[a-z0-9_]{1,40}$`). */
export function typeCodeOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
}
