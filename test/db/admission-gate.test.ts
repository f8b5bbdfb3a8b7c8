/**
 * src/db/admission-gate.ts: inside an overlapped read's admission scope, reads run at once, while
 * every other statement and every BEGIN wait for the admission, and fail with its error when the
 * request is refused (nothing is written). Both engines.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionScope, onlyReads } from '../../src/db/admission-gate.ts';
import { AppError } from '../../src/core/errors.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { buildTestApp, createAgency, type TestApp } from '../helpers/app.ts';

/** A promise settled from outside, with a flag telling whether it has settled. */
function pending() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

describe('writes of an overlapped read wait for its admission', () => {
  let t: TestApp;
  let agencyId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    agencyId = (await createAgency(t.db, 'Gate Lettings')).id;
  });
  afterAll(async () => t?.close());

  const branchCount = async () => (await t.db.selectFrom('branches').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).executeTakeFirstOrThrow()).n;

  it('tells reads from statements that write, lock or take a sequence value', () => {
    expect(onlyReads('select 1')).toBe(true);
    expect(onlyReads('  SELECT "id" from "jobs" where "uuid" = $1')).toBe(true);
    expect(onlyReads('with page as (select id from jobs limit 50) select json_agg(page) from page')).toBe(true);
    expect(onlyReads('insert into branches (name) values ($1)')).toBe(false);
    expect(onlyReads('with j as (insert into jobs default values returning id) select id from j')).toBe(false);
    expect(onlyReads('select * from counters where agency_id = $1 for update')).toBe(false);
    expect(onlyReads("select nextval('jobs_id_seq')")).toBe(false);
    expect(onlyReads('update users set name = $1')).toBe(false);
    expect(onlyReads('begin')).toBe(false);
  });

  it('a read runs before the admission settles; an insert waits for it, then runs', async () => {
    const admission = pending();
    const before = Number(await branchCount());
    const order: string[] = [];
    await admissionScope.run(admission.promise, async () => {
      const read = t.db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirstOrThrow().then((r) => order.push(`read ${r.name}`));
      const write = t.db
        .insertInto('branches')
        .values({ uuid: newUuid(), agency_id: agencyId, name: 'Waited', created_at: t.clock.now(), updated_at: t.clock.now() })
        .execute()
        .then(() => order.push('write'));
      await read;
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(order).toEqual(['read Gate Lettings']);
      expect(Number(await branchCount())).toBe(before);
      order.push('admitted');
      admission.resolve();
      await write;
    });
    expect(order).toEqual(['read Gate Lettings', 'admitted', 'write']);
    expect(Number(await branchCount())).toBe(before + 1);
  });

  it('a refused admission fails the insert and the transaction with its error, and nothing is written', async () => {
    const before = Number(await branchCount());
    const refusal = new AppError('rate_limited');
    const admission = pending();
    admission.reject(refusal);
    await admissionScope.run(admission.promise, async () => {
      await expect(
        t.db.insertInto('branches').values({ uuid: newUuid(), agency_id: agencyId, name: 'Never', created_at: t.clock.now(), updated_at: t.clock.now() }).execute(),
      ).rejects.toBe(refusal);
      await expect(t.db.transaction().execute(async (trx) => sql`select 1`.execute(trx))).rejects.toBe(refusal);
      // Reads still answer: the handler may fail on its own before the admission's error is sent.
      expect(Number(await branchCount())).toBe(before);
    });
    // Outside the scope nothing waits.
    expect((await sql<{ one: number }>`select 1 as one`.execute(t.db)).rows[0]!.one).toBe(1);
  });
});
