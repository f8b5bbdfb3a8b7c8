/**
 * The test suite's reuse of one PGlite instance per worker (test/helpers/pglite-reuse.ts): after a
 * file has written through the whole app, changed its session and given the instance back, the next
 * file finds exactly what a fresh instance loaded from the migrated snapshot holds (every row of
 * every table, every sequence, the session's settings); a change to the catalogue discards the
 * instance; a file's handle stops working once given back.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../../src/config/config.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { buildTestApp, standardWorld, type TestApp } from '../helpers/app.ts';
import { pgliteSnapshot } from '../helpers/database.ts';
import { loadPglite, reuseStats } from '../helpers/pglite-reuse.ts';
import { skipWithout } from '../helpers/skip.ts';

/** Every row of every public table (as ordered JSON), every sequence's value and three settings. */
async function contents(pglite: PGlite): Promise<Record<string, unknown>> {
  const tables = (
    await pglite.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).rows;
  const out: Record<string, unknown> = {};
  for (const { name } of tables) {
    out[name] = (await pglite.query<{ rows: unknown }>(`select coalesce(json_agg(x order by x::text), '[]') as rows from "${name}" x`)).rows[0]!.rows;
  }
  out.sequences = (await pglite.query(`select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1`)).rows;
  out.settings = (
    await pglite.query(`select name, setting from pg_settings where name in ('TimeZone', 'statement_timeout', 'session_replication_role') order by 1`)
  ).rows;
  out.locks = (await pglite.query(`select count(*)::int as n from pg_locks where locktype = 'advisory'`)).rows;
  return out;
}

const onPglite = !process.env.DATABASE_URL;

describe.skipIf(skipWithout(onPglite, 'the reuse of a PGlite instance between files is PGlite-only (unset DATABASE_URL)'))(
  'one PGlite instance per worker, reset between files',
  () => {
    const opened: TestApp[] = [];
    afterAll(async () => {
      for (const t of opened) await t.close();
    });

    it('a reset instance holds exactly what a fresh one loaded from the snapshot holds', async () => {
      const first = await buildTestApp();
      opened.push(first);
      const w = await standardWorld(first);
      for (let i = 0; i < 3; i += 1) {
        const res = await w.agentA1.client.post('/api/jobs/manage', { title: `Leaking tap ${i}`, priority: 2 });
        expect(res.statusCode, res.body).toBe(201);
      }
      const used = first.database.pglite!;
      await used.exec(`set timezone = 'Asia/Tokyo'; set statement_timeout = '5s'; select pg_advisory_lock(42);`);
      await first.close();
      opened.pop();
      await expect(used.query('select 1')).rejects.toThrow('PGlite is closed');

      const before = reuseStats();
      const second = await buildTestApp();
      opened.push(second);
      expect(reuseStats().reset).toBe(before.reset + 1);
      expect(reuseStats().loaded).toBe(before.loaded);
      const reset = await contents(second.database.pglite!);

      const fresh = await loadPglite((await pgliteSnapshot())!);
      try {
        // The same start as buildTestApp's: migrations checked and the built-in roles written at its clock's time.
        const runtime = await openRuntime(loadConfig({ LOG_LEVEL: 'silent' }), { clock: new ManualClock(new Date('2026-11-21T09:00:00Z')), pglite: fresh });
        await runtime.deps.db.selectFrom('roles').select('id').execute();
        expect(reset).toEqual(await contents(fresh));
        expect((reset.jobs as unknown[]).length).toBe(0);
        await runtime.close();
      } finally {
        if (!fresh.closed) await fresh.close();
      }
    });

    it('an instance whose catalogue a file changed is discarded, and the next file gets a fresh one', async () => {
      const t = opened.pop()!;
      await t.database.pglite!.exec('create table scratch_table (id int)');
      await t.close();
      const before = reuseStats();
      const next = await buildTestApp();
      opened.push(next);
      expect(reuseStats()).toEqual({ ...before, discarded: before.discarded + 1, loaded: before.loaded + 1 });
      const found = await next.database.pglite!.query(`select 1 from information_schema.tables where table_name = 'scratch_table'`);
      expect(found.rows).toHaveLength(0);
    });

    it('a second database asked for while the file holds the worker instance is a fresh instance of its own', async () => {
      const held = opened.at(-1)!;
      const before = reuseStats();
      const other = await buildTestApp();
      opened.push(other);
      expect(reuseStats()).toEqual(before);
      expect((await other.db.selectFrom('roles').select('id').execute()).length).toBeGreaterThan(0);
      const now = new Date();
      await other.db
        .insertInto('agencies')
        .values({ uuid: '00000000-0000-4000-8000-000000000001', name: 'Only here', created_at: now, updated_at: now })
        .execute();
      expect(await held.db.selectFrom('agencies').select('id').where('name', '=', 'Only here').execute()).toEqual([]);
    });
  },
);
