/**
 * The start-up crash under load (docs/operations.md "Under load"): with ioredis auto-pipelining, a
 * Lua command defined while a pipeline of the same tick is open is missing from that pipeline,
 * and ioredis then throws `results[i] is not iterable` outside any request. The rate-limit store
 * defines its commands when it is built (src/core/rate-limit.ts), so a limiter first used in the
 * same tick as another Redis command is safe. The server's own client no longer auto-pipelines
 * (src/main/runtime.ts); the store is checked here on a client that does, as it ran when the
 * crash was found. Needs Redis.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimitStore } from '../../src/core/rate-limit.ts';
import { Redis } from 'ioredis';
import { waitForRedis } from '../../src/main/runtime.ts';
import { skipWithout } from '../helpers/skip.ts';

describe.skipIf(skipWithout(process.env.REDIS_URL, 'needs Redis: set REDIS_URL'))('rate limiters under auto-pipelining', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { enableOfflineQueue: false, enableAutoPipelining: true, maxRetriesPerRequest: 1 });
  const prefix = `caretaker-test:${randomBytes(6).toString('hex')}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts on limiters first used while a pipeline of the same tick is open, without an uncaught error', async () => {
    await waitForRedis(redis);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const store = new RateLimitStore(redis, prefix);
      for (let round = 0; round < 20; round++) {
        // One tick: a plain command opens the auto-pipeline, then limiters never used before.
        const results = await Promise.all([
          redis.get(`${prefix}other`),
          store.consume(`a:${round}`, 100 + round, 60),
          store.consume(`b:${round}`, 200 + round, 30),
          store.consumeRequest({ key: `c:${round}`, max: 5 }, { key: `d:${round}`, max: 5 }, null, 60, `${prefix}read`),
          store.peek(`a:${round}`, 100 + round, 60),
        ]);
        expect(results[1]).toMatchObject({ allowed: true, limit: 100 + round, remaining: 99 + round });
        expect(results[2]).toMatchObject({ allowed: true, remaining: 199 + round });
        expect(results[3].first.remaining).toBe(4);
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
