/**
 * London wall-clock times (where visits happen) to and from instants, whatever the browser's own
 * time zone: the visit windows and slots are typed as a London date and HH:MM and sent as UTC.
 */
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
});

function wall(t: number) {
  const p = Object.fromEntries(parts.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}`, asUtc: Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) };
}

/** The ISO instant of a London date (YYYY-MM-DD) and time (HH:MM). */
export function londonIso(date: string, time: string): string {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const offset = (t: number) => wall(t).asUtc - Math.floor(t / 60_000) * 60_000;
  let at = guess - offset(guess);
  at = guess - offset(at);
  return new Date(at).toISOString();
}

/** The London date (YYYY-MM-DD) and time (HH:MM) of an ISO instant. */
export function londonParts(iso: string): { date: string; time: string } {
  const w = wall(Date.parse(iso));
  return { date: w.date, time: w.time };
}
