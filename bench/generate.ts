/**
 * Benchmark data (bench/README.md): a deterministic data set written with set-based SQL
 * (`insert ... select ... from generate_series(...)`), so 100,000 jobs and 1,000,000 activity
 * entries take seconds, not minutes. Runs on PGlite and PostgreSQL.
 *
 * Shape: 10 agencies (50 for the `huge` size: `agencies`) with 5 branches each; per agency one
 * admin (user id (a-1)*6+1) and five agents, one per branch; `loginAccounts` extra admins of
 * agency 1 for the login scenario; jobs spread evenly over agencies, branches, statuses and the
 * year before 2026-11-21, each at one of its agency's 100 properties (addresses) and with two
 * history rows (its creation by the agency's admin, then the move to its status an hour later);
 * activity entries spread over the agency users (60, or 300) and the same year.
 */
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { createHistoryMonths } from '../src/modules/platform/gdpr/index.ts';

/** Agencies unless `GenerateOptions.agencies` says otherwise. */
export const AGENCIES = 10;
export const BRANCHES_PER_AGENCY = 5;
export const USERS_PER_AGENCY = 6;
/** Properties (addresses) per agency: address (a-1)*100+k, branch k % 5 of its agency. */
export const ADDRESSES_PER_AGENCY = 100;
/** "Now" of the data set. */
export const BENCH_NOW = '2026-11-21T09:00:00Z';

export interface GenerateOptions {
  jobs: number;
  activity: number;
  /** argon2id hash used for every account. */
  passwordHash: string;
  /** Extra admins of agency 1 (login-N@bench.test) for the login scenario. */
  loginAccounts: number;
  /** Agencies (default AGENCIES, 10); the `huge` size has 50. */
  agencies?: number;
}

async function run(db: Db, statement: string): Promise<void> {
  await sql.raw(statement).execute(db);
}

/**
 * Fills a freshly migrated database (built-in roles synced).
 * @returns seconds taken
 */
