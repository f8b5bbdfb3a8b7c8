/**
 * London weeks (Monday to Sunday) for the dashboard's weekly charts (docs/console.md "Charts"):
 * the Mondays of the last n weeks, the Monday of an instant's London date, and week labels.
 */

/** The London calendar date (YYYY-MM-DD) of an instant. */
export function londonDate(at: Date): string {
  return at.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** The Monday (YYYY-MM-DD) of the week holding the calendar date `date` (YYYY-MM-DD). */
export function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The Mondays of the `n` London weeks up to the one holding `now`, oldest first. */
export function lastWeeks(now: Date, n: number): string[] {
  const last = new Date(`${mondayOf(londonDate(now))}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(last);
    d.setUTCDate(d.getUTCDate() - 7 * (n - 1 - i));
    return d.toISOString().slice(0, 10);
  });
}

/** "2 Nov" (a chart's axis) or, with `long`, "Mon 2 Nov 2026" (its table), for a Monday YYYY-MM-DD. */
export function weekLabel(monday: string, long = false): string {
  const d = new Date(`${monday}T00:00:00Z`);
  const opts = { timeZone: 'UTC', day: 'numeric', month: 'short' } as const;
  if (!long) return d.toLocaleDateString('en-GB', opts);
  return `${d.toLocaleDateString('en-GB', { timeZone: 'UTC', weekday: 'short' })} ${d.toLocaleDateString('en-GB', { ...opts, year: 'numeric' })}`;
}
