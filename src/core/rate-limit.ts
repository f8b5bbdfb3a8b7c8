/**
 * Rate limiting (spec 7, 8; docs/security.md promises 13, 14, 20): fixed windows counted per key
 * through rate-limiter-flexible, in Redis when REDIS_URL is set (so every instance shares the
 * counters) and in process memory otherwise.
 *
 * Redis unreachable: a request on an ordinary route is counted in memory instead (the service keeps
 * serving); a request on a route marked `failClosed` (login and token issuing) is refused with 503.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';

/** The outcome of one counted request. */
export interface LimitResult {
  allowed: boolean;
  /** Requests allowed per window (X-RateLimit-Limit). */
  limit: number;
  /** Requests left in the current window (X-RateLimit-Remaining). */
  remaining: number;
  /** Unix time in seconds when the window resets (X-RateLimit-Reset). */
  resetAt: number;
  /** Seconds until a refused caller may retry (Retry-After). */
  retryAfter: number;
}

export interface LimitOptions {
  /** Refuse with 503 instead of counting in memory when Redis is unreachable. */
  failClosed?: boolean;
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

/** One counter of a request: its key, and the requests allowed per window. */
export interface Counter {
  key: string;
  max: number;
}

/** What `consumeRequest` found: the counters, and the value of the key read in the same trip. */
export interface RequestCount {
  first: LimitResult;
  /** null when no second counter was given, or when the first refused (the second is then not counted). */
  second: LimitResult | null;
  /** null when no third counter was given, or when an earlier one refused (the third is then not counted). */
  third: LimitResult | null;
  /** The value read (empty string when unset), or null when it could not be read (Redis unreachable, or memory mode). */
  read: string | null;
}

/**
 * A request's counters and one read in a single Redis round trip: rate-limiter-flexible's
 * fixed-window count (same keys `<prefix>rl:<key>`, same expiry rules, so `consume`, `peek`,
 * `refund` and `reset` see the same counts), run for the first counter, then for the second only
 * when the first allows, then for the third only when both before it allow, then a GET. Its script
 * creates the key with `SET key 0 EX win NX` before the INCRBY; here the INCRBY creates it and the
 * PTTL that follows finds no expiry (-1) and sets it, which leaves the same count and expiry with
 * one command less per counter in a window's later requests.
 * KEYS: first, second, third, read. ARGV: window seconds, first max, second max ('' for none),
 * third max ('' for none).
 */
const COUNT_REQUEST_LUA = `
local function incr(key, win)
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, win)
    ttl = 1000 * win
  end
  return {consumed, ttl}
end
local a = incr(KEYS[1], ARGV[1])
local allowed = a[1] <= tonumber(ARGV[2])
local b = {-1, -1}
if ARGV[3] ~= '' and allowed then
  b = incr(KEYS[2], ARGV[1])
  allowed = b[1] <= tonumber(ARGV[3])
end
local c = {-1, -1}
if ARGV[4] ~= '' and allowed then c = incr(KEYS[3], ARGV[1]) end
local v = redis.call('get', KEYS[4])
if not v then v = '' end
return {a[1], a[2], b[1], b[2], c[1], c[2], v}
`;

type CountRequestCommand = (first: string, second: string, third: string, read: string, windowS: string, firstMax: string, secondMax: string, thirdMax: string) => Promise<[number, number, number, number, number, number, string]>;

/** Counters shared by the whole process; one per app. */
export class RateLimitStore {
  private readonly limiters = new Map<string, { primary: Limiter; fallback: RateLimiterMemory }>();

  private readonly redis: Redis | undefined;
  private readonly prefix: string;

  /**
   * Defines every Lua command the store uses on the client now, before any request: a pipeline
   * (an explicit one, or ioredis's auto-pipeline of one tick on a client with `enableAutoPipelining`;
   * the server's own client has it off, src/main/runtime.ts) copies the client's commands when it
   * is created, so a command defined while such a pipeline is open is missing from it, and
   * ioredis then misaligns the pipeline's replies and throws
   * `results[i] is not iterable` outside any request (the process dies). rate-limiter-flexible's
   * RateLimiterRedis defines its `rlflxIncr` in its constructor; the first one is therefore built
   * here. Later limiters (other limits and windows) redefine the same name with the same script,
   * which an open pipeline already holds.
   * @param redis connected ioredis client, or undefined for memory only
   * @param prefix key prefix in Redis
   * @param defaults limits known at start (max, window seconds): their limiters are built now
   */
  constructor(redis: Redis | undefined, prefix: string, defaults: ReadonlyArray<{ max: number; windowS: number }> = []) {
    this.redis = redis;
    this.prefix = prefix;
    redis?.defineCommand('caretakerCountRequest', { numberOfKeys: 4, lua: COUNT_REQUEST_LUA });
    this.pair(1, 1);
    for (const d of defaults) this.pair(d.max, d.windowS);
  }

