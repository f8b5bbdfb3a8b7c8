/** Small helpers shared by the administration and agents services. */
import { isSysOps, type AuthContext } from '../../http/auth-context.ts';
import { conflict } from '../../http/errors.ts';

/**
 * The agency a caller's administration reads are limited to: null for SysOps (every agency), else
 * the caller's agency (-1, matching nothing, for an account without one).
 */
export function agencyScope(auth: AuthContext): number | null {
  return isSysOps(auth) ? null : (auth.agencyId ?? -1);
}

/**
 * A `.catch` handler turning a unique violation (a concurrent create or rename that slipped past
 * the service's own check) into 409 with `message`; any other error is rethrown.
 */
export function conflictOnUnique(message: string) {
  return (err: unknown): never => {
    if ((err as { code?: string }).code === '23505') throw conflict(message);
    throw err;
  };
}

/**
 * A LIKE pattern matching `text` anywhere, lower-cased, with the wildcards `%` and `_` (and the
 * escape character) of the user's text taken literally.
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
