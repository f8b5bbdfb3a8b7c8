/**
 * src/db/pipeline.ts `pipelinedCommit` on both engines: the batch's last statement is the
 * transaction's COMMIT, so its writes are committed when the call returns, a failing statement
 * rolls back the whole transaction (earlier statements included) and fails the call, nothing may
 * run in the transaction afterwards, and the connection serves the next transaction as usual.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelinedCommit } from '../../src/db/pipeline.ts';
import type { DbOrTrx } from '../../src/db/types.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await sql`create table pipeline_commit_probe (n int primary key)`.execute(t.db);
});
afterAll(async () => t?.close());

const probe = async () => (await sql<{ n: number }>`select n from pipeline_commit_probe order by n`.execute(t.db)).rows.map((r) => r.n);
const insert = (db: DbOrTrx, n: number) => sql`insert into pipeline_commit_probe (n) values (${n})`.compile(db);

describe('pipelinedCommit', () => {
  it('ends the transaction with its batch: the writes are committed and the results come back in order', async () => {
    const out = await t.db.transaction().execute(async (trx) => {
      await trx.executeQuery(insert(trx, 1));
      return pipelinedCommit(trx, [insert(trx, 2), sql<{ n: number }>`select count(*)::int as n from pipeline_commit_probe`.compile(trx)]);
    });
    expect(out).toHaveLength(2);
    expect((out[1].rows[0] as { n: number }).n).toBe(2);
    expect(await probe()).toEqual([1, 2]);
  });

  it('a failing statement rolls the whole transaction back and fails the call', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert(trx, 3));
        return pipelinedCommit(trx, [insert(trx, 4), insert(trx, 1), insert(trx, 5)]);
      }),
    ).rejects.toThrow(/duplicate key|unique/i);
    expect(await probe()).toEqual([1, 2]);
  });

  it('refuses any statement after it, and the connection then serves the next transaction', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await pipelinedCommit(trx, [insert(trx, 6)]);
        await trx.executeQuery(insert(trx, 7));
      }),
    ).rejects.toThrow(/committed by its last batch/);
    // The batch had committed before the refused statement.
    expect(await probe()).toEqual([1, 2, 6]);
    await t.db.transaction().execute(async (trx) => {
      await trx.executeQuery(insert(trx, 8));
    });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert(trx, 9));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await probe()).toEqual([1, 2, 6, 8]);
  });
});
