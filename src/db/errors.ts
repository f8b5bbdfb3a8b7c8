/** Recognising database errors that the services turn into API errors. */

/** True for a unique-constraint violation (PostgreSQL SQLSTATE 23505), on PGlite and PostgreSQL alike. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

/** SQLSTATEs of a connection the server ended: administrator command or crash recovery (57P01-03), the socket gone (08003, 08006). */
const TERMINATED_CODES = new Set(['57P01', '57P02', '57P03', '08003', '08006']);

/**
 * True when `err` says the database server ended the connection the statement ran on: one of the
 * SQLSTATEs above, or pg's "Connection terminated" when the socket closed. Such a connection is
 * never reused (src/db/pg-driver.ts) and a read that failed on it runs once more
 * (src/http/read-handlers.ts).
 */
export function isTerminatedConnection(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && TERMINATED_CODES.has(e.code)) return true;
  return typeof e.message === 'string' && /Connection terminated|terminating connection/i.test(e.message);
}
