/**
 * The embedded database gives the event loop a turn before each statement (src/db/database.ts
 * `turnBeforeStatements`): PGlite runs statements on this thread and settles them in microtasks,
 * so a chain of statements each issued from the last one's answer (the queue's start) held every
 * request, GET /livez included, until the chain ended. Here a callback queued for the event loop
 * (setImmediate, as an incoming request's I/O would be) runs while such a chain is under way.
 * On an in-memory PGlite of its own, in both legs of the suite.
 */
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';

describe('a chain of statements on the embedded database', () => {
  const handle = createDatabase({ dataDir: 'memory://' });
  afterAll(async () => handle.close());

  it('lets the event loop run between its statements', async () => {
    await sql`select 1`.execute(handle.db);
    let done = 0;
    let ranAfter = -1;
    setImmediate(() => (ranAfter = done));
    for (let i = 0; i < 50; i++) {
      await sql`select ${i}::int as n`.execute(handle.db);
      done++;
    }
    // Before: -1 (the callback had not run when the 50th answer came).
    expect(ranAfter).toBeGreaterThanOrEqual(0);
    expect(ranAfter).toBeLessThan(5);
  });

  it('keeps a transaction on its connection: its statements run back to back', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('event loop'));
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) {
        await sql`select ${i}::int as n`.execute(trx);
        order.push(`statement ${i}`);
      }
    });
    // One turn as the transaction takes the connection, none between its statements.
    expect(order).toEqual(['event loop', 'statement 0', 'statement 1', 'statement 2']);
  });
});
