/**
 * Local time in Europe/London (where the agencies' slots are written, e.g. "08:00-12:00") to and
 * from UTC instants, through Intl (no library needed for one fixed zone).
 */
const ZONE = 'Europe/London';
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function wallClock(instant: Date) {
  const p = Object.fromEntries(parts.formatToParts(instant).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), mi: Number(p.minute), s: Number(p.second) };
}

/** Minutes London is ahead of UTC at `instant` (0 in winter, 60 in summer). */
export function londonOffsetMinutes(instant: Date): number {
  const w = wallClock(instant);
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The London calendar date of an instant, as YYYY-MM-DD. */
export function londonDate(instant: Date): string {
  const w = wallClock(instant);
  return `${w.y}-${String(w.m).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
}

/** The London wall-clock time of an instant, as HH:MM. */
export function londonTime(instant: Date): string {
  const w = wallClock(instant);
  return `${String(w.h).padStart(2, '0')}:${String(w.mi).padStart(2, '0')}`;
}

/**
 * The UTC instant of a London wall-clock time.
 * @param date YYYY-MM-DD
 * @param time HH:MM (default 00:00)
 */
export function londonToUtc(date: string, time = '00:00'): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const guess = Date.UTC(y, m - 1, d, h, mi);
  let at = guess - londonOffsetMinutes(new Date(guess)) * 60_000;
  at = guess - londonOffsetMinutes(new Date(at)) * 60_000;
  return new Date(at);
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole days from date `a` to date `b` (YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A London date for people, e.g. "Thu 26 Nov 2026". @param date YYYY-MM-DD */
export function humanDate(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  return `${DAY_NAMES[d.getUTCDay()]} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** An instant for people in London time, e.g. "Thu 26 Nov 2026 14:05 GMT" (BST in summer). */
export function humanDateTime(instant: Date): string {
  return `${humanDate(londonDate(instant))} ${londonTime(instant)} ${londonOffsetMinutes(instant) === 0 ? 'GMT' : 'BST'}`;
}

/** Adds whole months to a YYYY-MM-DD date (the 31st becomes the month's last day). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * An instant's London date as people read it in a message or a document: `Thu 26 Nov 2026`.
 */
export function formatLondonDate(instant: Date): string {
  return humanDate(londonDate(instant));
}

/**
 * An instant as a London date and 24-hour time for people: `Thu 26 Nov 2026, 18:07` (GMT or BST
 * as in force on that day; messages never show ISO timestamps: docs/messaging.md, "Dates").
 */
export function formatLondonDateTime(instant: Date): string {
  return `${formatLondonDate(instant)}, ${londonTime(instant)}`;
}

/**
 * A span of time for people in London time: `Thu 26 Nov 2026, 09:00-12:00`; a span over midnight
 * names both days (`Thu 26 Nov 2026, 22:00 - Fri 27 Nov 2026, 02:00`).
 */
export function formatLondonSpan(start: Date, end: Date): string {
  const sameDay = londonDate(start) === londonDate(end) || (londonTime(end) === '00:00' && londonDate(new Date(end.getTime() - 60_000)) === londonDate(start));
  if (sameDay) return `${formatLondonDate(start)}, ${londonTime(start)}-${londonTime(end) === '00:00' ? '24:00' : londonTime(end)}`;
  return `${formatLondonDateTime(start)} - ${formatLondonDateTime(end)}`;
}
