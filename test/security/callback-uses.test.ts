/**
 * docs/security.md "One rule for every way in": where used provider callbacks are remembered
 * (src/core/callback-uses.ts). In the database without Redis, as one expiring key with Redis; a
 * value is claimed once while its use is in force, again after it expired or was given back, and of
 * concurrent claims exactly one wins; a claim made while Redis was unreachable (kept in the table)
 * still counts once Redis is back. Runs against the real Redis of REDIS_URL for the Redis part;
 * the unreachable Redis is a client of a closed port.
 */
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackUseStore } from '../../src/core/callback-uses.ts';
import { openRedis } from '../../src/main/runtime.ts';
import { newToken } from '../../src/lib/crypto.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const later = (now: Date, s: number) => new Date(now.getTime() + s * 1000);
const tableRows = async () => Number((await t.db.selectFrom('provider_callback_uses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The checks every store passes. */
async function claimsOnce(store: CallbackUseStore): Promise<void> {
  const now = t.clock.now();
  const value = `${Math.floor(now.getTime() / 1000)}.${newToken()}`;
  expect(await store.claim('mailgun', value, now, later(now, 360))).toBe(true);
  expect(await store.claim('mailgun', value, later(now, 10), later(now, 360))).toBe(false);
  // Another provider's value of the same text is another use.
  expect(await store.claim('other', value, now, later(now, 360))).toBe(true);
  await store.release('mailgun', value);
  expect(await store.claim('mailgun', value, later(now, 20), later(now, 360))).toBe(true);
  const concurrent = `${Math.floor(now.getTime() / 1000)}.${newToken()}`;
  const results = await Promise.all(Array.from({ length: 8 }, () => store.claim('mailgun', concurrent, now, later(now, 360))));
  expect(results.filter(Boolean)).toHaveLength(1);
}

describe('used callbacks in the database', () => {
  it('a value is claimed once while in force, again once expired or given back; of concurrent claims one wins', async () => {
    const store = new CallbackUseStore(t.db, undefined, 'unused:');
    await claimsOnce(store);
    const now = t.clock.now();
    const value = `${Math.floor(now.getTime() / 1000)}.${newToken()}`;
    expect(await store.claim('mailgun', value, now, later(now, 360))).toBe(true);
    expect(await store.claim('mailgun', value, later(now, 359), later(now, 720))).toBe(false);
    expect(await store.claim('mailgun', value, later(now, 360), later(now, 720))).toBe(true);
    // Expired uses are swept by the next claim: the table does not grow for ever.
    await store.claim('mailgun', newToken(), later(now, 100_000), later(now, 100_360));
    expect(await tableRows()).toBe(1);
  });
});

describe.skipIf(skipWithout(process.env.REDIS_URL, "needs Redis: set REDIS_URL (CI's PostgreSQL run does)"))('used callbacks in Redis', () => {
  it('a use is one key: claimed once, nothing in the table; of concurrent claims one wins', async () => {
    const before = await tableRows();
    await claimsOnce(new CallbackUseStore(t.db, t.deps.redis, `callback-uses-test:${newToken().slice(0, 8)}:`));
    expect(await tableRows()).toBe(before);
  });

  it('while Redis is unreachable uses go to the table, and still count when it is back', async () => {
    const down = await openRedis(`redis://127.0.0.1:${await closedPort()}`);
    const up = new Redis(process.env.REDIS_URL!);
    try {
      const prefix = `callback-uses-test:${newToken().slice(0, 8)}:`;
      const offline = new CallbackUseStore(t.db, down, prefix);
      const online = new CallbackUseStore(t.db, up, prefix);
      const now = t.clock.now();
      const value = `${Math.floor(now.getTime() / 1000)}.${newToken()}`;
      expect(await offline.claim('mailgun', value, now, later(now, 360))).toBe(true);
      expect(await online.claim('mailgun', value, now, later(now, 360))).toBe(false);
      const other = `${Math.floor(now.getTime() / 1000)}.${newToken()}`;
      expect(await online.claim('mailgun', other, now, later(now, 360))).toBe(true);
      expect(await online.claim('mailgun', other, now, later(now, 360))).toBe(false);
    } finally {
      down.disconnect();
      up.disconnect();
    }
  });
});
