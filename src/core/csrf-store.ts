/**
 * Where CSRF tokens live (docs/security.md "CSRF"). With Redis (production), each token is one
 * key, `<prefix>csrf:<auth token id>:<SHA-256 of the token>`, holding its expiry in epoch
 * milliseconds and expiring with it: issuing is one SET, using is one GETDEL, so a token works
 * once and only for the session it was issued to, and a job creation's two requests write
 * nothing to the database for their tokens. Without Redis (the embedded database, or Redis
 * unreachable), tokens are rows of `csrf_tokens` (src/core/csrf.repository.ts).
 *
 * A token not found in Redis is looked for in the table, so one issued while Redis was
 * unreachable still works once afterwards; that costs a statement only for a token Redis does
 * not hold (a wrong, spent or expired one).
 */
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import { markCsrfTokenUsed, replaceCsrfTokens } from './csrf.repository.ts';

/** A token of one session: its SHA-256 (hex) and the auth token or session row it is bound to. */
export interface CsrfKey {
  authTokenId: number;
  tokenHash: string;
}

export class CsrfStore {
  private readonly db: Db;
  private readonly redis: Redis | undefined;
  private readonly prefix: string;

  /**
   * @param redis the shared client, or undefined: tokens in the database only
   * @param prefix the Redis key prefix (CARETAKER_REDIS_PREFIX)
   */
  constructor(db: Db, redis: Redis | undefined, prefix: string) {
    this.db = db;
    this.redis = redis;
    this.prefix = prefix;
  }

  private key(t: CsrfKey): string {
    return `${this.prefix}csrf:${t.authTokenId}:${t.tokenHash}`;
  }

  /**
   * Stores a new token until `expiresAt` (in the table when Redis fails).
   * @param now the service clock's time; `expiresAt - now` is the key's time to live
   */
  async issue(t: CsrfKey, now: Date, expiresAt: Date): Promise<void> {
    if (this.redis) {
      try {
        await this.redis.set(this.key(t), String(expiresAt.getTime()), 'PX', Math.max(1, expiresAt.getTime() - now.getTime()));
        return;
      } catch {
        // Redis unreachable: the table keeps it.
      }
    }
    // One statement: the session's spent and expired tokens go, the new one comes.
    await replaceCsrfTokens(this.db, { ...t, now, expiresAt });
  }

  /**
   * Uses the session's token with this hash if it is unused and unexpired at `now`: atomically,
   * so of two requests with one token exactly one gets true.
   * @returns true when the token was valid and is now spent
   */
  async use(t: CsrfKey, now: Date): Promise<boolean> {
    if (this.redis) {
      try {
        const expiresAt = await this.redis.getdel(this.key(t));
        if (expiresAt !== null) return Number(expiresAt) > now.getTime();
      } catch {
        // Redis unreachable: only tokens in the table can be checked.
      }
    }
    return markCsrfTokenUsed(this.db, { ...t, now });
  }
}
