/**
 * Upgrades (docs/operations.md "Upgrades"): every migration is classified expand or contract in
 * src/db/migrations/phases.ts; a database made by the first release (its eight migrations, demo-like
 * jobs on branches with SLA rules) upgrades to the latest schema with its data intact, and the
 * `sla.clocks` backfill that the upgrade asks for gives every open job its SLA clocks, in batches,
 * with progress in the log, resumable and run once; a database a newer release migrated further is
 * left alone; two migrators starting together on PostgreSQL apply each migration once; a migration
 * beside serving instances locks every table first and tries again rather than wait (src/db/migrate.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createDatabase, openPglite, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateTo, migrateToLatest, migrationStatus } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { MIGRATION_PHASES } from '../../src/db/migrations/phases.ts';
import { planLines } from '../../src/main/cli/migrate-plan.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { backfillTask, listBackfills, runPendingBackfills } from '../../src/modules/platform/backfills/index.ts';
import { startBackgroundWorker } from '../../src/events/worker.ts';
import { openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { skipWithout } from '../helpers/skip.ts';

/** The last migration of the first release (2026-11-21): eight migrations. */
const FIRST_RELEASE_LAST = '2026_11_21_0700_production_indexes';

interface EmptyDatabase {
  databaseUrl: string | undefined;
  pglite: PGlite | undefined;
  drop(): Promise<void>;
}

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

