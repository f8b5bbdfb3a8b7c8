/**
 * Insight benchmark (docs/insight.md "Bench"): the dashboard, search and analytics at 100,000 jobs.
 * Builds a fresh database with bench/generate.ts (10 agencies x 5 branches, 100,000 jobs over a
 * year), then makes it look like real work, set-based and deterministic: 20,000 addresses with UK
 * postcodes, 20,000 tenants, 500 contractors, thirty real job titles, addresses, contractors and
 * visit dates on the jobs, an SLA clock per job and an invoice per completed job. Then it times
 * in-process requests (app.inject: the whole pipeline, token lookup and rate limits included, no
 * network) one at a time and prints p50/p95/max.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/insight.ts
 *
 * Environment: BENCH_JOBS (default 100000), BENCH_ROUNDS (default 40 per scenario), BENCH_KEEP_DB=true
 * (keep the database to EXPLAIN queries; drop it by hand afterwards).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../src/main/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { openRuntime } from '../src/main/runtime.ts';
import { createTestDatabase } from '../test/helpers/database.ts';
import { BENCH_NOW, generate } from './generate.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const PASSWORD = 'bench password 2026';

const TITLES = [
  'Boiler not firing', 'Leaking kitchen tap', 'Blocked toilet', 'No hot water', 'Broken window latch', 'Damp in bathroom',
  'Mould on bedroom wall', 'Roof tiles slipped', 'Gutter overflowing', 'Front door lock jammed', 'Electric shower not working',
  'Tripping fuse box', 'Radiator cold at top', 'Extractor fan broken', 'Oven not heating', 'Washing machine leaking',
  'Smoke alarm beeping', 'Cracked bathroom tile', 'Garden fence blown down', 'External wall needs painting',
  'Mice in the loft', 'Blocked drain outside', 'Fridge freezer not cooling', 'Ceiling stain after rain', 'Loose banister',
  'Doorbell not working', 'Gas safety check due', 'EICR inspection', 'Carpet lifting on stairs', 'Condensation on windows',
];
const OUTWARD = ['LS6', 'LS1', 'LS2', 'YO1', 'YO10', 'M1', 'M14', 'SW1A', 'E14', 'N1', 'B15', 'BS8', 'CF10', 'NE1', 'G12'];
const STREETS = ['Acacia Avenue', 'Hyde Park Road', 'Cardigan Road', 'Headingley Lane', 'Victoria Road', 'Station Road', 'Church Street', 'Mill Lane', 'Park View', 'Queen Street'];
const FIRST = ['Emily', 'Oliver', 'Amelia', 'Jack', 'Isla', 'Harry', 'Ava', 'George', 'Mia', 'Noah', 'Sophie', 'Leo', 'Grace', 'Arthur', 'Ella'];
const LAST = ['Clarke', 'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Evans', 'Thomas', 'Roberts', 'Patel', 'Khan', 'Walker', 'Wright'];
const TRADES = ['Plumbing', 'Electrical', 'Roofing', 'Heating', 'Glazing', 'Drainage', 'Locksmiths', 'Decorating', 'Joinery', 'Pest Control'];

const arr = (xs: string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;

async function enrich(db: Parameters<typeof generate>[0]): Promise<void> {
  const now = `'${BENCH_NOW}'::timestamptz`;
  const run = (s: string) => sql.raw(s).execute(db);
  await run(`insert into addresses (uuid, agency_id, branch_id, line1, town, postcode, created_at, updated_at)
    select md5('addr' || g)::uuid, g % 10 + 1, (g % 10) * 5 + (g / 10) % 5 + 1,
      (g % 200 + 1) || ' ' || (${arr(STREETS)})[g % 10 + 1], 'Town ' || (g % 10 + 1),
      (${arr(OUTWARD)})[g % 15 + 1] || ' ' || (g % 9 + 1) || chr(65 + g % 26) || chr(65 + (g / 26) % 26), ${now}, ${now}
    from generate_series(1, 20000) g`);
  await run(`insert into tenants (uuid, agency_id, name, email, created_at, updated_at)
    select md5('tenant' || g)::uuid, g % 10 + 1, (${arr(FIRST)})[g % 15 + 1] || ' ' || (${arr(LAST)})[(g / 15) % 14 + 1] || ' ' || g,
      'tenant' || g || '@example.test', ${now}, ${now}
    from generate_series(1, 20000) g`);
  await run(`insert into contractors (uuid, agency_id, company_name, email, created_at, updated_at)
    select md5('contractor' || g)::uuid, g % 10 + 1, (${arr(LAST)})[g % 14 + 1] || ' ' || (${arr(TRADES)})[(g / 14) % 10 + 1] || ' ' || g,
      'c' || g || '@example.test', ${now}, ${now}
    from generate_series(1, 500) g`);
  // Each job: a title (spread evenly over agencies: (id / 10) % 30), the address and a contractor of its agency (ids congruent mod 10), and a
  // visit date from 5 days back to 14 ahead for assigned and scheduled jobs. Inside the subqueries
  // `jobs.id` is spelled out: a bare `id` would be the address's or contractor's own.
  await run(`update jobs set
      title = (${arr(TITLES)})[(id / 10) % 30 + 1],
      description = 'Tenant reports: ' || lower((${arr(TITLES)})[(id / 10) % 30 + 1]) || '. Access via the side gate; call before visiting.',
      address_id = (select a.id from addresses a where a.uuid = md5('addr' || (((jobs.id / 10) % 1999 + 1) * 10 + (jobs.id % 10)))::uuid),
      contractor_id = case when status_id >= 4 then (select c.id from contractors c where c.uuid = md5('contractor' || (((jobs.id / 10) % 49 + 1) * 10 + (jobs.id % 10)))::uuid) end,
      scheduled_for = case when status_id in (4, 5) then ${now} + ((id % 20) - 5) * interval '1 day' end`);
  // SLA: one rule per branch and one clock per job, states spread by id / 10 (4 met, 2 running,
  // 1 at risk, 2 breached, 1 paused in 10; not by id % 10, which is the job's agency), as the
  // engine would store them.
  await run(`insert into branch_sla_rules (uuid, agency_id, branch_id, job_status_from_id, job_status_to_id, date_field_to_track,
      date_field_to_compare, minimum_response_days, description, created_at, updated_at)
    select md5('rule' || b.id)::uuid, b.agency_id, b.id, 1, 6, 'attended_at', 'created_at', 5, 'Attended in 5 days', ${now}, ${now}
    from branches b`);
  await run(`insert into sla_clocks (agency_id, branch_id, job_id, rule_id, state, started_at, due_at, at_risk_at, created_at, updated_at)
    select j.agency_id, j.branch_id, j.id, r.id,
      (array['met', 'met', 'met', 'met', 'running', 'running', 'at_risk', 'breached', 'breached', 'paused'])[(j.id / 10) % 10 + 1],
      j.created_at, j.created_at + interval '5 days', j.created_at + interval '90 hours', ${now}, ${now}
    from jobs j join branch_sla_rules r on r.branch_id = j.branch_id`);
  // Money: an invoice for every completed, invoiced or closed job (about 27,000), states spread by id.
  await run(`insert into invoices (uuid, agency_id, job_id, contractor_id, kind, number, status, contractor_reference, vat_registered,
      payment_terms_days, issue_date, due_date, net_pence, vat_pence, gross_pence, paid_pence, credited_pence, created_at, updated_at)
    select md5('inv' || x.id)::uuid, x.agency_id, x.id, x.contractor_id, 'invoice',
      case when x.st = 'draft' then null else row_number() over (partition by x.agency_id order by x.id) end, x.st, 'REF-' || x.id, false,
      30, x.created_at::date + 3, x.created_at::date + 33, x.gross, 0, x.gross,
      case x.st when 'part_paid' then x.gross / 2 when 'paid' then x.gross else 0 end, 0, ${now}, ${now}
    from (select j.id, j.agency_id, j.contractor_id, j.created_at, 5000 + (j.id % 200) * 100 as gross,
        (array['draft', 'issued', 'part_paid', 'paid', 'paid', 'overdue', 'void'])[(j.id / 10) % 7 + 1] as st
      from jobs j where j.status_id in (7, 8, 9) and j.contractor_id is not null) x`);
  await run('vacuum analyze');
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (PostgreSQL): this bench measures the production engine');
  const env = { LOG_LEVEL: 'silent', CARETAKER_RATE_LIMIT_IP_MAX: '1000000', CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '1000000' };
  loadConfig(env); // a bad setting fails before any database exists
  const database = await createTestDatabase();
  const config = loadConfig({ ...env, DATABASE_URL: database.databaseUrl! });
  const clock = new ManualClock(new Date(BENCH_NOW));
  const runtime = await openRuntime(config, {
    clock, dataDir: database.dataDir, redisPrefix: `bench:${randomBytes(4).toString('hex')}:`,
    filesDir: await mkdtemp(path.join(tmpdir(), 'bench-files-')), mailDir: await mkdtemp(path.join(tmpdir(), 'bench-mail-')),
  });
  const db = runtime.deps.db;
  try {
    let t0 = Date.now();
    await generate(db, { jobs: JOBS, activity: 10_000, passwordHash: await hashPassword(PASSWORD), loginAccounts: 0, registerAndStatement: false });
    await enrich(db);
    console.error(`data: ${JOBS} jobs in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const app = await buildApp(runtime.deps, { logger: false });
    await app.ready();
    const token = async (email: string) => (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } })).json().token as string;
    const sysopsRole = await db.selectFrom('roles').select('id').where('code', '=', 'sysops').executeTakeFirstOrThrow();
    await db.updateTable('users').set({ role_id: sysopsRole.id, agency_id: null }).where('email', '=', 'admin-10@bench.test').execute();
    const who = { admin: await token('admin-1@bench.test'), agent: await token('agent-2@bench.test'), sysops: await token('admin-10@bench.test') };
    const scenarios: Array<[string, keyof typeof who, string]> = [
      ['baseline: GET /api/users/permissions (pipeline + one small query)', 'admin', '/api/users/permissions'],
      ['dashboard, agency admin (10,000 jobs)', 'admin', '/api/dashboard'],
      ['dashboard, agent (branch: 2,000 jobs + sharing)', 'agent', '/api/dashboard'],
      ['dashboard, SysOps (100,000 jobs)', 'sysops', '/api/dashboard'],
      ['search "boiler" (common word), admin', 'admin', '/api/search?q=boiler'],
      ['search "boilr" (typo), admin', 'admin', '/api/search?q=boilr'],
      ['search "ls62ab" (postcode, no space), admin', 'admin', '/api/search?q=ls62ab'],
      ['search "JOB-0054321" (reference), admin', 'admin', '/api/search?q=JOB-0054321'],
      ['search "emily clarke" (tenant name), admin', 'admin', '/api/search?q=emily%20clarke'],
      ['search "INV-000123" (invoice number), admin', 'admin', '/api/search?q=INV-000123'],
      ['search "REF-54321" (contractor reference), invoices, admin', 'admin', '/api/search?q=REF-54321&types=invoice'],
      ['search "boiler", SysOps (100,000 jobs)', 'sysops', '/api/search?q=boiler&types=job'],
      ['analytics, a year by month', 'admin', '/api/analytics/jobs?from_date=2025-11-22&to_date=2026-11-21&interval=month'],
      ['analytics, a year by month and contractor', 'admin', '/api/analytics/jobs?from_date=2025-11-22&to_date=2026-11-21&interval=month&group_by=contractor&limit=200'],
    ];
    const load = loadavg().map((l) => l.toFixed(1)).join(', ');
    const lines: string[] = [];
    for (const [name, as, url] of scenarios) {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS + 3; i += 1) {
        t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who[as]}` } });
        const ms = performance.now() - t0;
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        if (i >= 3) times.push(ms);
      }
      const line = `| ${name} | \`${url}\` | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} | ${Math.max(...times).toFixed(1)} |`;
      lines.push(line);
      console.error(line);
    }
    console.log(`\n### Insight on PostgreSQL, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (load average before: ${load})\n`);
    console.log(`${JOBS.toLocaleString('en-GB')} jobs (one SLA clock each), ~27,000 invoices, 20,000 addresses, 20,000 tenants, 500 contractors; ${ROUNDS} sequential requests per row after 3 warm-up ones, in process (app.inject: whole pipeline, no network).\n`);
    console.log('| scenario | request | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
    console.log(lines.join('\n'));
    await app.close();
  } finally {
    await runtime.close();
    if (process.env.BENCH_KEEP_DB === 'true') console.error(`kept ${database.databaseUrl} (drop it when done)`);
    else await database.drop();
  }
}

await main();
