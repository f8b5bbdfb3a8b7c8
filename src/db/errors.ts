/** Recognising database errors that the services turn into API errors. */

/** True for a unique-constraint violation (PostgreSQL SQLSTATE 23505), on PGlite and PostgreSQL alike. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}
