/**
 * SLA benchmark (docs/sla.md, bench/README.md "SLA clocks"): on a fresh database,
 * 1. recomputing the clocks of 10,000 open jobs of one branch after one of its rules changes
 *    (`recomputeOpenJobs`, the path of POST /api/agents/branch-sla-response-times), and
 * 2. the periodic scan `sla.scan` over 100,000 running clocks, 1,000 of them past due_at and 2,000
 *    past their at-risk instant, then the same scan again with nothing to move (its steady cost),
 * with the EXPLAIN of the scan's queries (the partial indexes on due_at / at_risk_at of running
 * clocks, not a table scan).
 *
 *   node bench/sla.ts                         # PGlite in memory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/sla.ts
 *
 * With DATABASE_URL it creates and drops its own database (caretaker_test_*).
 */
import { sql } from 'kysely';
import type { AppDeps } from '../src/app-deps.ts';
import { createDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { recomputeOpenJobs, scanSlaClocks } from '../src/modules/jobs/sla/index.ts';
import { createTestDatabase } from '../test/helpers/database.ts';

const NOW = new Date('2026-11-21T09:00:00Z');
const BRANCH_JOBS = 10_000;
const SCAN_CLOCKS = 100_000;
const DUE = 1_000;
const AT_RISK = 2_000;

const run = (db: Db, statement: string) => sql.raw(statement).execute(db);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  console.log(`${label}: ${seconds(performance.now() - started)} s`);
  return result;
}

/** Agency 1 with branch 1 (10,000 open jobs, 4 rules) and branch 2 (100,000 jobs for the scan). */
async function generate(db: Db): Promise<void> {
  const now = `'${NOW.toISOString()}'::timestamptz`;
  await run(db, `insert into agencies (id, uuid, name, created_at, updated_at) values (1, md5('a1')::uuid, 'Bench', ${now}, ${now})`);
  await run(db, `insert into branches (id, uuid, agency_id, name, created_at, updated_at)
    values (1, md5('b1')::uuid, 1, 'Rules', ${now}, ${now}), (2, md5('b2')::uuid, 1, 'Scan', ${now}, ${now})`);
  // Branch 1: open jobs (Reported, Approved or On hold) created over the 30 days before now.
  await run(db, `insert into jobs (id, uuid, agency_id, branch_id, reference, title, description, priority, status_id,
      job_type_id, created_at, updated_at, approved_at)
    select g, md5('job' || g)::uuid, 1, 1, 'JOB-' || lpad(g::text, 7, '0'), 'Bench job', '', g % 5 + 1,
      (array[1, 3, 11])[g % 3 + 1], g % 6 + 1, ${now} - (g % 720) * interval '1 hour', ${now},
      case when g % 3 > 0 then ${now} - (g % 720) * interval '1 hour' + interval '2 hours' end
    from generate_series(1, ${BRANCH_JOBS}) g`);
  await run(db, `insert into job_status_history (job_id, from_status_id, to_status_id, created_at)
    select id, null, 1, created_at from jobs`);
  await run(db, `insert into job_status_history (job_id, from_status_id, to_status_id, created_at)
    select id, 1, 3, approved_at from jobs where approved_at is not null`);
  await run(db, `insert into job_status_history (job_id, from_status_id, to_status_id, created_at)
    select id, 3, 11, approved_at + interval '1 hour' from jobs where status_id = 11`);
  await run(db, `insert into branch_sla_rules (uuid, agency_id, branch_id, job_status_from_id, job_status_to_id, job_type_id,
      job_priority, date_field_to_track, date_field_to_compare, minimum_response_days, calendar, description, created_at, updated_at)
    values
      (md5('r1')::uuid, 1, 1, 1, 6, 2, 1, 'attended_at', 'created_at', 1, 'calendar_days', 'Emergency attended in 1 day', ${now}, ${now}),
      (md5('r2')::uuid, 1, 1, 1, 6, null, null, 'attended_at', 'created_at', 10, 'working_days', 'Attended in 10 working days', ${now}, ${now}),
      (md5('r3')::uuid, 1, 1, 1, 3, null, null, 'approved_at', 'created_at', 2, 'working_days', 'Approved in 2 working days', ${now}, ${now}),
      (md5('r4')::uuid, 1, 1, 3, 4, null, null, 'assigned_at', 'approved_at', 2, 'calendar_days', 'Assigned in 2 days', ${now}, ${now})`);
  // Branch 2: 100,000 jobs, each with one running clock; DUE are past due_at, AT_RISK past at_risk_at.
  await run(db, `insert into branch_sla_rules (id, uuid, agency_id, branch_id, job_status_from_id, job_status_to_id,
      date_field_to_track, date_field_to_compare, minimum_response_days, description, created_at, updated_at)
    values (1000, md5('r5')::uuid, 1, 2, 1, 6, 'attended_at', 'created_at', 30, 'Attended in 30 days', ${now}, ${now})`);
  await run(db, `insert into jobs (id, uuid, agency_id, branch_id, reference, title, description, priority, status_id,
      job_type_id, created_at, updated_at)
    select 100000 + g, md5('scan' || g)::uuid, 1, 2, 'SCN-' || lpad(g::text, 7, '0'), 'Scan job', '', 3, 1, 1,
      ${now} - interval '10 days', ${now}
    from generate_series(1, ${SCAN_CLOCKS}) g`);
  await run(db, `insert into sla_clocks (agency_id, branch_id, job_id, rule_id, state, started_at, due_at, at_risk_at, created_at, updated_at)
    select 1, 2, 100000 + g, 1000, 'running', ${now} - interval '10 days',
      case when g <= ${DUE} then ${now} - interval '1 minute' else ${now} + (g % 2000 + 1) * interval '1 hour' end,
      case when g <= ${DUE + AT_RISK} then ${now} - interval '2 minutes' else ${now} + (g % 2000) * interval '1 hour' / 2 + interval '1 hour' end,
      ${now}, ${now}
    from generate_series(1, ${SCAN_CLOCKS}) g`);
  await run(db, 'analyze');
}