/** A new, empty database: never migrated (PostgreSQL: created without the suite's template). */
async function emptyDatabase(): Promise<EmptyDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) return { databaseUrl: undefined, pglite: openPglite('memory://', undefined), drop: async () => {} };
  const name = `caretaker_upgrade_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const drop = async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
  drops.push(drop);
  return { databaseUrl: url.toString(), pglite: undefined, drop };
}

function handleOn(empty: EmptyDatabase): DatabaseHandle {
  return createDatabase(empty.pglite ? { pglite: empty.pglite } : { databaseUrl: empty.databaseUrl, poolMax: 4 });
}

const OPEN_STATUSES = [1, 2, 3, 4, 5, 6, 7, 8, 11];

/**
 * What the first release's demo left, written with the first release's schema: an agency, two
 * branches each with SLA rules, and jobs in every status with their status history.
 * @returns how many jobs are open
 */
async function seedFirstRelease(handle: DatabaseHandle, jobs: number): Promise<number> {
  const db = handle.db as unknown as Kysely<any>;
  const t0 = new Date('2026-11-10T09:00:00Z');
  const agency = await db.insertInto('agencies').values({ uuid: newUuid(), name: 'Harbour Lettings', created_at: t0, updated_at: t0 }).returning('id').executeTakeFirstOrThrow();
  const branches: number[] = [];
  for (const name of ['Exeter', 'Plymouth']) {
    const b = await db.insertInto('branches').values({ uuid: newUuid(), agency_id: agency.id, name, created_at: t0, updated_at: t0 }).returning('id').executeTakeFirstOrThrow();
    branches.push(b.id);
    // Every job reported is measured from its creation to its completion; emergencies more strictly.
    await db.insertInto('branch_sla_rules').values([
      { uuid: newUuid(), agency_id: agency.id, branch_id: b.id, job_status_from_id: 1, job_status_to_id: 7, job_type_id: null, job_priority: null,
        date_field_to_compare: 'created_at', date_field_to_track: 'completed_at', minimum_response_days: 10, created_at: t0, updated_at: t0 },
      { uuid: newUuid(), agency_id: agency.id, branch_id: b.id, job_status_from_id: 1, job_status_to_id: 4, job_type_id: 2, job_priority: null,
        date_field_to_compare: 'created_at', date_field_to_track: 'assigned_at', minimum_response_days: 1, created_at: t0, updated_at: t0 },
    ]).execute();
  }
  let open = 0;
  const rows = [];
  for (let i = 0; i < jobs; i++) {
    const status = i % 10 === 0 ? 9 : i % 10 === 5 ? 10 : OPEN_STATUSES[i % OPEN_STATUSES.length]!;
    if (status !== 9 && status !== 10) open++;
    const created = new Date(t0.getTime() + i * 3_600_000);
    rows.push({
      uuid: newUuid(), agency_id: agency.id, branch_id: branches[i % 2]!, reference: `HL-${1000 + i}`, title: `Job ${i}`,
      priority: (i % 5) + 1, status_id: status, job_type_id: (i % 3) + 1, created_at: created, updated_at: created,
      completed_at: status === 7 || status === 8 || status === 9 ? new Date(created.getTime() + 86_400_000) : null,
      closed_at: status === 9 ? new Date(created.getTime() + 2 * 86_400_000) : null,
      cancelled_at: status === 10 ? new Date(created.getTime() + 3_600_000) : null,
    });
  }
  const ids = await db.insertInto('jobs').values(rows).returning(['id', 'status_id', 'created_at']).execute();
  await db.insertInto('job_status_history').values(ids.flatMap((j) => [
    { job_id: j.id, from_status_id: null, to_status_id: 1, created_at: j.created_at },
    ...(j.status_id === 1 ? [] : [{ job_id: j.id, from_status_id: 1, to_status_id: j.status_id, created_at: new Date(new Date(j.created_at).getTime() + 3_600_000) }]),
  ])).execute();
  return open;
}

async function runtimeOn(empty: EmptyDatabase, clock: ManualClock): Promise<Runtime> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...(empty.databaseUrl ? { DATABASE_URL: empty.databaseUrl } : {}) });
  return openRuntime(config, { clock, dataDir: 'memory://', ...(empty.pglite ? { pglite: empty.pglite } : {}) });
}

describe('migration classes', () => {
  it('every migration is classified expand or contract, in one place', () => {
    expect(Object.keys(MIGRATION_PHASES).sort()).toEqual(Object.keys(migrations).sort());
    for (const c of Object.values(MIGRATION_PHASES)) expect(['expand', 'contract']).toContain(c.phase);
  });
});

describe('upgrading a database made by the first release', () => {
  it('migrates with its data intact, and the backfill gives every open job an SLA clock', async () => {
    const empty = await emptyDatabase();
    const handle = handleOn(empty);
    const first = await migrateTo(handle.db, FIRST_RELEASE_LAST);
    expect(first).toHaveLength(8);
    const open = await seedFirstRelease(handle, 300);

    const before = await migrationStatus(handle.db);
    expect(before.applied).toHaveLength(8);
    const plan = planLines(before, []);
    expect(plan[0]).toBe(`${before.pending.length} pending migration(s), in the order they run (8 applied):`);
    expect(plan.find((l) => l.includes('2026_11_26_0800_backfills'))).toMatch(/ expand {4}.*then backfill sla\.clocks on the queue$/);
    // Two contract migrations since the first release: 2026_12_06_1500_notifications_arrive changes the
    // delivery key that an older instance's ON CONFLICT names (docs/messaging.md "Slots"), and
    // 2026_12_08_0300_history_partitions puts the time column in the deliveries' keys
    // (docs/operations.md "History partitions and retention").
    expect(plan.find((l) => l.includes('2026_12_06_1500_notifications_arrive'))).toMatch(/ contract /);
    expect(plan.find((l) => l.includes('2026_12_08_0300_history_partitions'))).toMatch(/ contract /);
    expect(plan.at(-1)).toBe(`2 contract: upgrade every instance to the release before this one's, then migrate (docs/operations.md "Upgrades").`);
    if (!empty.pglite) await handle.close(); // PGlite: the runtime below takes over the same instance

    const clock = new ManualClock(new Date('2026-11-26T09:00:00Z'));
    const runtime = await runtimeOn(empty, clock);
    try {
      const { db } = runtime.deps;
      expect((await migrationStatus(db)).pending).toEqual([]);
      const jobs = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(jobs.n)).toBe(300);
      // Before the backfill no job has a clock: that is what the upgrade left before this release.
      const clockless = () => sql<{ n: number }>`
        select count(*)::int as n from jobs j
        where j.deleted_at is null and j.status_id not in (9, 10)
          and not exists (select 1 from sla_clocks c where c.job_id = j.id)`.execute(db);
      expect((await clockless()).rows[0]!.n).toBe(open);

      const lines: string[] = [];
      const log = { info: (_: unknown, m: string) => lines.push(m), error: (_: unknown, m: string) => lines.push(`ERROR ${m}`) };
      // Another worker holds the lease: this one leaves the backfill to it.
      await db.updateTable('data_backfills').set({ leased_until: new Date('2026-11-26T09:04:00Z') }).execute();
      expect(await runPendingBackfills(runtime.deps, log, 100)).toEqual([]);
      expect(lines).toEqual([]);
      clock.advance(5 * 60_000); // its lease lapsed (it died): this worker takes over
      const runs = await runPendingBackfills(runtime.deps, log, 100);
      // The address parts' backfill (migration 2026_12_06_1600) runs first and finishes too, and the
      // TOTP secrets' encryption (2026_12_08_0400) has no row to encrypt in a first-release database.
      expect(runs.map((r) => r.name)).toEqual(['addresses.parts', 'auth.totp-secrets', 'sla.clocks']);
      expect(runs[0]).toMatchObject({ name: 'addresses.parts', finished: true });
      expect(runs[1]).toMatchObject({ name: 'auth.totp-secrets', finished: true });
      expect(runs[2]).toEqual({ name: 'sla.clocks', done: open, total: open, finished: true });
      expect((await clockless()).rows[0]!.n).toBe(0);
      lines.splice(0, lines.length, ...lines.filter((l) => l.startsWith('backfill sla.clocks')));
      expect(lines[0]).toBe(`backfill sla.clocks: SLA clocks of every open job (docs/sla.md), starting (0/${open})`);
      expect(lines).toContain(`backfill sla.clocks: 100/${open} (${Math.round((100 / open) * 100)}%)`);
      expect(lines.at(-1)).toBe(`backfill sla.clocks: done (${open} rows)`);
      // Emergencies assigned late are breached; old jobs' outcomes are not announced (no events).
      const states = await sql<{ state: string; n: number }>`select state, count(*)::int as n from sla_clocks group by state order by state`.execute(db);
      expect(states.rows.map((r) => r.state)).toEqual(expect.arrayContaining(['breached', 'met']));
      const events = await db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(events.n)).toBe(0);

      // Finished: a second run (another worker, the next tick) does nothing.
      expect(await runPendingBackfills(runtime.deps, log, 100)).toEqual([]);
      // Backfills are listed by name: addresses.parts (migration 2026_12_06_1600) comes first.
      const row = (await listBackfills(db)).find((r) => r.name === 'sla.clocks');
      expect(row).toMatchObject({ name: 'sla.clocks', done: open, total: open, last_error: null });
      expect(row!.finished_at).not.toBeNull();

      // A worker that died after 10 jobs left its cursor there: the next one goes on from it.
      const tenth = await db.selectFrom('jobs').select('id').where('status_id', 'not in', [9, 10]).orderBy('id').offset(9).limit(1).executeTakeFirstOrThrow();
      await db.updateTable('data_backfills').set({ cursor_id: tenth.id, done: 10, finished_at: null, leased_until: null }).where('name', '=', 'sla.clocks').execute();
      lines.length = 0;
      expect(await runPendingBackfills(runtime.deps, log, 100)).toEqual([{ name: 'sla.clocks', done: open, total: open, finished: true }]);
      expect(lines[0]).toBe(`backfill sla.clocks: SLA clocks of every open job (docs/sla.md), resuming (10/${open})`);
      expect(lines[1]).toBe(`backfill sla.clocks: 110/${open} (${Math.round((110 / open) * 100)}%)`);
    } finally {
      await runtime.close();
    }
  }, 120_000);

  it('a database a newer release migrated further is left alone; pending migrations on it are refused', async () => {
    const test = await createTestDatabase();
    const handle = createDatabase(test.pglite ? { pglite: test.pglite } : { databaseUrl: test.databaseUrl, dataDir: test.dataDir, ...(test.loadDataDir ? { loadDataDir: test.loadDataDir } : {}) });
    try {
      expect(await migrateToLatest(handle.db)).toEqual([]);
      await sql`insert into kysely_migration (name, timestamp) values ('2099_01_01_0000_from_the_future', ${new Date().toISOString()})`.execute(handle.db);
      expect(await migrateToLatest(handle.db)).toEqual([]);
      const status = await migrationStatus(handle.db);
      expect(status.newer).toEqual(['2099_01_01_0000_from_the_future']);
      expect(planLines(status, [])[0]).toBe('The database has 1 migration(s) of a newer release: 2099_01_01_0000_from_the_future.');
      await sql`delete from kysely_migration where name = '2026_11_26_0800_backfills'`.execute(handle.db);
      await expect(migrateToLatest(handle.db)).rejects.toThrow(
        'This build would apply 2026_11_26_0800_backfills to a database a newer release has migrated (2099_01_01_0000_from_the_future): start the newer release instead',
      );
    } finally {
      if (!test.pglite) await handle.close();
      await test.drop();
    }
  }, 120_000);
});

