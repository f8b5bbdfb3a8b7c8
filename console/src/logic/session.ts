/**
 * Session expiry as shown to the user (spec 5.2, 8: a browser session lasts 2 hours, ends after
 * 30 minutes without a request, or lasts 30 days with "remember me", which has no idle rule).
 * The server is the authority; this only tells the user when it will end.
 */

/** Idle limit of a browser session, in seconds (spec 8). */
export const IDLE_SECONDS = 30 * 60;
/** Active limit of a browser session without "remember me", in seconds (spec 8). */
export const ACTIVE_SECONDS = 2 * 60 * 60;

export interface SessionTimes {
  /** When the session ends at the latest (the server's `expires_at`). */
  absoluteAt: Date;
  /** When it ends if nothing more is done (null for a remember-me session). */
  idleAt: Date | null;
  /** The earlier of the two: when it will end. */
  endsAt: Date;
}

/**
 * The end times of a session.
 * @param expiresAt the session's absolute expiry (ISO date-time from GET /api/auth/me)
 * @param lastActivityMs epoch milliseconds of the last answered API request
 * @param rememberMe true for a 30-day session (no idle rule)
 */
export function sessionTimes(expiresAt: string, lastActivityMs: number, rememberMe: boolean): SessionTimes {
  const absoluteAt = new Date(expiresAt);
  const idleAt = rememberMe ? null : new Date(lastActivityMs + IDLE_SECONDS * 1000);
  const endsAt = idleAt && idleAt < absoluteAt ? idleAt : absoluteAt;
  return { absoluteAt, idleAt, endsAt };
}

/** A session whose absolute expiry is further away than the 2-hour active limit is a remember-me one. */
export function looksRemembered(expiresAt: string, nowMs: number): boolean {
  return new Date(expiresAt).getTime() - nowMs > ACTIVE_SECONDS * 1000 + 60_000;
}

/** "1 h 05 min", "12 min", "less than a minute" for a duration in milliseconds (negative: "ended"). */
export function describeRemaining(ms: number): string {
  if (ms <= 0) return 'ended';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} days`;
}