async function explain(db: Db, label: string, query: string): Promise<void> {
  const rows = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${query}`).execute(db);
  console.log(`\nEXPLAIN ${label}:\n${rows.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
}

async function main(): Promise<void> {
  const target = await createTestDatabase();
  const handle = createDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  const db = handle.db;
  try {
    console.log(`engine: ${handle.engine}`);
    await migrateToLatest(db);
    await timed('generate', () => generate(db));
    const clock = new ManualClock(NOW);
    const deps = { db, clock } as unknown as AppDeps;

    await timed(`first measure of ${BRANCH_JOBS} open jobs (4 rules)`, () => recomputeOpenJobs(deps, { branchId: 1 }));
    await run(db, "update branch_sla_rules set minimum_response_days = 5 where uuid = md5('r3')::uuid");
    const n = await timed(`recompute after a rule change (${BRANCH_JOBS} open jobs)`, () => recomputeOpenJobs(deps, { branchId: 1 }));
    console.log(`  jobs recomputed: ${n}`);

    const now = `'${NOW.toISOString()}'::timestamptz`;
    await explain(db, 'scan, breaches', `select id from sla_clocks where state in ('running', 'at_risk') and due_at <= ${now} order by due_at limit 1000 for update skip locked`);
    await explain(db, 'scan, at risk', `select id from sla_clocks where state = 'running' and at_risk_at <= ${now} and due_at > ${now} order by at_risk_at limit 1000 for update skip locked`);
    const moved = await timed(`scan over ${SCAN_CLOCKS} running clocks (${DUE} due, ${AT_RISK} at risk)`, () => scanSlaClocks(deps));
    console.log(`  moved: ${JSON.stringify(moved)}`);
    const idle = await timed('scan again, nothing to move', () => scanSlaClocks(deps));
    console.log(`  moved: ${JSON.stringify(idle)}`);
  } finally {
    await handle.close();
    await target.drop();
  }
}

await main();
