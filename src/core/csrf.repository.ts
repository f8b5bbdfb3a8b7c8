/**
 * SQL of the CSRF tokens kept in the database (src/http/csrf.ts has the rules; docs/security.md
 * promise 6): all of them without Redis, and with Redis only those issued while it was unreachable
 * (src/core/csrf-store.ts). Without Redis both statements run once per CSRF-protected write, so
 * they are named prepared statements (src/db/prepared.ts).
 */
import { PreparedQuery, type Params } from '../db/prepared.ts';
import type { DbOrTrx } from '../db/types.ts';

interface NewToken {
  authTokenId: number;
  /** SHA-256 of the raw token (hex). */
  tokenHash: string;
  now: Date;
  expiresAt: Date;
}

const REPLACE = new PreparedQuery('csrf_replace', (db, _shape: 'one', p: Params<NewToken>) =>
  db
    .with('spent', (q) =>
      q
        .deleteFrom('csrf_tokens')
        .where('auth_token_id', '=', p('authTokenId'))
        .where((eb) => eb.or([eb('expires_at', '<=', p('now')), eb('used_at', 'is not', null)]))
        .returning('id'),
    )
    .insertInto('csrf_tokens')
    .values({ auth_token_id: p('authTokenId'), token_hash: p('tokenHash'), created_at: p('now'), expires_at: p('expiresAt') }),
);

const MARK_USED = new PreparedQuery('csrf_mark_used', (db, _shape: 'one', p: Params<Omit<NewToken, 'expiresAt'>>) =>
  db
    .updateTable('csrf_tokens')
    .set({ used_at: p('now') })
    .where('token_hash', '=', p('tokenHash'))
    .where('auth_token_id', '=', p('authTokenId'))
    .where('used_at', 'is', null)
    .where('expires_at', '>', p('now'))
    .returning('id'),
);

/**
 * Stores a new token of an auth token or session and, in the same statement, deletes that
 * session's spent and expired ones.
 * @param tokenHash SHA-256 of the raw token (hex)
 */
export async function replaceCsrfTokens(db: DbOrTrx, t: NewToken): Promise<void> {
  await REPLACE.run(db, 'one', t);
}

/**
 * Marks the session's unused, unexpired token with this hash used, in one atomic UPDATE.
 * @returns true when a token was consumed
 */
export async function markCsrfTokenUsed(db: DbOrTrx, t: Omit<NewToken, 'expiresAt'>): Promise<boolean> {
  return (await MARK_USED.run(db, 'one', t)).length === 1;
}
