/**
 * docs/security.md "CSRF": where tokens are kept (src/core/csrf-store.ts). With Redis a token is one
 * expiring key and nothing is written to the database for it; a token Redis does not hold is looked
 * for in the table, so one issued while Redis was unreachable (kept in the table) still works once.
 * Runs against the real Redis of REDIS_URL; the unreachable Redis is a client of a closed port.
 */
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsrfStore } from '../../src/core/csrf-store.ts';
import { openRedis } from '../../src/main/runtime.ts';
import { hashToken, newToken } from '../../src/lib/crypto.ts';
import { buildTestApp, standardWorld, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';

let t: TestApp;
let sessionId: number;
beforeAll(async () => {
  t = await buildTestApp();
  const w = await standardWorld(t);
  sessionId = (await t.db.selectFrom('auth_tokens').select('id').where('token_hash', '=', hashToken(w.agentA1.token)).executeTakeFirstOrThrow()).id;
});
afterAll(async () => t?.close());

const tableRows = async () => Number((await t.db.selectFrom('csrf_tokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const inTwoHours = (now: Date) => new Date(now.getTime() + 2 * 3_600_000);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(skipWithout(process.env.REDIS_URL, 'needs Redis: set REDIS_URL (CI\'s PostgreSQL run does)'))('CSRF tokens in Redis', () => {
  it('a token is one key: used once, only by its session, not after its expiry, and never written to the table', async () => {
    const store = new CsrfStore(t.db, t.deps.redis, `csrf-store-test:${newToken().slice(0, 8)}:`);
    const before = await tableRows();
    const now = t.clock.now();
    const token = { authTokenId: sessionId, tokenHash: hashToken(newToken()) };
    await store.issue(token, now, inTwoHours(now));
    expect(await store.use({ ...token, authTokenId: sessionId + 1 }, now)).toBe(false);
    expect(await store.use(token, now)).toBe(true);
    expect(await store.use(token, now)).toBe(false);
    const late = { authTokenId: sessionId, tokenHash: hashToken(newToken()) };
    await store.issue(late, now, inTwoHours(now));
    expect(await store.use(late, new Date(inTwoHours(now).getTime() + 1))).toBe(false);
    expect(await tableRows()).toBe(before);
  });

  it('of concurrent uses of one token exactly one succeeds', async () => {
    const store = new CsrfStore(t.db, t.deps.redis, `csrf-store-test:${newToken().slice(0, 8)}:`);
    const now = t.clock.now();
    const token = { authTokenId: sessionId, tokenHash: hashToken(newToken()) };
    await store.issue(token, now, inTwoHours(now));
    const results = await Promise.all(Array.from({ length: 8 }, () => store.use(token, now)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('while Redis is unreachable tokens go to the table, and work once when it is back', async () => {
    const down = await openRedis(`redis://127.0.0.1:${await closedPort()}`);
    const up = new Redis(process.env.REDIS_URL!);
    try {
      const prefix = `csrf-store-test:${newToken().slice(0, 8)}:`;
      const offline = new CsrfStore(t.db, down, prefix);
      const online = new CsrfStore(t.db, up, prefix);
      const now = t.clock.now();
      const before = await tableRows();
      const token = { authTokenId: sessionId, tokenHash: hashToken(newToken()) };
      await offline.issue(token, now, inTwoHours(now));
      expect(await tableRows()).toBe(before + 1);
      expect(await online.use(token, now)).toBe(true);
      expect(await online.use(token, now)).toBe(false);
      // Issued in Redis, checked while it is down: not found in the table, refused.
      const other = { authTokenId: sessionId, tokenHash: hashToken(newToken()) };
      await online.issue(other, now, inTwoHours(now));
      expect(await offline.use(other, now)).toBe(false);
      expect(await online.use(other, now)).toBe(true);
    } finally {
      down.disconnect();
      up.disconnect();
    }
  });
});
