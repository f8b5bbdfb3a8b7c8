/**
 * Periodic tasks run once per cluster (docs/events.md): two worker instances, each with its own
 * pg-boss instance and connection pool on one PostgreSQL database, share a cron schedule; every
 * tick produces one job and one run, whichever instance takes it. PGlite is one process, so this
 * needs PostgreSQL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeriodicTask } from '../../src/events/index.ts';
import { taskQueue } from '../../src/events/queue.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../../src/events/worker.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const quiet = { info: () => {}, error: () => {} };

describe.skipIf(skipWithout(onPostgres, 'periodic tasks on two instances need PostgreSQL (set DATABASE_URL; CI\'s second run does): PGlite cannot be shared by two instances'))('periodic tasks on two instances (needs DATABASE_URL: PGlite cannot be shared by two instances)', () => {
  let t: TestApp;
  const workers: BackgroundWorker[] = [];
  const runs: string[] = [];
  const task: PeriodicTask = {
    name: 'platform.tick',
    cron: '* * * * *',
    async run() {
      runs.push(new Date().toISOString());
    },
  };

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_RELAY_INTERVAL_MS: '200' });
  }, 600_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop(5_000)));
    await t.close();
  });

  it('runs a minute task once per tick whatever the number of instances', { timeout: 240_000 }, async () => {
    for (let i = 0; i < 2; i++) workers.push(await startBackgroundWorker(t.deps, t.database, [], [task], quiet, { cronWorkerIntervalSeconds: 1 }));
    const end = Date.now() + 200_000;
    while (runs.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    await Promise.all(workers.map((w) => w.stop(5_000)));
    const jobs = await sql<{ jobs: number; slots: number; completed: number }>`
      select count(*)::int as jobs, count(distinct date_trunc('minute', created_on))::int as slots,
             (count(*) filter (where state = 'completed'))::int as completed
      from pgboss.job where name = ${taskQueue(task.name)}`.execute(t.db);
    const row = jobs.rows[0]!;
    // One job per minute tick although both instances run the cron pass; one run per job.
    expect(row.jobs).toBe(row.slots);
    expect(runs.length).toBe(row.completed);
    expect(runs.length).toBeLessThanOrEqual(row.jobs);
  });
});
