/**
 * A source of the current time. Every rule that depends on time (token expiry, session idle time,
 * CSRF lifetime, activity timestamps) reads it from a Clock, so tests can move time forward
 * instead of waiting.
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests and deterministic data generation. */
export class ManualClock implements Clock {
  private current: number;

  /** @param start the initial instant (default: the real current time) */
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock forward by `seconds` (may be fractional). */
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }

  /** Sets the clock to an absolute instant. */
  set(at: Date): void {
    this.current = at.getTime();
  }
}

/** Adds `seconds` to a date and returns a new Date. */
export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

export const SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;

/** A timestamp as an ISO 8601 UTC string (the wire form of every date-time). */
export function toIso(d: Date | string): string {
  return new Date(d).toISOString();
}

/** toIso, passing null through. */
export function toIsoOrNull(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

/** Milliseconds in a day (24 hours; calendar-day arithmetic in London time is in modules/calendar). */
export const DAY_MS = 86_400_000;
