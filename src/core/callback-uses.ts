/**
 * Signed provider callbacks are accepted once (docs/security.md "One rule for every way in"). A
 * provider's signature proves who sent a request, not that it is new: the same signed request can
 * be sent again while it is fresh. Each callback's once-only value (Mailgun: its timestamp and
 * token) is claimed here before the callback does anything; a second claim of it fails until its
 * freshness window has passed, after which the signature check refuses it anyway.
 *
 * With Redis, a use is one key, `<prefix>callback:<provider>:<SHA-256 of the value>`, set with
 * SET NX PX (atomic: of two concurrent claims exactly one wins, on every instance). Without Redis
 * (the embedded database, or Redis unreachable) it is a row of `provider_callback_uses`; a claim
 * made while Redis is unreachable is checked there afterwards too, as CSRF tokens are
 * (src/core/csrf-store.ts).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import { claimUse, isUsed, releaseUse } from './callback-uses.repository.ts';

export class CallbackUseStore {
  private readonly db: Db;
  private readonly redis: Redis | undefined;
  private readonly prefix: string;

  /**
   * @param redis the shared client, or undefined: uses in the database only
   * @param prefix the Redis key prefix (CARETAKER_REDIS_PREFIX)
   */
  constructor(db: Db, redis: Redis | undefined, prefix: string) {
    this.db = db;
    this.redis = redis;
    this.prefix = prefix;
  }

  private static hash(value: string): string {
    return createHash('sha256').update(value, 'utf8').digest('hex');
  }

  private redisKey(provider: string, hash: string): string {
    return `${this.prefix}callback:${provider}:${hash}`;
  }

  /**
   * Claims a callback's once-only value until `expiresAt`.
   * @param provider 'mailgun', ...; value the provider's once-only value (any length: it is hashed)
   * @param now the service clock's time; `expiresAt - now` is how long the use is remembered
   * @returns true for the first claim; false when the value was already used and its use is in force
   */
  async claim(provider: string, value: string, now: Date, expiresAt: Date): Promise<boolean> {
    const key = CallbackUseStore.hash(value);
    const ttlMs = Math.max(1, expiresAt.getTime() - now.getTime());
    if (this.redis) {
      try {
        const set = await this.redis.set(this.redisKey(provider, key), '1', 'PX', ttlMs, 'NX');
        if (set === null) return false;
        // Claimed in Redis; one claimed in the table while Redis was unreachable still counts.
        return !(await isUsed(this.db, provider, key, now));
      } catch {
        // Redis unreachable: the table decides.
      }
    }
    return claimUse(this.db, { provider, key, now, expiresAt });
  }

  /** Gives a claimed value back (its callback failed before doing anything; the provider may retry it). */
  async release(provider: string, value: string): Promise<void> {
    const key = CallbackUseStore.hash(value);
    if (this.redis) await this.redis.del(this.redisKey(provider, key)).catch(() => undefined);
    await releaseUse(this.db, provider, key);
  }
}