describe('the backfill on the queue', () => {
  it('a worker that starts runs the pending backfill at once, not at the next minute', async () => {
    const test = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'silent', ...(test.databaseUrl ? { DATABASE_URL: test.databaseUrl } : {}) });
    const runtime = await openRuntime(config, {
      clock: new ManualClock(new Date('2026-11-26T09:00:00Z')),
      dataDir: test.dataDir,
      ...(test.loadDataDir ? { loadDataDir: test.loadDataDir } : {}),
      ...(test.pglite ? { pglite: test.pglite } : {}),
    });
    const lines: string[] = [];
    const worker = await startBackgroundWorker(runtime.deps, runtime.database, [], [backfillTask], {
      info: (_, m) => lines.push(m),
      error: (_, m) => lines.push(m),
    });
    try {
      // The migrated database asks for sla.clocks (migration 2026_11_26_0800) and nothing has run it.
      const deadline = Date.now() + 60_000;
      while (!lines.includes('backfill sla.clocks: done (0 rows)') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(lines).toContain('backfill sla.clocks: done (0 rows)');
      const row = (await listBackfills(runtime.deps.db)).find((r) => r.name === 'sla.clocks');
      expect(row!.finished_at).not.toBeNull();
    } finally {
      await worker.stop(5_000);
      await runtime.close();
      await test.drop();
    }
  }, 120_000);
});

