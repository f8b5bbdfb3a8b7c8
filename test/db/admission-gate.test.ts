/**
 * src/db/admission-gate.ts: inside an overlapped read's scope, our connections run every statement
 * read-only, so reads answer and the database itself refuses any write (SQLSTATE 25006), marking
 * the run; nothing is written. Outside the scope nothing changes. Both engines.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyScope, type ReadOnlyRun } from '../../src/db/admission-gate.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { buildTestApp, createAgency, type TestApp } from '../helpers/app.ts';

describe('an overlapped read runs on a read-only handle', () => {
  let t: TestApp;
  let agencyId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    agencyId = (await createAgency(t.db, 'Gate Lettings')).id;
  });
  afterAll(async () => t?.close());

  const branchCount = async () => Number((await t.db.selectFrom('branches').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).executeTakeFirstOrThrow()).n);
  const branch = (name: string) => ({ uuid: newUuid(), agency_id: agencyId, name, created_at: t.clock.now(), updated_at: t.clock.now() });

  it('reads answer; an insert is refused by the database, the run is marked, and nothing is written', async () => {
    const before = await branchCount();
    const run: ReadOnlyRun = { refusedWrite: false };
    await readOnlyScope.run(run, async () => {
      expect((await t.db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirstOrThrow()).name).toBe('Gate Lettings');
      expect(run.refusedWrite).toBe(false);
      await expect(t.db.insertInto('branches').values(branch('Never')).execute()).rejects.toMatchObject({ code: '25006' });
      expect(run.refusedWrite).toBe(true);
      // The connection is usable again at once.
      expect(await branchCount()).toBe(before);
    });
    expect(await branchCount()).toBe(before);
  });

  it('a transaction opened inside is READ ONLY', async () => {
    const run: ReadOnlyRun = { refusedWrite: false };
    await readOnlyScope.run(run, async () => {
      const mode = await t.db.transaction().execute(async (trx) => (await sql<{ transaction_read_only: string }>`show transaction_read_only`.execute(trx)).rows[0]!.transaction_read_only);
      expect(mode).toBe('on');
      await expect(t.db.transaction().execute((trx) => trx.insertInto('branches').values(branch('Never')).execute())).rejects.toMatchObject({ code: '25006' });
      expect(run.refusedWrite).toBe(true);
    });
  });

  it('on PostgreSQL the statements run on a session started read-only (the read-only pool), each sent as it is', async () => {
    if (t.database.engine !== 'postgres') return;
    const run: ReadOnlyRun = { refusedWrite: false };
    const inside = await readOnlyScope.run(run, async () => (await sql<{ default_transaction_read_only: string }>`show default_transaction_read_only`.execute(t.db)).rows[0]!.default_transaction_read_only);
    expect(inside).toBe('on');
    expect(t.database.readPool?.totalCount).toBeGreaterThan(0);
    const outside = (await sql<{ default_transaction_read_only: string }>`show default_transaction_read_only`.execute(t.db)).rows[0]!.default_transaction_read_only;
    expect(outside).toBe('off');
  });

  it('outside the scope writes run as usual', async () => {
    const before = await branchCount();
    await t.db.insertInto('branches').values(branch('Written')).execute();
    expect(await branchCount()).toBe(before + 1);
    expect((await sql<{ transaction_read_only: string }>`show transaction_read_only`.execute(t.db)).rows[0]!.transaction_read_only).toBe('off');
  });
});