export async function generate(db: Db, o: GenerateOptions): Promise<number> {
  const started = Date.now();
  const now = `'${BENCH_NOW}'::timestamptz`;
  const hash = o.passwordHash.replace(/'/g, "''");
  const roles = new Map((await db.selectFrom('roles').select(['id', 'code']).execute()).map((r) => [r.code, r.id]));
  const admin = roles.get('admin');
  const agent = roles.get('agent');
  if (!admin || !agent) throw new Error('built-in roles missing: migrate and sync first');
  const agencies = o.agencies ?? AGENCIES;
  const users = agencies * USERS_PER_AGENCY;

  await run(db, `insert into agencies (id, uuid, name, created_at, updated_at)
    select g, md5('agency' || g)::uuid, 'Bench agency ' || g, ${now}, ${now} from generate_series(1, ${agencies}) g`);
  await run(db, `insert into branches (id, uuid, agency_id, name, sharing_enabled, created_at, updated_at)
    select g, md5('branch' || g)::uuid, (g - 1) / ${BRANCHES_PER_AGENCY} + 1, 'Branch ' || g, g % 5 = 0, ${now}, ${now}
    from generate_series(1, ${agencies * BRANCHES_PER_AGENCY}) g`);
  // User (a-1)*6+1 is agency a's admin; +2..+6 are its agents, one per branch.
  await run(db, `insert into users (id, uuid, agency_id, branch_id, role_id, name, email, password_hash, created_at, updated_at)
    select g, md5('user' || g)::uuid, (g - 1) / ${USERS_PER_AGENCY} + 1,
      case when (g - 1) % ${USERS_PER_AGENCY} = 0 then null
           else ((g - 1) / ${USERS_PER_AGENCY}) * ${BRANCHES_PER_AGENCY} + (g - 1) % ${USERS_PER_AGENCY} end,
      case when (g - 1) % ${USERS_PER_AGENCY} = 0 then ${admin} else ${agent} end,
      'Bench user ' || g,
      case when (g - 1) % ${USERS_PER_AGENCY} = 0 then 'admin-' || ((g - 1) / ${USERS_PER_AGENCY} + 1) || '@bench.test'
           else 'agent-' || g || '@bench.test' end,
      '${hash}', ${now}, ${now}
    from generate_series(1, ${users}) g`);
  await run(db, `insert into users (id, uuid, agency_id, branch_id, role_id, name, email, password_hash, created_at, updated_at)
    select ${users} + g, md5('login' || g)::uuid, 1, null, ${admin}, 'Login user ' || g, 'login-' || g || '@bench.test',
      '${hash}', ${now}, ${now}
    from generate_series(1, ${o.loginAccounts}) g`);
  // A SysOps account (sysops@bench.test) who sees every job: the growth scenario over all of them.
  const sysops = roles.get('sysops');
  if (!sysops) throw new Error('built-in role sysops missing: migrate and sync first');
  await run(db, `insert into users (id, uuid, agency_id, branch_id, role_id, name, email, password_hash, created_at, updated_at)
    values (${users + o.loginAccounts + 1}, md5('sysops')::uuid, null, null, ${sysops}, 'Bench SysOps', 'sysops@bench.test', '${hash}', ${now}, ${now})`);

  // Properties: address (a-1)*100+k+1 of agency a in its branch k % 5 + 1, stored with their PAF
  // parts (building number and street), so the wire shape is the stored parts.
  await run(db, `insert into addresses (id, uuid, agency_id, branch_id, line1, town, postcode, building_number, street, created_at, updated_at)
    select g, md5('address' || g)::uuid, (g - 1) / ${ADDRESSES_PER_AGENCY} + 1,
      ((g - 1) / ${ADDRESSES_PER_AGENCY}) * ${BRANCHES_PER_AGENCY} + ((g - 1) % ${ADDRESSES_PER_AGENCY}) % ${BRANCHES_PER_AGENCY} + 1,
      ((g - 1) % ${ADDRESSES_PER_AGENCY} + 1) || ' Bench Road', 'Leeds', 'LS' || ((g - 1) / ${ADDRESSES_PER_AGENCY} % 20 + 1) || ' ' || ((g - 1) % 9 + 1) || 'AB',
      ((g - 1) % ${ADDRESSES_PER_AGENCY} + 1)::text, 'Bench Road', ${now}, ${now}
    from generate_series(1, ${agencies * ADDRESSES_PER_AGENCY}) g`);

  // Jobs: agency (g % agencies) + 1, one of its five branches, at one of that branch's properties,
  // spread over the year before "now".
  await run(db, `insert into jobs (id, uuid, agency_id, branch_id, address_id, reference, title, description, priority, status_id,
      job_type_id, created_at, updated_at)
    select g, md5('job' || g)::uuid, g % ${agencies} + 1,
      (g % ${agencies}) * ${BRANCHES_PER_AGENCY} + (g / ${agencies}) % ${BRANCHES_PER_AGENCY} + 1,
      (g % ${agencies}) * ${ADDRESSES_PER_AGENCY} + (g / ${agencies}) % ${ADDRESSES_PER_AGENCY} + 1,
      'JOB-' || lpad(g::text, 7, '0'), 'Bench job ' || g, 'Generated for the benchmark', g % 5 + 1, g % 11 + 1, g % 6 + 1,
      ${now} - ((${o.jobs} - g)::double precision * ${(365 * 86400) / o.jobs}) * interval '1 second',
      ${now} - ((${o.jobs} - g)::double precision * ${(365 * 86400) / o.jobs}) * interval '1 second'
    from generate_series(1, ${o.jobs}) g`);
  await run(db, `insert into agency_counters (agency_id, name, value)
    select g, 'job_reference', ${o.jobs} + 1 from generate_series(1, ${agencies}) g`);

  // The history tables are partitioned by month (docs/operations.md "History partitions and
  // retention"): the year's months are created first, so the activity lands in them, not in DEFAULT.
  await createHistoryMonths(db, new Date(new Date(BENCH_NOW).getTime() - 366 * 86_400_000), new Date(BENCH_NOW));
  // History: each job's creation (null -> Reported, by its agency's admin) and, for a job past
  // Reported, the move to its status an hour later (ids 2g-1 and 2g).
  await run(db, `insert into job_status_history (id, job_id, from_status_id, to_status_id, by_user_id, note, created_at)
    select 2 * j.id - 1 + s.k, j.id, case when s.k = 0 then null else 1 end, case when s.k = 0 then 1 else j.status_id end,
      (j.agency_id - 1) * ${USERS_PER_AGENCY} + 1, case when s.k = 0 then null else 'Bench move' end, j.created_at + s.k * interval '1 hour'
    from jobs j cross join generate_series(0, 1) s(k) where s.k = 0 or j.status_id <> 1`);
  // Activity: agency (g % agencies) + 1, one of its six users, eight actions, the same year.
  await run(db, `insert into activity_log (id, agency_id, user_id, user_name, action, resource_type, resource_id, ip_address,
      details, created_at)
    select g, g % ${agencies} + 1,
      (g % ${agencies}) * ${USERS_PER_AGENCY} + (g / ${agencies}) % ${USERS_PER_AGENCY} + 1,
      'Bench user ' || ((g % ${agencies}) * ${USERS_PER_AGENCY} + (g / ${agencies}) % ${USERS_PER_AGENCY} + 1),
      (array['job.create','job.update','auth.login','job.note_add','job.assign','invoice.create','tenant.update','auth.logout'])[g % 8 + 1],
      'job', g % ${Math.max(o.jobs, 1)} + 1, '10.0.' || (g % 250) || '.' || (g % 199), null,
      ${now} - ((${o.activity} - g)::double precision * ${(365 * 86400) / o.activity}) * interval '1 second'
    from generate_series(1, ${o.activity}) g`);

  for (const table of ['agencies', 'branches', 'users', 'addresses', 'jobs', 'job_status_history', 'activity_log']) {
    await run(db, `select setval('${table}_id_seq', (select max(id) from ${table}))`);
  }
  // A steady-state table has its visibility map set by autovacuum (index-only scans need it); a
  // bulk load does not yet, so vacuum now rather than measure the first minutes after a load.
  await run(db, 'vacuum analyze');
  return (Date.now() - started) / 1000;
}
