/**
 * src/db/pipeline.ts on PostgreSQL: a pipelined batch leaves in one write to the connection's
 * socket (PgConnection.together, src/db/pg-driver.ts), not one per statement, and its results
 * still come back in order.
 */
import { sql } from 'kysely';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelined } from '../../src/db/pipeline.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';

/** Counts the socket writes (each a write or writev system call) of every client of the pool. */
function countWrites(t: TestApp): { count(): number; stop(): void } {
  const clients = (t.database.pool as unknown as { _clients: Array<{ connection: { stream: Socket } }> })._clients;
  let writes = 0;
  const restore: Array<() => void> = [];
  for (const client of clients) {
    const stream = client.connection.stream as Socket & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
    const write = stream._write;
    const writev = stream._writev;
    stream._write = function (this: unknown, ...a: unknown[]) {
      writes += 1;
      return write.apply(this, a);
    };
    stream._writev = function (this: unknown, ...a: unknown[]) {
      writes += 1;
      return writev.apply(this, a);
    };
    restore.push(() => {
      stream._write = write;
      stream._writev = writev;
    });
  }
  return { count: () => writes, stop: () => restore.forEach((r) => r()) };
}

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'the one write is pg\'s socket (set DATABASE_URL; CI\'s second run does): PGlite has no socket'))('a pipelined batch on PostgreSQL', () => { // needs PostgreSQL: PGlite runs in the process
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('leaves in one write and answers in order', async () => {
    const results = await t.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      const writes = countWrites(t);
      try {
        const out = await pipelined(trx, [1, 2, 3, 4, 5].map((n) => sql<{ n: number }>`select ${n}::int as n`.compile(trx)));
        return { out, writes: writes.count() };
      } finally {
        writes.stop();
      }
    });
    expect(results.writes).toBe(1);
    expect(results.out.map((r) => (r.rows[0] as { n: number }).n)).toEqual([1, 2, 3, 4, 5]);
  });
});
