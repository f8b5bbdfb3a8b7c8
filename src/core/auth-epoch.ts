/**
 * The auth epoch (docs/security.md, "Token lookup cache"): a number that changes whenever a
 * committed write may have changed what a token stands for (revocation, password change, account
 * status, role or permissions). The services that make such writes run them through
 * `changeIdentity` below, which moves the epoch on once the transaction has committed. A cached
 * token lookup is used only while the epoch it was loaded under is still the current one, so a
 * revocation is seen by the very next request on every instance.
 *
 * With Redis the epoch is a counter in Redis (`<prefix>auth-epoch`), read in the same round trip
 * as the request's rate-limit counters (RateLimitStore.consumeRequest), plus this process's own
 * count of bumps. Without Redis (PGlite, one process) it is the process's count alone.
 */
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import type { Trx } from '../db/types.ts';

export class AuthEpoch {
  /** The Redis key of the shared counter, or undefined in memory mode. */
  readonly redisKey: string | undefined;
  private readonly redis: Redis | undefined;
  private local = 0;
  private lastShared: string | null = null;
  private lastReadAt = 0;

  /**
   * @param redis the shared client, or undefined for memory mode
   * @param prefix the Redis key prefix (CARETAKER_REDIS_PREFIX)
   */
  constructor(redis: Redis | undefined, prefix: string) {
    this.redis = redis;
    this.redisKey = redis ? `${prefix}auth-epoch` : undefined;
  }

  /**
   * The current epoch as an opaque string.
   * @param shared the value of the Redis counter read this request ('' when unset), or null when
   *   Redis is configured but could not be read: then the result is null and no cached lookup may be used
   */
  current(shared: string | null): string | null {
    if (!this.redis) return `m${this.local}`;
    if (shared !== null) {
      this.lastShared = shared;
      this.lastReadAt = Date.now();
    }
    return shared === null ? null : `${shared}:${this.local}`;
  }

  /**
   * The epoch as last read by this process (any request's round trip) when that read is at most
   * `maxAgeMs` old, else null: what an overlapped read (src/http/pipeline.ts) authenticates under
   * while its own read is in flight, checked against that read before its answer is sent.
   * @param maxAgeMs how old the last read may be, in milliseconds
   */
  lastKnown(maxAgeMs: number): string | null {
    if (!this.redis) return `m${this.local}`;
    if (this.lastShared === null || Date.now() - this.lastReadAt > maxAgeMs) return null;
    return `${this.lastShared}:${this.local}`;
  }

  /**
   * Moves the epoch on, here and (with Redis) for every instance. A Redis failure is ignored:
   * instances that cannot read Redis do not use their caches either, and every cached lookup
   * expires after a few seconds anyway.
   */
  async bump(): Promise<void> {
    this.local += 1;
    if (this.redis && this.redisKey) await this.redis.incr(this.redisKey).catch(() => undefined);
  }
}

/**
 * Runs `work` in one transaction and, once it has committed, moves the auth epoch on (docs/security.md
 * "Token lookup cache"): the one way a service writes what a token stands for (a token revoked, an
 * account's status, role, scope or password changed, a role's level or permissions changed or the
 * role deleted, an agency suspended or reactivated). New tokens and accounts, token touches and
 * login stamps need it not: no cached lookup changes.
 * @param deps the database and the epoch (AppDeps)
 * @returns what `work` returns, after the COMMIT and the bump
 * @throws what `work` or the COMMIT throws (then nothing is committed and the epoch stays)
 */
export async function changeIdentity<T>(deps: { db: Db; authEpoch: AuthEpoch }, work: (trx: Trx) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(work);
  await deps.authEpoch.bump();
  return result;
}
