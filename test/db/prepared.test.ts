/**
 * Named prepared statements from marked texts (src/db/prepared.ts): on PostgreSQL a text marked by
 * asPrepared runs as a named statement on the connection that runs it, in a transaction too; an
 * unmarked text stays unnamed. On PGlite the mark is a comment and the query simply runs.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asPrepared } from '../../src/db/prepared.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

describe('asPrepared', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('runs a marked text as a named prepared statement on its own connection, in a transaction', async () => {
    const text = asPrepared('test_marked_v1', 'select $1::int + 1 as n');
    const names = await t.db.transaction().execute(async (trx) => {
      expect((await trx.executeQuery<{ n: number }>(CompiledQuery.raw(text, [41]))).rows).toEqual([{ n: 42 }]);
      expect((await trx.executeQuery<{ n: number }>(CompiledQuery.raw(text, [1]))).rows).toEqual([{ n: 2 }]);
      await trx.executeQuery(CompiledQuery.raw('select $1::int as unmarked', [1]));
      return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows;
    });
    if (t.deps.pool) {
      expect(names.map((n) => n.name)).toContain('test_marked_v1');
      expect(names.filter((n) => n.statement.includes('unmarked'))).toEqual([]);
    }
  });
});
