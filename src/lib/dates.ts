/**
 * The one parser of calendar dates and timestamps on the wire (docs/security.md promise 27): ISO 8601
 * dates `YYYY-MM-DD` and RFC 3339 date-times, real calendar days only, years 1900 to 2999. Dates
 * outside that range (year 0000 on a certificate, 9999 on the calendar) are refused with 400 at
 * the edge, through the `date` and `date-time` formats of the request validators.
 */

/** Earliest year accepted on the wire. */
export const DATE_MIN_YEAR = 1900;
/** Latest year accepted on the wire. */
export const DATE_MAX_YEAR = 2999;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function validDay(y: number, m: number, d: number): boolean {
  if (y < DATE_MIN_YEAR || y > DATE_MAX_YEAR || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

/** True for a real calendar day `YYYY-MM-DD` in years 1900 to 2999. */
export function isValidIsoDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** True for an RFC 3339 date-time with an offset, in years 1900 to 2999. */
export function isValidIsoDateTime(text: string): boolean {
  const m = DATE_TIME_RE.exec(text);
  if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (h > 23 || min > 59 || s > 60) return false;
  const off = m[8]!;
  if (off.length === 6 && (Number(off.slice(1, 3)) > 23 || Number(off.slice(4, 6)) > 59)) return false;
  return !Number.isNaN(Date.parse(text.replace(' ', 'T')));
}

/**
 * Parses a validated `YYYY-MM-DD` as midnight UTC.
 * @returns the Date, or null when the text is not a valid date in range
 */
export function parseIsoDate(text: string): Date | null {
  return isValidIsoDate(text) ? new Date(`${text}T00:00:00Z`) : null;
}
