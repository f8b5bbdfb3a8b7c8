/**
 * Reads retried once on a terminated connection (docs/operations.md "Under load and faults"): the
 * server's connection running a tenants list is terminated with pg_terminate_backend while the read
 * waits on a lock; the list still answers 200, on a fresh connection. A write is not retried. And
 * the connection the server ended is destroyed, not handed to the next caller.
 * Needs PostgreSQL.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';
import { jobsWorld, type JobsWorld } from '../jobs/jobs/fixtures.ts';

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'needs PostgreSQL: set DATABASE_URL'))('a read on a terminated connection', () => {
  let t: TestApp;
  let w: JobsWorld;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await jobsWorld(t);
    admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  /** Terminates the backends of this database matching `where` (SQL on pg_stat_activity), polling up to 5 s until one is. */
  async function terminateBackends(where: string): Promise<number> {
    let terminated = 0;
    for (let i = 0; i < 200 && terminated === 0; i++) {
      const r = await admin.query<{ ok: boolean }>(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and ${where}`,
      );
      terminated = r.rows.filter((row) => row.ok).length;
      if (terminated === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return terminated;
  }

  /** Runs `request` while the tenants table is locked, terminates the server backends waiting on it, then unlocks. */
  async function terminatedMidStatement<T>(request: () => Promise<T>): Promise<{ result: T; terminated: number }> {
    await admin.query('begin');
    await admin.query('lock table tenants in access exclusive mode');
    const pending = request();
    const terminated = await terminateBackends(`wait_event_type = 'Lock'`);
    await admin.query('rollback');
    return { result: await pending, terminated };
  }

  it('GET answers 200 after its connection is terminated mid-read', async () => {
    const { result, terminated } = await terminatedMidStatement(() => w.adminA.client.get('/api/tenants?limit=5'));
    expect(terminated).toBeGreaterThan(0);
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({ success: true });
  });

  it('a write on a terminated connection is not retried by the server: 503, nothing stored', async () => {
    const tenants = async () => Number((await admin.query<{ n: string }>('select count(*) as n from tenants')).rows[0]!.n);
    const before = await tenants();
    const { result, terminated } = await terminatedMidStatement(() => w.adminA.client.post('/api/tenants', { name: 'Ms Lock', email: 'lock@example.test' }));
    expect(terminated).toBeGreaterThan(0);
    expect(result.statusCode).toBe(503);
    expect(await tenants()).toBe(before);
  });

  it('the connection the server ended is not handed to the next statement', async () => {
    // One connection in the pool: were the ended one taken back as idle, the next statement would
    // be given it. pg reports the statement's 57P01 before the socket's end reaches the client.
    const handle = createDatabase({ databaseUrl: t.config.databaseUrl, poolMax: 1 });
    try {
      const sleeping = sql`select pg_sleep(30), 'ended-under-me' as tag`.execute(handle.db).then(() => 'answered', (err: Error) => err);
      expect(await terminateBackends(`query like '%ended-under-me%'`)).toBe(1);
      const failure = await sleeping;
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error & { code?: string }).code).toBe('57P01');
      // At once, with no pause for the socket's end to arrive.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });
});
