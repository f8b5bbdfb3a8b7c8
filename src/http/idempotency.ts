/**
 * Idempotency keys of creating requests (API.md conventions; docs/jobs.md; SECURITY.md anchor
 * "Stripe's idempotency keys"): a key is per account, kept 24 hours, stored with the SHA-256 of
 * method, path and canonical body and with the first response. The claim is an insert in the
 * creating transaction, so two concurrent first uses of one key create one record: the second
 * waits on the first's row (PostgreSQL) or runs after it (PGlite), then replays its response.
 */
import { createHash } from 'node:crypto';
import { addSeconds, SECONDS } from '../../lib/clock.ts';
import { conflict } from '../../http/errors.ts';
import type { DbOrTrx } from '../../db/types.ts';

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

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .filter((k) => k !== 'csrf_token')
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** SHA-256 (hex) of "METHOD path" and the body as canonical JSON (sorted keys, no csrf_token). */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(`${route}\n${JSON.stringify(canonical(body ?? null))}`).digest('hex');
}

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

/**
 * The first response for a repeated key.
 * @throws 409 'Idempotency-Key reused with a different body' when the hashes differ
 */
export function replay(row: { request_hash: string; response_status: number | null; response_body: unknown }, hash: string): { status: number; body: unknown } {
  if (row.request_hash !== hash || row.response_status === null) throw conflict('Idempotency-Key reused with a different body');
  const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
  return { status: row.response_status, body };
}
