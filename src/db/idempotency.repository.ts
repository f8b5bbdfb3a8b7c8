/**
 * SQL of the idempotency keys of creating requests (src/http/idempotency.ts has the rules; docs/api.md
 * "Idempotency keys"): a key per account, kept IDEMPOTENCY_TTL_S seconds, with the first response.
 */
import type { Insertable } from 'kysely';
import { addSeconds, SECONDS } from '../lib/clock.ts';
import type { IdempotencyKeyTable } from './schema.ts';
import type { DbOrTrx } from './types.ts';

/** How long a key is kept, in seconds. */
export const IDEMPOTENCY_TTL_S = 24 * SECONDS.hour;

export interface IdempotencyClaim {
  userId: number;
  key: string;
  /** requestHash(...) of the request. */
  hash: string;
}

/** Thrown inside the creating transaction when another request already holds the key. */
export class KeyTaken extends Error {}

/** The stored, unexpired key of an account, or undefined. */
export function findKey(db: DbOrTrx, userId: number, key: string, now: Date) {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response_status', 'response_body'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Claims the key inside the creating transaction (drops an expired row of the same key and the
 * account's other expired keys first).
 * @throws KeyTaken when an unexpired row exists (committed by a concurrent request)
 */
export async function claimKey(trx: DbOrTrx, claim: IdempotencyClaim, now: Date): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('user_id', '=', claim.userId).where('expires_at', '<=', now).execute();
  const row = await trx
    .insertInto('idempotency_keys')
    .values({ user_id: claim.userId, key: claim.key, request_hash: claim.hash, created_at: now, expires_at: addSeconds(now, IDEMPOTENCY_TTL_S) })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!row) throw new KeyTaken();
}

/** Stores the response of the claimed key in the same transaction. */
export async function storeResponse(trx: DbOrTrx, claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: JSON.stringify(body) })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .execute();
}


/** What the request pipeline stores of an answer (src/http/idempotency-pipeline.ts): status, body text, kept headers as JSON. */
export interface StoredAnswer {
  response_status: number;
  response_text: string;
  response_headers: string;
}

/** The unexpired key of an account with its stored answer (if any), for the request pipeline; undefined when none. */
export function findStoredAnswer(db: DbOrTrx, userId: number, key: string, now: Date) {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'route', 'response_status', 'response_text', 'response_body', 'response_headers'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Deletes an account's key (a lone write failed after claiming it: the retry may use it again). */
export async function releaseKey(db: DbOrTrx, userId: number, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
}

/** Stores the answer of a claimed key. */
export async function storeAnswer(db: DbOrTrx, userId: number, key: string, answer: StoredAnswer): Promise<void> {
  await db.updateTable('idempotency_keys').set(answer).where('user_id', '=', userId).where('key', '=', key).execute();
}

/** Inserts a key with its answer unless the account already holds it (ON CONFLICT DO NOTHING). */
export async function insertAnswered(db: DbOrTrx, row: Insertable<IdempotencyKeyTable> & StoredAnswer): Promise<void> {
  await db.insertInto('idempotency_keys').values(row).onConflict((oc) => oc.columns(['user_id', 'key']).doNothing()).execute();
}
