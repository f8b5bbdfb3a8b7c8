/**
 * Read replicas (docs/operations.md "Read replicas", src/db/replica.ts) against a real streaming
 * replica: this file creates a primary cluster and a standby of it from the machine's own
 * PostgreSQL binaries (initdb, pg_ctl, pg_basebackup, run as the `postgres` user when the tests
 * run as root), and runs the app with DATABASE_URL on the primary and DATABASE_REPLICA_URL on the
 * standby. Which server answered is seen in the answers themselves: with the standby's replay
 * paused, a job written on the primary is missing from what the standby serves.
 * - the jobs list, the dashboard and search of someone who has not written are served by the
 *   replica (the paused standby's answer: the new job is missing);
 * - a person's list right after their own write shows the write (it goes to the primary until the
 *   replica has replayed it), while another person's list still comes from the replica;
 * - with a small lag bound, a replica whose replay is paused while the primary writes is skipped
 *   once it is further behind than the bound, and used again when it catches up;
 * - a stopped replica is skipped: reads still answer, from the primary.
 * Skipped, saying why, without PostgreSQL (DATABASE_URL) or without the binaries.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { walPosition } from '../../src/db/replica.ts';
import { buildTestApp, createAgency, createBranch, userClient, type TestApp } from '../helpers/app.ts';
import { insertJob } from '../helpers/factories.ts';
import { PG_BIN, pgBinary, queryOnce as query, startPrimaryAndStandby, type PrimaryAndStandby } from '../helpers/pg-cluster.ts';
import { skipWithout } from '../helpers/skip.ts';

const skip =
  skipWithout(process.env.DATABASE_URL?.startsWith('postgres'), 'replica.test needs PostgreSQL: set DATABASE_URL') ||
  skipWithout(PG_BIN, 'replica.test needs the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql/<version>/bin');

/** The titles of the jobs listed for `client`. */
async function listedTitles(client: { get(url: string): Promise<{ statusCode: number; body: string; json(): unknown }> }): Promise<string[]> {
  const res = await client.get('/api/jobs/manage?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Array<{ title: string }> }).data.map((j) => j.title);
}

describe('walPosition', () => {
  it('orders WAL positions as PostgreSQL does: by the high word, then the low one', () => {
    expect(walPosition('0/3000148')).toBe(0x3000148n);
    expect(walPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(walPosition('A/0') > walPosition('9/FFFFFFFF')).toBe(true);
  });
});

describe.skipIf(skip)('read replica: a real streaming standby made with pg_basebackup', () => {
  let clusters: PrimaryAndStandby | undefined;
  let primaryUrl: string;
  let replicaUrl: string;
  const apps: TestApp[] = [];

  /** Waits until the standby has replayed everything the primary holds now. */
  async function replicaCaughtUp(): Promise<void> {
    const lsn = (await query<{ lsn: string }>(primaryUrl, "select pg_current_wal_lsn()::text as lsn"))[0]!.lsn;
    await vi.waitUntil(async () => (await query<{ done: boolean }>(replicaUrl, `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`))[0]!.done, { timeout: 30_000, interval: 50 });
  }

  /** The app on the primary with the standby as its replica, the lag bound `maxLagMs`, and a small world. */
  async function appWithReplica(maxLagMs: number) {
    const t = await buildTestApp({}, {
      databaseEnv: () => ({ DATABASE_URL: primaryUrl, DATABASE_REPLICA_URL: replicaUrl, DATABASE_REPLICA_MAX_LAG_MS: String(maxLagMs) }),
    });
    apps.push(t);
    const agency = await createAgency(t.db);
    const branch = await createBranch(t.db, agency.id);
    const writer = await userClient(t, { role: 'admin', agencyId: agency.id });
    const reader = await userClient(t, { role: 'admin', agencyId: agency.id });
    await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id, title: 'Dripping tap' });
    await replicaCaughtUp();
    await vi.waitUntil(async () => (await t.deps.reads.check()).state === 'healthy', { timeout: 30_000, interval: 50 });
    return { t, agency, branch, writer, reader };
  }

  beforeAll(async () => {
    clusters = await startPrimaryAndStandby((url) => query(url('postgres'), 'create database caretaker').then(() => undefined));
    primaryUrl = clusters.url(clusters.primaryPort, 'caretaker');
    replicaUrl = clusters.url(clusters.standbyPort, 'caretaker');
    expect((await query<{ standby: boolean }>(replicaUrl, 'select pg_is_in_recovery() as standby'))[0]!.standby).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => undefined);
    await clusters?.stop();
  }, 60_000);

  it('sends lists, the dashboard and search to the replica, and a person\'s reads after their own write to the primary', async () => {
    // A bound no pause in this test reaches: the replica stays in use however long replay is paused.
    const { t, agency, branch, writer, reader } = await appWithReplica(600_000);
    expect(await listedTitles(reader.client)).toEqual(['Dripping tap']);
    const dashboard = await reader.client.get('/api/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const dashboardBefore = dashboard.json().data.open_jobs.total as number;

    await query(replicaUrl, 'select pg_wal_replay_pause()');
    try {
      // Written on the primary by nobody signed in: the paused standby does not have it.
      await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id, title: 'Mould in the bathroom' });
      expect(await listedTitles(reader.client)).toEqual(['Dripping tap']);
      expect(await listedTitles(writer.client)).toEqual(['Dripping tap']);
      expect((await reader.client.get('/api/dashboard')).json().data.open_jobs.total).toBe(dashboardBefore);
      const searched = await reader.client.get('/api/search?q=mould');
      expect(searched.statusCode, searched.body).toBe(200);
      expect(searched.json().data).toEqual([]);
      // The primary has it (the same requests with the replica out of the way would show it).
      expect((await query<{ n: number }>(primaryUrl, "select count(*)::int as n from jobs where title = 'Mould in the bathroom'"))[0]!.n).toBe(1);

      // The writer's own write is seen at once: their reads go to the primary until the replica has it.
      const created = await writer.client.post('/api/jobs/manage', { title: 'Broken window', priority: 3, branch_uuid: branch.uuid });
      expect(created.statusCode, created.body).toBe(201);
      expect((await listedTitles(writer.client)).sort()).toEqual(['Broken window', 'Dripping tap', 'Mould in the bathroom']);
      // Someone else still reads the replica, which is still paused.
      expect(await listedTitles(reader.client)).toEqual(['Dripping tap']);
      expect(t.deps.reads.status().state).toBe('healthy');
    } finally {
      await query(replicaUrl, 'select pg_wal_replay_resume()');
    }
    // Replay resumed: the replica catches up and everybody's list shows both jobs.
    await replicaCaughtUp();
    await vi.waitUntil(async () => (await listedTitles(reader.client)).length === 3, { timeout: 30_000, interval: 50 });
    expect((await listedTitles(reader.client)).sort()).toEqual(['Broken window', 'Dripping tap', 'Mould in the bathroom']);
  }, 60_000);

  it('skips a replica further behind than the bound, and a stopped one; reads still answer', async () => {
    // The smallest bound: the check runs every 100 ms and a paused replica passes it quickly.
    const { t, agency, branch, reader } = await appWithReplica(200);
    const before = await listedTitles(reader.client);

    await query(replicaUrl, 'select pg_wal_replay_pause()');
    try {
      await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id, title: 'Lift out of order' });
      // Until a check finds the replica behind the bound the list may come from it; then it is skipped.
      await vi.waitUntil(async () => t.deps.reads.status().state === 'lagging', { timeout: 30_000, interval: 50 });
      expect(await listedTitles(reader.client)).toContain('Lift out of order');
    } finally {
      await query(replicaUrl, 'select pg_wal_replay_resume()');
    }
    await replicaCaughtUp();
    await vi.waitUntil(async () => t.deps.reads.status().state === 'healthy', { timeout: 30_000, interval: 50 });
    expect((await listedTitles(reader.client)).sort()).toEqual([...before, 'Lift out of order'].sort());

    // The replica stops: the reads still answer (from the primary), and the replica is marked down.
    await pgBinary('pg_ctl', ['-D', clusters!.standbyDir, '-m', 'fast', '-w', 'stop']);
    await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id, title: 'Gutter blocked' });
    expect(await listedTitles(reader.client)).toContain('Gutter blocked');
    const dashboard = await reader.client.get('/api/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    await vi.waitUntil(async () => t.deps.reads.status().state === 'down', { timeout: 30_000, interval: 50 });
    expect(await listedTitles(reader.client)).toContain('Gutter blocked');
  }, 60_000);
});