  /**
   * Counts one request against up to three counters (the address, the account, the agency) in one
   * round trip, and reads `readKey` (a full Redis key) in the same trip. A counter is counted only
   * when every one before it allows, as `consume` calls in a row would. In memory mode, or when
   * Redis fails, the counters go through `consume` (with its fallback and failClosed rules) and
   * `read` is null.
   * @param windowS window length in seconds, shared by the counters
   * @throws AppError('unavailable') when Redis is down and options.failClosed is set
   */
  async consumeRequest(first: Counter, second: Counter | null, third: Counter | null, windowS: number, readKey: string, options: LimitOptions = {}): Promise<RequestCount> {
    const command = (this.redis as unknown as { caretakerCountRequest?: CountRequestCommand } | undefined)?.caretakerCountRequest;
    if (command) {
      const key = (k: string) => `${this.prefix}rl:${k}`;
      try {
        const [a, aTtl, b, bTtl, c, cTtl, read] = await command.call(
          this.redis, key(first.key), key(second?.key ?? first.key), key(third?.key ?? first.key), readKey,
          String(windowS), String(first.max), second ? String(second.max) : '', third ? String(third.max) : '',
        );
        const result = (consumed: number, ttl: number, max: number): LimitResult => {
          const allowed = consumed <= max;
          const msLeft = Math.max(0, ttl);
          return {
            allowed,
            limit: max,
            remaining: allowed ? Math.max(0, max - consumed) : 0,
            resetAt: Math.ceil((Date.now() + msLeft) / 1000),
            retryAfter: Math.max(1, Math.ceil(msLeft / 1000)),
          };
        };
        return {
          first: result(a, aTtl, first.max),
          second: second && b >= 0 ? result(b, bTtl, second.max) : null,
          third: third && c >= 0 ? result(c, cTtl, third.max) : null,
          read,
        };
      } catch {
        // Redis unreachable: count through consume, which falls back to memory or refuses.
      }
    }
    const firstResult = await this.consume(first.key, first.max, windowS, options);
    const secondResult = second && firstResult.allowed ? await this.consume(second.key, second.max, windowS, options) : null;
    const thirdResult = third && firstResult.allowed && secondResult?.allowed !== false ? await this.consume(third.key, third.max, windowS, options) : null;
    return { first: firstResult, second: secondResult, third: thirdResult, read: null };
  }

  get backend(): 'redis' | 'memory' {
    return this.redis ? 'redis' : 'memory';
  }

  private pair(max: number, windowS: number) {
    const id = `${max}:${windowS}`;
    let entry = this.limiters.get(id);
    if (!entry) {
      const fallback = new RateLimiterMemory({ points: max, duration: windowS, keyPrefix: 'mem' });
      const primary = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            points: max,
            duration: windowS,
            keyPrefix: `${this.prefix}rl`,
            rejectIfRedisNotReady: true,
          })
        : fallback;
      entry = { primary, fallback };
      this.limiters.set(id, entry);
    }
    return entry;
  }

  /**
   * Counts one request against `key`.
   * @param max requests allowed per window
   * @param windowS window length in seconds
   * @throws AppError('unavailable') when Redis is down and options.failClosed is set
   */
  async consume(key: string, max: number, windowS: number, options: LimitOptions = {}): Promise<LimitResult> {
    const { primary, fallback } = this.pair(max, windowS);
    try {
      return toResult(await primary.consume(key, 1), max, true);
    } catch (err) {
      if (err instanceof RateLimiterRes) return toResult(err, max, false);
      if (options.failClosed) throw new AppError('unavailable');
      try {
        return toResult(await fallback.consume(key, 1), max, true);
      } catch (inner) {
        if (inner instanceof RateLimiterRes) return toResult(inner, max, false);
        throw inner;
      }
    }
  }

  /**
   * Reads the count of `key` without adding to it.
   * @returns the state; `allowed` is false when the window is already used up
   */
  async peek(key: string, max: number, windowS: number, options: LimitOptions = {}): Promise<LimitResult> {
    const { primary, fallback } = this.pair(max, windowS);
    let res: RateLimiterRes | null;
    try {
      res = await primary.get(key);
    } catch {
      if (options.failClosed) throw new AppError('unavailable');
      res = await fallback.get(key);
    }
    if (!res) return { allowed: true, limit: max, remaining: max, resetAt: nowS() + windowS, retryAfter: 0 };
    return toResult(res, max, res.consumedPoints < max);
  }

  /**
   * Gives back `points` counted against `key` (a reservation that turned out not to be a failure).
   * Works on the memory and the Redis store alike; a Redis error is ignored (the count only errs
   * towards refusing).
   */
  async refund(key: string, max: number, windowS: number, points = 1): Promise<void> {
    const { primary, fallback } = this.pair(max, windowS);
    await Promise.allSettled(primary === fallback ? [primary.reward(key, points)] : [primary.reward(key, points), fallback.reward(key, points)]);
  }

  /** Forgets the count of `key` (after a successful login, for example). */
  async reset(key: string, max: number, windowS: number): Promise<void> {
    const { primary, fallback } = this.pair(max, windowS);
    await Promise.allSettled([primary.delete(key), fallback.delete(key)]);
  }
}

function nowS(): number {
  return Math.floor(Date.now() / 1000);
}

function toResult(res: RateLimiterRes, max: number, allowed: boolean): LimitResult {
  const msLeft = Math.max(0, res.msBeforeNext);
  return {
    allowed,
    limit: max,
    remaining: Math.max(0, allowed ? res.remainingPoints : 0),
    resetAt: Math.ceil((Date.now() + msLeft) / 1000),
    retryAfter: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}

/** Headers sent with every limited response (spec 7). */
export function rateLimitHeaders(r: LimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(r.limit),
    'x-ratelimit-remaining': String(r.remaining),
    'x-ratelimit-reset': String(r.resetAt),
  };
  if (!r.allowed) headers['retry-after'] = String(r.retryAfter);
  return headers;
}

/** The 429 error carrying the spec's body fields: message, limit, retry_after. */
export function rateLimitError(r: LimitResult): AppError {
  const err = new AppError('rate_limited', undefined, {
    message: `Too many requests. Try again in ${r.retryAfter} seconds.`,
    limit: r.limit,
    retry_after: r.retryAfter,
  });
  err.headers = rateLimitHeaders({ ...r, allowed: false, remaining: 0 });
  return err;
}
