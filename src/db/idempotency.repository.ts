/**
 * SQL of the Idempotency-Key rows (src/http/idempotency.ts has the rules; docs/api.md
 * "Idempotency-Key"): a key per account, kept IDEMPOTENCY_TTL_S seconds, claimed before the write
 * runs and holding the first answer once it is sent.
 */
import { SECONDS } from '../lib/clock.ts';
import type { DbOrTrx } from './types.ts';

/** How long a key is kept, in seconds. */
export const IDEMPOTENCY_TTL_S = 24 * SECONDS.hour;

/** A key's claim: the row written before the write runs, without an answer yet. */
export interface KeyClaimRow {
  user_id: number;
  key: string;
  /** SHA-256 (hex) of the route and the body. */
  request_hash: string;
  /** "METHOD /path?query". */
  route: string;
  created_at: Date;
  expires_at: Date;
}

/**
 * Claims a key in one statement: inserts its row, or takes over the account's row of that key when
 * it has expired (`now` at or after its expires_at). Runs on its own (autocommit), so the claim is
 * visible to a concurrent request with the same key at once.
 * @returns true when this call holds the key; false when an unexpired row exists (another request's)
 */
export async function claimKey(db: DbOrTrx, row: KeyClaimRow, now: Date): Promise<boolean> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'key'])
        .doUpdateSet({
          request_hash: row.request_hash,
          route: row.route,
          created_at: row.created_at,
          expires_at: row.expires_at,
          response_status: null,
          response_body: null,
          response_text: null,
          response_headers: null,
        })
        .where('idempotency_keys.expires_at', '<=', now),
    )
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** What is stored of an answer: status, body text, kept headers as JSON. */
export interface StoredAnswer {
  response_status: number;
  response_text: string;
  response_headers: string;
}

/** The unexpired key of an account with its stored answer (if any); undefined when none. */
export function findStoredAnswer(db: DbOrTrx, userId: number, key: string, now: Date) {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'route', 'response_status', 'response_text', 'response_body', 'response_headers'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Sets the body hash of a claimed key (a multipart body's, known once read: src/http/upload.ts). */
export async function setClaimHash(db: DbOrTrx, userId: number, key: string, hash: string): Promise<void> {
  await db.updateTable('idempotency_keys').set({ request_hash: hash }).where('user_id', '=', userId).where('key', '=', key).execute();
}

/** Deletes an account's key (its request failed: the retry may use it again). */
export async function releaseKey(db: DbOrTrx, userId: number, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
}

/** Stores the answer of a claimed key. */
export async function storeAnswer(db: DbOrTrx, userId: number, key: string, answer: StoredAnswer): Promise<void> {
  await db.updateTable('idempotency_keys').set(answer).where('user_id', '=', userId).where('key', '=', key).execute();
}