describe.skipIf(skipWithout(process.env.DATABASE_URL, 'two migrators at once need PostgreSQL (set DATABASE_URL): PGlite has one connection in one process'))(
  'two instances starting together on PostgreSQL',
  () => {
    it('apply each migration exactly once: the second waits for the advisory lock, then finds nothing to do', async () => {
      const empty = await emptyDatabase();
      const a = handleOn(empty);
      const b = handleOn(empty);
      try {
        const [ra, rb] = await Promise.all([migrateToLatest(a.db), migrateToLatest(b.db)]);
        expect([...ra, ...rb].sort()).toEqual(Object.keys(migrations).sort());
        expect(ra.filter((n) => rb.includes(n))).toEqual([]);
        const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(a.db);
        expect(rows.rows).toHaveLength(Object.keys(migrations).length);
      } finally {
        await a.close();
        await b.close();
      }
    }, 120_000);

    it('locks every table before migrating: a transaction holding one makes it try again, and that transaction never waits long or deadlocks', async () => {
      const empty = await emptyDatabase();
      const a = handleOn(empty);
      const client = new pg.Client({ connectionString: empty.databaseUrl });
      await client.connect();
      try {
        await migrateTo(a.db, FIRST_RELEASE_LAST);
        // A serving instance's transaction: it holds `jobs` (as a job creation does) and stays open.
        await client.query('begin');
        await client.query('lock table jobs in row exclusive mode');
        const waits: number[] = [];
        const migrating = migrateToLatest(a.db, { lockTablesFirst: true, onLockWait: (n) => waits.push(n) });
        while (waits.length < 2) await new Promise((r) => setTimeout(r, 20));
        // The same transaction now reads a table the migration alters (it comes before `jobs` in the
        // lock order): it may wait for a failed try's locks, never long enough to be a deadlock victim.
        const before = Date.now();
        await client.query('select count(*) from agencies');
        expect(Date.now() - before).toBeLessThan(1_000);
        await client.query('commit');
        const applied = await migrating;
        expect(applied).toEqual(Object.keys(migrations).sort().filter((n) => n > FIRST_RELEASE_LAST));
        expect(waits.length).toBeGreaterThanOrEqual(2);
      } finally {
        await client.end();
        await a.close();
      }
    }, 120_000);
  },
);
