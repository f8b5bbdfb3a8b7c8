/**
 * Named prepared statements (src/db/prepared.ts, src/db/pg-driver.ts): on PostgreSQL a
 * PreparedQuery runs as a named statement on the connection that runs it, in a transaction too,
 * with the run's values in its parameters; any other query stays unnamed. On PGlite the same text
 * runs unnamed. Both engines run with the planner settings of src/db/database.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedQuery, type Params } from '../../src/db/prepared.ts';
import { PLANNER_SETTINGS } from '../../src/db/database.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const PLUS_ONE = new PreparedQuery('test_plus_one', (db, shape: { label: string }, p: Params<{ n: number }>) =>
  db.selectNoFrom([sql<number>`${p('n')}::int + 1`.as('n'), sql.lit(shape.label).as('label')]),
);

describe('PreparedQuery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('runs as a named prepared statement on its own connection, in a transaction, one text per shape', async () => {
    const names = await t.db.transaction().execute(async (trx) => {
      expect(await PLUS_ONE.run(trx, { label: 'a' }, { n: 41 })).toEqual([{ n: 42, label: 'a' }]);
      expect(await PLUS_ONE.run(trx, { label: 'a' }, { n: 1 })).toEqual([{ n: 2, label: 'a' }]);
      expect(await PLUS_ONE.run(trx, { label: 'b' }, { n: 1 })).toEqual([{ n: 2, label: 'b' }]);
      await sql`select 1 as unnamed`.execute(trx);
      return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows;
    });
    expect(PLUS_ONE.compile(t.db, { label: 'a' }).name).toMatch(/^test_plus_one_[0-9a-f]{12}$/);
    if (t.deps.pool) {
      expect(names.filter((n) => n.name.startsWith('test_plus_one_'))).toHaveLength(2);
      expect(names.filter((n) => n.statement.includes('unnamed'))).toEqual([]);
    }
  });

  it('refuses a run without a value for a parameter of the shape', async () => {
    await expect(PLUS_ONE.run(t.db, { label: 'a' }, {} as { n: number })).rejects.toThrow(/no value for parameter n/);
  });

  it('runs every session with the planner settings', async () => {
    const { rows } = await sql<{ j: string; p: string; w: string }>`select current_setting('join_collapse_limit') as j, current_setting('plan_cache_mode') as p, current_setting('max_parallel_workers_per_gather') as w`.execute(t.db);
    expect(rows[0]).toEqual({ j: PLANNER_SETTINGS.join_collapse_limit, p: PLANNER_SETTINGS.plan_cache_mode, w: PLANNER_SETTINGS.max_parallel_workers_per_gather });
  });
});
