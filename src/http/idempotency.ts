/**
 * Idempotency keys of creating requests, for every create that takes an `Idempotency-Key` header
 * (docs/api.md "Idempotency keys"; docs/jobs.md): a key is per account, kept 24 hours, stored with the SHA-256 of
 * method, path and canonical body and with the first response. The claim is an insert in the
 * creating transaction, so two concurrent first uses of one key create one record: the second
 * waits on the first's row (PostgreSQL) or runs after it (PGlite), then replays its response.
 */
import { createHash } from 'node:crypto';
import type { AppDeps } from '../app-deps.ts';
import { claimScope } from '../db/idempotency-claim.ts';
import { claimKey, findKey, KeyTaken, storeResponse, type IdempotencyClaim } from '../db/idempotency.repository.ts';
import type { Trx } from '../db/types.ts';
import { conflict } from '../core/errors.ts';

export { IDEMPOTENCY_TTL_S } from '../db/idempotency.repository.ts';

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

/**
 * The first response for a repeated key.
 * @throws 409 'Idempotency-Key reused with a different body' when the hashes differ
 */
export function replay(row: { request_hash: string; response_status: number | null; response_body: unknown }, hash: string): { status: number; body: unknown } {
  if (row.request_hash !== hash || row.response_status === null) throw conflict('Idempotency-Key reused with a different body');
  const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
  return { status: row.response_status, body };
}

/** The outcome of a create: the HTTP status and the response body (the envelope) to send and store. */
export interface CreateResponse<T> {
  status: number;
  body: T;
}

/**
 * Runs a create under an optional Idempotency-Key: the first request with a key runs `create` in
 * a transaction that also claims the key and stores the response; a repeat (same account, key and
 * body, within IDEMPOTENCY_TTL_S) gets the stored response with `replayed: true` and creates
 * nothing. Two concurrent first uses of one key create one record.
 * @param request.route "METHOD path" hashed with the body, e.g. 'POST /api/jobs/manage'
 * @param create writes the record in `trx` and returns the status and envelope to send; `last`
 *   is true when nothing runs in `trx` after it (it may then end the transaction with its last
 *   statements: src/db/pipeline.ts pipelinedCommit), false when the answer is stored after it
 * @throws 409 'Idempotency-Key reused with a different body'; whatever `create` throws (nothing is
 *   written then, the claim included)
 */
export async function withIdempotency<T>(
  deps: AppDeps,
  request: { userId: number; key: string | undefined; route: string; body: unknown },
  create: (trx: Trx, last: boolean) => Promise<CreateResponse<T>>,
): Promise<CreateResponse<T> & { replayed: boolean }> {
  // The request pipeline holds this request's key (src/http/idempotency-pipeline.ts): it replays,
  // claims the key in the first transaction and stores the answer, so only the create runs here.
  if (claimScope.getStore()) return { ...(await deps.db.transaction().execute((trx) => create(trx, true))), replayed: false };
  const claim: IdempotencyClaim | undefined = request.key ? { userId: request.userId, key: request.key, hash: requestHash(request.route, request.body) } : undefined;
  const replayStored = async (): Promise<(CreateResponse<T> & { replayed: boolean }) | undefined> => {
    if (!claim) return undefined;
    const stored = await findKey(deps.db, claim.userId, claim.key, deps.clock.now());
    if (!stored) return undefined;
    const { status, body } = replay(stored, claim.hash);
    return { status, body: body as T, replayed: true };
  };
  const earlier = await replayStored();
  if (earlier) return earlier;
  try {
    const response = await deps.db.transaction().execute(async (trx) => {
      if (claim) await claimKey(trx, claim, deps.clock.now());
      const created = await create(trx, !claim);
      if (claim) await storeResponse(trx, claim, created.status, created.body);
      return created;
    });
    return { ...response, replayed: false };
  } catch (err) {
    if (!(err instanceof KeyTaken) || !claim) throw err;
    const concurrent = await replayStored();
    if (!concurrent) throw err;
    return concurrent;
  }
}
