/**
 * The request count's script (src/core/rate-limit.ts `consumeRequest`) against rate-limiter-flexible's
 * own: the same keys, counts and expiry, whichever of the two counts first, so `consume`, `peek`,
 * `refund` and `reset` keep working on the counters the pipeline writes. Needs Redis.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RateLimitStore } from '../../src/core/rate-limit.ts';
import { waitForRedis } from '../../src/main/runtime.ts';
import { skipWithout } from '../helpers/skip.ts';

describe.skipIf(skipWithout(process.env.REDIS_URL, 'needs Redis: set REDIS_URL'))('the request count in Redis', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const prefix = `caretaker-test:${randomBytes(6).toString('hex')}:`;
  const store = new RateLimitStore(redis, prefix);
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('creates the counter with the window as its expiry, and later requests keep that expiry', async () => {
    await waitForRedis(redis);
    const first = await store.consumeRequest({ key: 'ip:a', max: 3 }, { key: 'acct:a', max: 5 }, null, 60, `${prefix}epoch`);
    expect(first.first).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(first.second).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
    expect(first.read).toBe('');
    const ttl = await redis.pttl(`${prefix}rl:ip:a`);
    expect(ttl).toBeGreaterThan(58_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await redis.pexpire(`${prefix}rl:ip:a`, 30_000);
    await store.consumeRequest({ key: 'ip:a', max: 3 }, null, null, 60, `${prefix}epoch`);
    // A later request counts within the window: the expiry is not pushed back.
    expect(await redis.pttl(`${prefix}rl:ip:a`)).toBeLessThanOrEqual(30_000);
    expect(await redis.get(`${prefix}rl:ip:a`)).toBe('2');
  });

  it('shares its counters with consume, peek, refund and reset', async () => {
    await store.consume('ip:b', 3, 60);
    const counted = await store.consumeRequest({ key: 'ip:b', max: 3 }, { key: 'acct:b', max: 5 }, null, 60, `${prefix}epoch`);
    expect(counted.first.remaining).toBe(1);
    expect(await store.peek('ip:b', 3, 60)).toMatchObject({ allowed: true, remaining: 1 });
    await store.refund('ip:b', 3, 60);
    const third = await store.consumeRequest({ key: 'ip:b', max: 3 }, null, null, 60, `${prefix}epoch`);
    expect(third.first.remaining).toBe(1);
    const fourth = await store.consumeRequest({ key: 'ip:b', max: 3 }, null, null, 60, `${prefix}epoch`);
    expect(fourth.first).toMatchObject({ allowed: true, remaining: 0 });
    const fifth = await store.consumeRequest({ key: 'ip:b', max: 3 }, { key: 'acct:b', max: 5 }, null, 60, `${prefix}epoch`);
    // Over the address's limit: refused, and the account is not counted.
    expect(fifth.first).toMatchObject({ allowed: false, remaining: 0 });
    expect(fifth.second).toBeNull();
    expect(await store.peek('acct:b', 5, 60)).toMatchObject({ remaining: 4 });
    await store.reset('ip:b', 3, 60);
    expect((await store.consumeRequest({ key: 'ip:b', max: 3 }, null, null, 60, `${prefix}epoch`)).first.remaining).toBe(2);
    // A counter rate-limiter-flexible created is counted on with its expiry.
    expect(await redis.pttl(`${prefix}rl:ip:b`)).toBeGreaterThan(0);
  });

  it('counts a third counter (the agency) only while the two before it allow', async () => {
    const both = await store.consumeRequest({ key: 'ip:d', max: 5 }, { key: 'acct:d', max: 1 }, { key: 'agency:d', max: 9 }, 60, `${prefix}epoch`);
    expect(both.third).toMatchObject({ allowed: true, limit: 9, remaining: 8 });
    expect(await redis.pttl(`${prefix}rl:agency:d`)).toBeGreaterThan(58_000);
    expect(await store.peek('agency:d', 9, 60)).toMatchObject({ remaining: 8 });
    // The account is over its limit: refused, and the agency is not counted.
    const refused = await store.consumeRequest({ key: 'ip:d', max: 5 }, { key: 'acct:d', max: 1 }, { key: 'agency:d', max: 9 }, 60, `${prefix}epoch`);
    expect(refused.second).toMatchObject({ allowed: false });
    expect(refused.third).toBeNull();
    expect(await redis.get(`${prefix}rl:agency:d`)).toBe('1');
    // Without a second counter the third follows the first alone.
    const third = await store.consumeRequest({ key: 'ip:e', max: 5 }, null, { key: 'agency:d', max: 9 }, 60, `${prefix}epoch`);
    expect(third.second).toBeNull();
    expect(third.third).toMatchObject({ allowed: true, remaining: 7 });
  });

  it('reads the given key in the same trip', async () => {
    await redis.set(`${prefix}epoch`, 'e-42');
    expect((await store.consumeRequest({ key: 'ip:c', max: 3 }, null, null, 60, `${prefix}epoch`)).read).toBe('e-42');
  });
});
