/** SQL of the CSRF tokens (src/http/csrf.ts has the rules; docs/security.md promise 6). */
import type { DbOrTrx } from '../db/types.ts';

/**
 * Stores a new token of an auth token or session and, in the same statement, deletes that
 * session's spent and expired ones.
 * @param tokenHash SHA-256 of the raw token (hex)
 */
export async function replaceCsrfTokens(db: DbOrTrx, t: { authTokenId: number; tokenHash: string; now: Date; expiresAt: Date }): Promise<void> {
  await db
    .with('spent', (q) =>
      q
        .deleteFrom('csrf_tokens')
        .where('auth_token_id', '=', t.authTokenId)
        .where((eb) => eb.or([eb('expires_at', '<=', t.now), eb('used_at', 'is not', null)]))
        .returning('id'),
    )
    .insertInto('csrf_tokens')
    .values({ auth_token_id: t.authTokenId, token_hash: t.tokenHash, created_at: t.now, expires_at: t.expiresAt })
    .execute();
}

/**
 * Marks the session's unused, unexpired token with this hash used, in one atomic UPDATE.
 * @returns true when a token was consumed
 */
export async function markCsrfTokenUsed(db: DbOrTrx, t: { authTokenId: number; tokenHash: string; now: Date }): Promise<boolean> {
  const result = await db
    .updateTable('csrf_tokens')
    .set({ used_at: t.now })
    .where('token_hash', '=', t.tokenHash)
    .where('auth_token_id', '=', t.authTokenId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', t.now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
