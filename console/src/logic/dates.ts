/** Week arithmetic of the calendar page, on UTC dates written YYYY-MM-DD (the API's visit dates). */

/** The Monday (YYYY-MM-DD, UTC) of the week containing `iso`, or of this week. */
export function mondayOf(iso: string | null, today = new Date()): string {
  const d =
    iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  if (Number.isNaN(d.getTime())) return mondayOf(null, today);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** `iso` plus `days` days (YYYY-MM-DD). */
export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
