/**
 * src/db/pipeline.ts on PostgreSQL: a pipelined batch is one round trip. The test puts a TCP
 * relay of its own between the pool and PostgreSQL; once armed, the relay holds the server's
 * answers back until the client has sent every statement of the batch (each ends with a Sync
 * message). A client that waited for an answer before sending the next statement would never
 * finish; a pipelining one gets its results, in order.
 */
import { sql } from 'kysely';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { pipelined } from '../../src/db/pipeline.ts';
import { skipWithout } from '../helpers/skip.ts';

/** The frontend protocol's Sync message: 'S' and its length, 4. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

function countSyncs(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(SYNC); at !== -1; at = chunk.indexOf(SYNC, at + 1)) n++;
  return n;
}

/** A TCP relay to `target` that can hold the server's bytes until the client has sent `syncs` Syncs. */
function relay(target: URL) {
  let want = 0;
  let seen = 0;
  const held: Array<{ to: net.Socket; chunk: Buffer }> = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.on('data', (chunk: Buffer) => {
      if (want > 0) seen += countSyncs(chunk);
      upstream.write(chunk);
      if (want > 0 && seen >= want) {
        want = 0;
        for (const h of held.splice(0)) h.to.write(h.chunk);
      }
    });
    upstream.on('data', (chunk: Buffer) => (want > 0 ? held.push({ to: client, chunk }) : client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  return {
    server,
    /** Holds the server's answers until `syncs` statements have been sent. */
    arm(syncs: number) {
      want = syncs;
      seen = 0;
    },
  };
}

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'the round trip is pg\'s (set DATABASE_URL; CI\'s second run does): PGlite has no socket'))('a pipelined batch on PostgreSQL', () => { // needs PostgreSQL: PGlite runs in the process
  let database: DatabaseHandle;
  let r: ReturnType<typeof relay>;
  beforeAll(async () => {
    const target = new URL(process.env.DATABASE_URL!);
    r = relay(target);
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    const via = new URL(target);
    via.hostname = '127.0.0.1';
    via.port = String((r.server.address() as net.AddressInfo).port);
    database = createDatabase({ databaseUrl: via.toString(), poolMax: 1 });
  });
  afterAll(async () => {
    await database?.close();
    r?.server.close();
  });

  it('sends every statement before the first answer and answers in order', async () => {
    const out = await database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      r.arm(5);
      return pipelined(trx, [1, 2, 3, 4, 5].map((n) => sql<{ n: number }>`select ${n}::int as n`.compile(trx)));
    });
    expect(out.map((res) => (res.rows[0] as { n: number }).n)).toEqual([1, 2, 3, 4, 5]);
  });
});
