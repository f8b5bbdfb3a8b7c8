/** The `from_date` / `to_date` query filters of the lists (docs/api.md, list filters; spec 4.6, 4.16). */
import { DAY_MS } from '../lib/clock.ts';
import { invalidParam } from '../core/errors.ts';

/** A half-open UTC range [from, to); either end may be open. */
export interface UtcRange {
  from: Date | undefined;
  to: Date | undefined;
}

/**
 * Turns ISO dates (YYYY-MM-DD, UTC) into a half-open range: `from` at 00:00Z of from_date, `to` at
 * 00:00Z of the day after to_date, so that to_date includes its whole day.
 * @throws 400 naming to_date when to_date is before from_date
 */
export function utcDayRange(fromDate: string | undefined, toDate: string | undefined): UtcRange {
  const from = fromDate ? new Date(`${fromDate}T00:00:00Z`) : undefined;
  const to = toDate ? new Date(new Date(`${toDate}T00:00:00Z`).getTime() + DAY_MS) : undefined;
  if (from && to && from >= to) throw invalidParam('to_date');
  return { from, to };
}
