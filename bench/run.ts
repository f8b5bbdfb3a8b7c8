/**
 * `npm run bench` (bench/README.md): generates the data sets, starts bench/server.ts (the real app
 * and its ceiling on one pool) and drives each scenario with autocannon, printing requests per
 * second and p50/p99 latency beside the ceiling's, and the growth comparison (10,000 rows vs
 * 100,000 jobs / 1,000,000 activity entries).
 *
 * Environment: BENCH_DURATION_S (default 10), BENCH_ENGINES (default "pglite,postgres"; postgres
 * needs DATABASE_URL, a server the bench may create databases on), REDIS_URL (used with
 * PostgreSQL), BENCH_SIZES (default "small,large"), BENCH_SCENARIOS (parts of scenario names to
 * run, comma-separated; default all), BENCH_WARMUP_S (unmeasured load before each measured run,
 * default 10), BENCH_ROUNDS (turns of limit and Caretaker per scenario, default 4), BENCH_CPU_PROF
 * (a folder for the server's CPU profile). Only 127.0.0.1. Then the queue scenario of bench/queue.ts (`queue under peak load`; PostgreSQL and
 * Redis only; BENCH_QUEUE_RATE, BENCH_QUEUE_DURATION_S).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import pg from 'pg';
import { createTestDatabase } from '../test/helpers/database.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { pngBytes } from '../src/seed/demo/sample-files.ts';
import { queueTable, runQueueScenario } from './queue.ts';
import { cpuMs, machine, median, startBenchServer, type BenchServer } from './common.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
/**
 * BENCH_WARMUP_S: seconds of the same load, not measured, before each measured run (the limit's,
 * Caretaker's and the ceiling's alike), so each is measured once V8 has compiled its hot code;
 * 0 measures from the first request, as the runs before 2026-11-29 15:50 UTC did (bench/README.md).
 */
const WARMUP = Number(process.env.BENCH_WARMUP_S ?? 10);
/**
 * BENCH_ROUNDS: a scenario with a limit is measured in this many rounds, the limit and Caretaker
 * taking turns, each run lasting its share of the scenario's duration; 1 is one run each, limit
 * first, as the runs before 2026-11-29 15:50 UTC did (bench/README.md).
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
/** BENCH_SCENARIOS: comma-separated parts of scenario names to run (e.g. "POST job"); unset: all. */
const ONLY = process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
/** BENCH_CPU_PROF set: the server is profiled, so only Caretaker is loaded (no limit or ceiling runs). */
const PROFILING = Boolean(process.env.BENCH_CPU_PROF);
const PASSWORD = 'bench password 2026';
const LOGIN_ACCOUNTS = 20;
/** The data sets (bench/README.md): `huge` is PostgreSQL only (PGlite would take hours and hold it in one process's memory). */
const SIZES = {
  small: { jobs: 10_000, activity: 10_000, agencies: 10, label: '10k / 10k' },
  large: { jobs: 100_000, activity: 1_000_000, agencies: 10, label: '100k jobs / 1M activity' },
  huge: { jobs: 1_000_000, activity: 10_000_000, agencies: 50, label: '1M jobs / 10M activity, 50 agencies' },
} as const;
type Size = keyof typeof SIZES;
/** Connections of the loaded reads (jobs list, activity log, status); BENCH_CONNECTIONS, default 50. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Connections of the Caretaker-only reads (search, dashboard, jobs register); BENCH_CONNECTIONS, default 10. */
const INSIGHT_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Connections of the write mix; BENCH_CONNECTIONS, default 20 (as the job creation's). */
const WRITE_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** BENCH_KEEP_DB=true: the PostgreSQL databases are kept (their URLs printed) for EXPLAIN or a later run. */
const KEEP_DB = process.env.BENCH_KEEP_DB === 'true';

interface Row {
  engine: string;
  size: Size;
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The same-SQL ceiling: bare Fastify calling our services (bench/server.ts). */
  ceiling?: { rps: number; p50: number; p99: number };
  /** The honest limit: bare node:http, one prepared statement, the same bytes (bench/limit.ts). */
  limit?: { rps: number; p50: number; p99: number };
  /** The server process's CPU time (user + system) per request while Caretaker was loaded, µs. */
  cpuUs?: number;
}

/** Resident memory of a process in MiB (VmRSS from /proc; Linux only, else undefined). */
async function rssMiB(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 1024) : undefined;
}

/** Memory of the bench server: idle after start, and the peak while Caretaker served the 50-connection jobs list. */
interface Memory {
  engine: string;
  size: Size;
  idle?: number | undefined;
  peak?: number | undefined;
}
const memory: Memory[] = [];

/**
 * A fresh PostgreSQL database (as the tests make them) or a PGlite folder; on PostgreSQL,
 * BENCH_DB_<SIZE> (e.g. BENCH_DB_HUGE) names a database a BENCH_KEEP_DB run generated and kept,
 * used as it is (`reused`: no generation, never dropped).
 */
async function prepare(engine: 'pglite' | 'postgres', size: Size) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-'));
  const reuse = engine === 'postgres' ? process.env[`BENCH_DB_${size.toUpperCase()}`] : undefined;
  const pgdb = engine === 'postgres' && !reuse ? await createTestDatabase() : undefined;
  // A kept database carries the dead rows of the runs before it (every job creation spends CSRF
  // tokens and bumps a counter), and this machine's PostgreSQL runs without autovacuum
  // (autovacuum = off, as CI sets it): vacuumed first, so each run starts as a fresh one does.
  if (reuse) await vacuum(reuse);
  return {
    databaseUrl: reuse ?? pgdb?.databaseUrl,
    reused: Boolean(reuse),
    dataDir,
    drop: async () => {
      if (KEEP_DB && pgdb) process.stdout.write(`  kept ${pgdb.databaseUrl} (BENCH_DB_${size.toUpperCase()}=... reuses it; drop it when done)\n`);
      else await pgdb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` on one client of a PostgreSQL database, closed afterwards. */
async function onDatabase<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** VACUUM ANALYZE of a whole PostgreSQL database. */
async function vacuum(databaseUrl: string): Promise<void> {
  await onDatabase(databaseUrl, (client) => client.query('vacuum analyze'));
}

/** The size of a PostgreSQL database in bytes (pg_database_size). */
async function databaseBytes(databaseUrl: string): Promise<number> {
  return onDatabase(databaseUrl, async (client) => {
    const { rows } = await client.query<{ bytes: string }>('select pg_database_size(current_database()) as bytes');
    return Number(rows[0]!.bytes);
  });
}

async function startServer(env: Record<string, string>): Promise<BenchServer> {
  // BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it exits (for the profile tables in bench/README.md).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_SERVER_NODE_FLAGS: node flags for the server only (`--max-semi-space-size=16`, as `npm start` runs it).
  const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // `env` is the whole environment (the caller removed DATABASE_URL / REDIS_URL where unwanted).
  return startBenchServer(ROOT, env, [...flags, ...profile], (text) => {
    const generated = /generated in ([\d.]+) s/.exec(text);
    if (generated) process.stdout.write(`  ${env.BENCH_LABEL}: generated ${env.BENCH_JOBS} jobs, ${env.BENCH_ACTIVITY} activity entries, ${env.BENCH_AGENCIES} agencies in ${generated[1]} s\n`);
  });
}

/**
 * The unmeasured load before a measured run: the same options for BENCH_WARMUP_S seconds. Nothing
 * when that is 0, or for a scenario of seconds-long requests (a `timeout` set: the whole jobs
 * register), which its own first request warms and which a cut-off warm-up would leave running.
 */
async function warm(opts: Options): Promise<void> {
  if (WARMUP > 0 && opts.timeout === undefined) await autocannon({ ...opts, duration: WARMUP });
}

/** One measured run: requests per second, latency percentiles (ms), failed requests, requests and seconds. */
interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  seconds: number;
}

async function cannon(opts: Options): Promise<Run> {
  const r: Result = await autocannon({ duration: DURATION, ...opts });
  const errors = r.errors + r.timeouts + r.non2xx;
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors, total: r.requests.total, seconds: r.duration };
}

/** Rounds of one side taken together: every request over every second, and the median round's p50 and p99. */
function merged(runs: Run[]): Run {
  if (runs.length === 1) return runs[0]!;
  const total = runs.reduce((sum, r) => sum + r.total, 0);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  return {
    rps: Math.round(total / seconds),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    total,
    seconds,
  };
}

/**
 * Fails the run unless both URLs answer the same status and the same body bytes: the limit must do
 * the same work as Caretaker for its ratio to mean anything.
 */
async function sameBytes(realUrl: string, limitUrl: string, headers: Record<string, string>, tries = 3): Promise<number> {
  const [a, b] = await Promise.all([fetch(realUrl, { headers }), fetch(limitUrl, { headers })]);
  const [ba, bb] = [Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer())];
  if (a.status !== b.status || !ba.equals(bb)) {
    // The status answer's uptime_s can fall either side of a second boundary: ask again.
    if (tries > 1) return sameBytes(realUrl, limitUrl, headers, tries - 1);
    throw new Error(`limit ${limitUrl} answers ${b.status} ${bb.length} bytes, Caretaker ${realUrl} ${a.status} ${ba.length} bytes: not the same response`);
  }
  return ba.length;
}

/** The JSON's shape: every key path with its value's type (values themselves left out). */
function shapeOf(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return [`${at}:array`, ...value.flatMap((v, i) => shapeOf(v, `${at}[${i}]`))];
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...shapeOf(v, `${at}.${k}`)]);
  return [`${at}:${value === null ? 'null' : typeof value}`];
}

/**
 * Caretaker's answer `a` and the limit's `b` have the same status and JSON shape (shapeOf).
 * @returns the size of Caretaker's answer in bytes
 * @throws Error naming `what` when they differ
 */
function sameShape(what: string, a: { status: number; text: string }, b: { status: number; text: string }): number {
  if (a.status !== b.status || shapeOf(JSON.parse(a.text)).join('\n') !== shapeOf(JSON.parse(b.text)).join('\n')) {
    throw new Error(`limit ${what} answers ${b.status} ${b.text}; Caretaker ${a.status} ${a.text}: not the same shape`);
  }
  return Buffer.byteLength(a.text);
}

/**
 * Creates one job through Caretaker (CSRF token, then POST /api/jobs/manage) and one through the
 * limit (GET /csrf-token, POST /jobs), and checks that both answers have the same status, keys in
 * the same order and value types (new ids and times differ).
 * @returns the size of Caretaker's create response in bytes
 * @throws Error when they differ
 */
async function sameCreate(real: string, lim: string, headers: Record<string, string>, body: string): Promise<number> {
  const create = async (csrfUrl: string, postUrl: string) => {
    const token = ((await (await fetch(csrfUrl, { headers })).json()) as { data: { token: string } }).data.token;
    const res = await fetch(postUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'x-csrf-token': token }, body });
    return { status: res.status, text: await res.text() };
  };
  const a = await create(`${real}/api/security/csrf-token`, `${real}/api/jobs/manage`);
  return sameShape('create', a, await create(`${lim}/csrf-token`, `${lim}/jobs`));
}

/**
 * Logs one account in through Caretaker and another through the limit, and checks that both
 * answers have the same status, keys in the same order and value types.
 * @returns the size of Caretaker's response in bytes
 * @throws Error when they differ
 */
async function sameLogin(real: string, lim: string, bodies: [string, string]): Promise<number> {
  const send = async (url: string, body: string) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, text: await res.text() };
  };
  return sameShape('login', await send(`${real}/api/auth/login`, bodies[0]), await send(`${lim}/login`, bodies[1]));
}

/** The uuid the generator writes for `text` (`md5(text)::uuid`, bench/generate.ts). */
function md5Uuid(text: string): string {
  const md5 = createHash('md5').update(text).digest('hex');
  return `${md5.slice(0, 8)}-${md5.slice(8, 12)}-${md5.slice(12, 16)}-${md5.slice(16, 20)}-${md5.slice(20)}`;
}

/** A 64x64 PNG (src/seed/demo/sample-files.ts), padded to 2 MiB for the write mix's photo. */
const PHOTO = pngBytes(64, 64);

/** A page's first two reads: each as [Caretaker's path, the limit's path for the same bytes]. */
type PagePair = [[string, string], [string, string]];

/**
 * Two GETs one after the other on each connection (a page's first two reads), as autocannon options.
 * @param side 0: Caretaker's paths, 1: the limit's
 */
function pairFlow(url: string, reads: PagePair, side: 0 | 1, headers: Record<string, string>): Options {
  return { url, requests: reads.map((r) => ({ method: 'GET' as const, path: r[side], headers })) };
}

/**
 * The limit of a two-read page: each of Caretaker's reads checked byte for byte against the limit's
 * (sameBytes), then the limit's two reads as one flow. Skipped (undefined) when BENCH_SCENARIOS
 * leaves `scenario` out or the server is profiled.
 * @param real Caretaker's base URL; @param lim the limit's
 * @returns the options for `add`, with the two bodies' bytes together
 * @throws Error when a body differs
 */
async function pairLimit(scenario: string, real: string, lim: string, reads: PagePair, headers: Record<string, string>) {
  if (PROFILING || (ONLY && !ONLY.some((part) => scenario.includes(part)))) return undefined;
  let bytes = 0;
  for (const [a, b] of reads) bytes += await sameBytes(`${real}${a}`, `${lim}${b}`, headers);
  return { opts: pairFlow(lim, reads, 1, headers), bytes };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

async function benchOne(engine: 'pglite' | 'postgres', size: Size, passwordHash: string): Promise<Row[]> {
  const db = await prepare(engine, size);
  const inherited = stripUndefined(process.env);
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  const server = await startServer({
    ...inherited,
    LOG_LEVEL: 'silent',
    CARETAKER_COOKIE_SECURE: 'false',
    CARETAKER_RATE_LIMIT_IP_MAX: '1000000',
    CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '1000000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
    CARETAKER_DATA_DIR: db.dataDir,
    BENCH_LABEL: `${engine}/${size}`,
    BENCH_ENGINE: engine,
    // A reused database is already filled: the server generates nothing.
    ...(db.reused ? {} : { BENCH_JOBS: String(SIZES[size].jobs), BENCH_ACTIVITY: String(SIZES[size].activity), BENCH_AGENCIES: String(SIZES[size].agencies) }),
    BENCH_LOGIN_ACCOUNTS: String(LOGIN_ACCOUNTS),
    BENCH_PASSWORD_HASH: passwordHash,
    CARETAKER_REDIS_PREFIX: `caretaker-bench:${randomBytes(4).toString('hex')}:`,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    // PostgreSQL runs as in production, with Redis for the rate-limit counters when REDIS_URL is set.
    ...(engine === 'postgres' && process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const real = `http://127.0.0.1:${server.port}`;
  const top = `http://127.0.0.1:${server.ceilingPort}`;
  const lim = `http://127.0.0.1:${server.limitPort}`;
  const rows: Row[] = [];
  try {
    if (db.databaseUrl) {
      const bytes = await databaseBytes(db.databaseUrl);
      dbSizes.push({ size, bytes });
      process.stdout.write(`  ${engine}/${size}: database ${(bytes / 2 ** 30).toFixed(2)} GiB (pg_database_size)${db.reused ? ', reused' : ''}\n`);
    }
    const loggedIn = await post(`${real}/api/auth/login`, { email: 'admin-1@bench.test', password: PASSWORD });
    if (typeof loggedIn.token !== 'string') throw new Error(`bench login failed: ${JSON.stringify(loggedIn)}`);
    const token = loggedIn.token;
    const auth = { authorization: `Bearer ${token}` };
    // Idle: after start-up, a login and two seconds of quiet (data generation ran in this process too).
    await new Promise((r) => setTimeout(r, 2_000));
    const mem: Memory = { engine, size, idle: await rssMiB(server.child.pid) };
    memory.push(mem);
    /**
     * @param perOp requests per operation on the real side (2 for CSRF fetch + POST): req/s is divided by it
     * @param limitPath the limit's path for the same response (checked byte for byte first), or its
     *   own options with the check already done (job creation); runs in turns with Caretaker
     * @param samplePeak sample the server's RSS every 100 ms while Caretaker is under load (mem.peak)
     */
    const add = async (scenario: string, connections: number, realOpts: Options, ceilingOpts?: Options, perOp = 1, limitPath?: string | { opts: Options; bytes: number }, samplePeak = false) => {
      if (ONLY && !ONLY.some((part) => scenario.includes(part))) return;
      const row: Row = { engine, size, scenario, connections, rps: 0, p50: 0, p99: 0, errors: 0 };
      // A profiling run loads Caretaker alone, so the profile holds no limit or ceiling samples.
      let limitOpts: Options | undefined;
      let bytes = 0;
      if (limitPath && !PROFILING) {
        const headers = (realOpts.headers ?? {}) as Record<string, string>;
        bytes = typeof limitPath === 'string' ? await sameBytes(String(realOpts.url), `${lim}${limitPath}`, headers) : limitPath.bytes;
        limitOpts = typeof limitPath === 'string' ? { connections, ...realOpts, url: `${lim}${limitPath}` } : { connections, ...limitPath.opts };
      }
      let sampling: NodeJS.Timeout | undefined;
      if (samplePeak) {
        sampling = setInterval(() => {
          void rssMiB(server.child.pid).then((m) => {
            if (m !== undefined) mem.peak = Math.max(mem.peak ?? 0, m);
          });
        }, 100);
      }
      if (limitOpts) await warm(limitOpts);
      await warm({ connections, ...realOpts });
      // With a limit: BENCH_ROUNDS rounds, the limit and Caretaker taking turns (limit first in
      // odd rounds, Caretaker first in even ones), so both meet the machine in the same states.
      const rounds = limitOpts ? ROUNDS : 1;
      const seconds = Number(realOpts.duration ?? DURATION) / rounds;
      const limitRuns: Run[] = [];
      const realRuns: Run[] = [];
      let cpuMsSpent: number | undefined = 0;
      for (let round = 0; round < rounds; round++) {
        const limitFirst = round % 2 === 0;
        if (limitOpts && limitFirst) limitRuns.push(await cannon({ ...limitOpts, duration: seconds }));
        const cpuBefore = await cpuMs(server.child.pid);
        realRuns.push(await cannon({ connections, ...realOpts, duration: seconds }));
        const cpuAfter = await cpuMs(server.child.pid);
        cpuMsSpent = cpuBefore !== undefined && cpuAfter !== undefined && cpuMsSpent !== undefined ? cpuMsSpent + cpuAfter - cpuBefore : undefined;
        if (limitOpts && !limitFirst) limitRuns.push(await cannon({ ...limitOpts, duration: seconds }));
      }
      if (sampling) clearInterval(sampling);
      if (limitOpts) {
        const l = merged(limitRuns);
        if (typeof limitPath !== 'string') l.rps = Math.round(l.rps / perOp);
        row.limit = { rps: l.rps, p50: l.p50, p99: l.p99 };
        if (l.errors > 0) process.stdout.write(`  (limit of ${scenario}: ${l.errors} errors)\n`);
        process.stdout.write(`  ${engine}/${size} ${scenario}: limit (same ${bytes} bytes) ${l.rps} req/s p50 ${l.p50} p99 ${l.p99}\n`);
      }
      const r = merged(realRuns);
      if (cpuMsSpent !== undefined && r.total > 0) row.cpuUs = Math.round((1000 * cpuMsSpent) / r.total);
      Object.assign(row, { rps: Math.round(r.rps / perOp), p50: r.p50, p99: r.p99, errors: r.errors });
      if (ceilingOpts && !PROFILING) {
        await warm({ connections, ...ceilingOpts });
        const c = await cannon({ connections, ...ceilingOpts });
        row.ceiling = { rps: c.rps, p50: c.p50, p99: c.p99 };
        if (c.errors > 0) process.stdout.write(`  (ceiling of ${scenario}: ${c.errors} errors)\n`);
      }
      rows.push(row);
      const ratio = row.ceiling ? ` | same SQL ${row.ceiling.rps} req/s p50 ${row.ceiling.p50} p99 ${row.ceiling.p99} | ${Math.round((100 * row.rps) / row.ceiling.rps)} %` : '';
      const toLimit = row.limit ? ` | ${Math.round((100 * row.rps) / row.limit.rps)} % of limit` : '';
      const cpu = row.cpuUs !== undefined ? ` | server CPU ${row.cpuUs} µs/req` : '';
      process.stdout.write(`  ${engine}/${size} ${scenario}: ${row.rps} req/s p50 ${row.p50} ms p99 ${row.p99} ms errors ${row.errors}${cpu}${ratio}${toLimit}\n`);
    };
    const jobs = '/api/jobs/manage?limit=50';
    const activity = '/api/admin/activity-log?user_id=2&from_date=2026-08-23&to_date=2026-11-21&limit=50';
    const withCeiling = size !== 'small';
    const activityQuery = 'user_id=2&from_date=2026-08-23&to_date=2026-11-21&limit=50';
    // Growth: one connection, so the figure is the latency of one request, not queueing.
    const growth = Math.max(3, DURATION / 2);
    // The per-request floor: the cheapest authenticated read (two pings), one request at a time.
    await add('GET status, 1 connection', 1, { url: `${real}/api/system/status`, headers: auth }, { url: `${top}/status`, headers: auth }, 1, '/status');
    await add('growth: GET jobs list, 1 connection', 1, { url: `${real}${jobs}`, headers: auth, duration: growth }, undefined, 1, '/jobs?limit=50');
    // Every job visible (SysOps): 10,000 in the small set, 100,000 in the large one.
    const sysops = await post(`${real}/api/auth/login`, { email: 'sysops@bench.test', password: PASSWORD });
    if (typeof sysops.token !== 'string') throw new Error(`bench SysOps login failed: ${JSON.stringify(sysops)}`);
    await add('growth: GET jobs list, SysOps (every job visible), 1 connection', 1, { url: `${real}${jobs}`, headers: { authorization: `Bearer ${sysops.token}` }, duration: growth });
    await add('growth: GET activity log, 1 connection', 1, { url: `${real}${activity}`, headers: auth, duration: growth }, undefined, 1, `/activity?${activityQuery}`);
    await add('GET jobs list (limit=50)', CONNECTIONS, { url: `${real}${jobs}`, headers: auth }, withCeiling ? { url: `${top}/jobs?limit=50`, headers: auth } : undefined, 1, '/jobs?limit=50', true);
    await add(
      'GET activity log (user + 90 days)',
      CONNECTIONS,
      { url: `${real}${activity}`, headers: auth },
      withCeiling ? { url: `${top}/activity?${activityQuery}`, headers: auth } : undefined,
      1,
      `/activity?${activityQuery}`,
    );
    // The job page (console/src/pages/job.tsx): the job, then its history, as the console asks for
    // them; job 5000 is agency 1's at every size (id % 10 = id % 50 = 0), with two history rows.
    const jobPage = md5Uuid('job5000');
    const jobPageName = 'GET job page (job + its history), pages/s';
    const jobReads: PagePair = [[`/api/jobs/${jobPage}`, `/job?uuid=${jobPage}`], [`/api/jobs/${jobPage}/history`, `/history?uuid=${jobPage}`]];
    await add(jobPageName, CONNECTIONS, pairFlow(real, jobReads, 0, auth), undefined, 2, await pairLimit(jobPageName, real, lim, jobReads, auth));
    // The property page (console/src/pages/property.tsx): the address, then its jobs; address 1 is
    // agency 1's first property (10 jobs at small, 100 at large).
    const place = md5Uuid('address1');
    const placeJobs = `address_uuid=${place}&limit=50&sort=created_at&order=desc`;
    const placeName = 'GET property page (address + its jobs), pages/s';
    const placeReads: PagePair = [[`/api/addresses/${place}`, `/address?uuid=${place}`], [`/api/jobs/manage?${placeJobs}`, `/jobs?${placeJobs}`]];
    await add(placeName, CONNECTIONS, pairFlow(real, placeReads, 0, auth), undefined, 2, await pairLimit(placeName, real, lim, placeReads, auth));
    // The compliance page (console/src/pages/compliance.tsx): its register, page 1 in the default
    // order (?limit=20&offset=0, the console's PAGE_SIZE), over agency 1's 1,000 properties and
    // 5,000 items (bench/generate.ts); each request also seeds the types and derives the register.
    const registerName = 'GET compliance register (1,000 properties, 5,000 items; page 1)';
    const register = '/compliance?limit=20&offset=0';
    await add(registerName, INSIGHT_CONNECTIONS, { url: `${real}/api${register}`, headers: auth }, undefined, 1, register);
    // A landlord's statement as the landlord page shows its figures (console/src/pages/landlords.tsx,
    // a past month chosen: November 2026): landlord 1 of agency 1, 16 recharges and a payment at small, about 160
    // at large. Caretaker only: see "Search, the dashboard and the landlord statement: no limit" in bench/README.md.
    const statement = `/api/landlords/${md5Uuid('landlord1')}/statement?from_date=2026-11-01&to_date=2026-11-30`;
    await add('GET landlord statement (a month of 20 properties)', INSIGHT_CONNECTIONS, { url: `${real}${statement}`, headers: auth });
    // The write mix: per operation, a job put On hold and resumed to its status, a note added and a
    // 2 MiB photo uploaded to the file store, each write after its own CSRF token. Each connection
    // (of the warm-up's and the measured run's) takes a job of its own, so moves never race and a
    // run stopped between a hold and its resume leaves no job another connection uses: agency 1's
    // jobs (id a multiple of the agencies) in Reported to In progress (status id % 11 + 1 <= 6),
    // 545 at small.
    const perAgency = SIZES[size].agencies;
    const writeJobs = Array.from({ length: SIZES[size].jobs / perAgency }, (_, i) => perAgency * (i + 1))
      .filter((id) => id % 11 < 6)
      .map((id) => ({ uuid: md5Uuid(`job${id}`), status: (id % 11) + 1 }));
    let nextJob = 0;
    const photo = Buffer.concat([PHOTO, Buffer.alloc(2 * 1_048_576 - PHOTO.length)]);
    const boundary = 'bench-photo-boundary';
    const photoBody = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench.png"\r\ncontent-type: image/png\r\n\r\n`),
      photo,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    type WriteContext = { csrf?: string; job?: { uuid: string; status: number } };
    const csrfStep = (): NonNullable<Options['requests']>[number] => ({
      method: 'GET',
      path: '/api/security/csrf-token',
      headers: auth,
      setupRequest: (req, context) => {
        (context as WriteContext).job ??= writeJobs[nextJob++ % writeJobs.length];
        return req;
      },
      onResponse: (_status, resBody, context) => {
        (context as WriteContext).csrf = (JSON.parse(resBody) as { data: { token: string } }).data.token;
      },
    });
    const writeStep = (path: (job: string) => string, body: string | Buffer | ((status: number) => string), type: string): NonNullable<Options['requests']>[number] => ({
      method: 'POST',
      setupRequest: (req, context) => {
        const c = context as WriteContext;
        return {
          ...req,
          path: path(c.job!.uuid),
          body: typeof body === 'function' ? body(c.job!.status) : body,
          headers: { ...auth, 'content-type': type, 'x-csrf-token': String(c.csrf) },
        };
      },
    });
    const json = 'application/json';
    await add('POST write mix (hold, resume, note, 2 MiB photo; + CSRF each), writes/s', WRITE_CONNECTIONS, {
      url: real,
      requests: [
        csrfStep(), writeStep((j) => `/api/jobs/${j}/transitions`, JSON.stringify({ to_status_id: 11, note: 'Bench hold' }), json),
        csrfStep(), writeStep((j) => `/api/jobs/${j}/transitions`, (status) => JSON.stringify({ to_status_id: status }), json),
        csrfStep(), writeStep((j) => `/api/jobs/${j}/notes`, JSON.stringify({ body: 'Bench note: tenant called about the leak.' }), json),
        csrfStep(), writeStep((j) => `/api/jobs/${j}/photos`, photoBody, `multipart/form-data; boundary=${boundary}`),
      ],
    }, undefined, 2);
    if (size !== 'small') {
      // Caretaker only (no limit or ceiling): global search, the dashboard and the jobs-register
      // report, as agency 1's admin. JOB-0050000 is agency 1's at both sizes (id % 10 = id % 50 = 0).
      await add('GET search, a reference (JOB-0050000)', INSIGHT_CONNECTIONS, { url: `${real}/api/search?q=JOB-0050000`, headers: auth });
      await add('GET search, a word in every job ("bench")', INSIGHT_CONNECTIONS, { url: `${real}/api/search?q=bench&types=job`, headers: auth });
      await add('GET dashboard', INSIGHT_CONNECTIONS, { url: `${real}/api/dashboard`, headers: auth });
      await add('GET jobs-register report, a week (CSV)', INSIGHT_CONNECTIONS, {
        url: `${real}/api/reports/jobs-register?format=csv&from_date=2026-11-14&to_date=2026-11-20`,
        headers: auth,
      });
      // The agency's whole register (10,000 or 20,000 jobs, seconds each): one at a time, for longer.
      await add('GET jobs-register report, every job (CSV), 1 connection', 1, {
        url: `${real}/api/reports/jobs-register?format=csv`,
        headers: auth,
        duration: Math.max(20, 2 * DURATION),
        timeout: 120,
      });
      await add(
        'GET activity log, offset 5000',
        CONNECTIONS,
        { url: `${real}/api/admin/activity-log?limit=50&offset=5000`, headers: auth },
        { url: `${top}/activity?limit=50&offset=5000`, headers: auth },
        1,
        '/activity?limit=50&offset=5000',
      );
      await add('GET status', CONNECTIONS, { url: `${real}/api/system/status`, headers: auth }, { url: `${top}/status`, headers: auth }, 1, '/status');
      // Agency 1 has five branches: name the first (uuid md5('branch1'), as the generator writes it).
      const branchUuid = md5Uuid('branch1');
      const body = JSON.stringify({ title: 'Bench write', priority: 3, branch_uuid: branchUuid });
      // Each job: a fresh CSRF token, then the POST with it (autocannon request chaining).
      const createFlow = (url: string, csrfPath: string, postPath: string): Options => ({
        url,
        requests: [
          {
            method: 'GET',
            path: csrfPath,
            headers: auth,
            onResponse: (_status, resBody, context) => {
              (context as { csrf?: string }).csrf = (JSON.parse(resBody) as { data: { token: string } }).data.token;
            },
          },
          {
            method: 'POST',
            path: postPath,
            body,
            setupRequest: (req, context) => ({
              ...req,
              headers: { ...auth, 'content-type': 'application/json', 'x-csrf-token': String((context as { csrf?: string }).csrf) },
            }),
          },
        ],
      });
      const createBytes = ONLY && !ONLY.some((part) => 'POST job (+ CSRF fetch), jobs/s'.includes(part)) ? 0 : await sameCreate(real, lim, auth, body);
      await add(
        'POST job (+ CSRF fetch), jobs/s',
        20,
        createFlow(real, '/api/security/csrf-token', '/api/jobs/manage'),
        { url: `${top}/jobs`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body },
        2,
        { opts: createFlow(lim, '/csrf-token', '/jobs'), bytes: createBytes },
      );
      let n = 0;
      const loginBody = () => JSON.stringify({ email: `login-${(n++ % LOGIN_ACCOUNTS) + 1}@bench.test`, password: PASSWORD });
      const loginFlow = (url: string, path: string): Options => ({
        url,
        requests: [{ method: 'POST', path, headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: loginBody() }) }],
      });
      const loginBytes = ONLY && !ONLY.some((part) => 'POST login (argon2id)'.includes(part)) ? 0 : await sameLogin(real, lim, [loginBody(), loginBody()]);
      await add('POST login (argon2id)', 20, loginFlow(real, '/api/auth/login'), loginFlow(top, '/login'), 1, { opts: loginFlow(lim, '/login'), bytes: loginBytes });
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    await db.drop();
  }
  return rows;
}

function stripUndefined(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function table(rows: Row[]): string {
  const lines = [
    '| engine | data | scenario | conns | req/s | p50 ms | p99 ms | limit req/s | limit p50 | limit p99 | **% of limit req/s** | p99 ÷ limit p99 | same-SQL req/s | % of same SQL |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const pct = (a: number, b: number | undefined) => (b ? `${Math.round((100 * a) / b)} %` : '');
  for (const r of rows) {
    const c = r.ceiling;
    const l = r.limit;
    lines.push(
      `| ${r.engine} | ${SIZES[r.size].label} | ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ` +
        `${l?.rps ?? ''} | ${l?.p50 ?? ''} | ${l?.p99 ?? ''} | ${l ? `**${pct(r.rps, l.rps)}**` : ''} | ${l?.p99 ? (r.p99 / l.p99).toFixed(1) : ''} | ` +
        `${c?.rps ?? ''} | ${pct(r.rps, c?.rps)} |`,
    );
  }
  return lines.join('\n');
}

const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').filter((e) => e === 'pglite' || (e === 'postgres' && process.env.DATABASE_URL)) as Array<'pglite' | 'postgres'>;
const sizes = (process.env.BENCH_SIZES ?? 'small,large').split(',') as Size[];
for (const size of sizes) if (!(size in SIZES)) throw new Error(`BENCH_SIZES: unknown size ${size} (small, large, huge)`);
if (sizes.includes('huge') && engines.includes('pglite')) {
  process.stderr.write('BENCH_SIZES=huge (1,000,000 jobs, 10,000,000 activity entries) runs on PostgreSQL only: set BENCH_ENGINES=postgres and DATABASE_URL (PGlite would hold it in one process for hours).\n');
  process.exit(2);
}
/** The PostgreSQL databases' sizes, for the summary. */
const dbSizes: Array<{ size: Size; bytes: number }> = [];
process.stdout.write(`Caretaker bench: ${DURATION} s per scenario, engines ${engines.join(', ')}, sizes ${sizes.join(', ')}; start ${machine()}\n`);
const passwordHash = await hashPassword(PASSWORD);
const all: Row[] = [];
/** The queue scenario's name for BENCH_SCENARIOS (e.g. BENCH_SCENARIOS=queue runs it alone). */
const QUEUE_SCENARIO = 'queue under peak load';
const queueOnly = ONLY?.every((part) => QUEUE_SCENARIO.includes(part)) ?? false;
if (!queueOnly) for (const engine of engines) for (const size of sizes) all.push(...(await benchOne(engine, size, passwordHash)));
const md = [
  table(all),
  '',
  '| engine | data | idle RSS MiB | peak RSS MiB (Caretaker, jobs list at 50 connections) |',
  '|---|---|---|---|',
  ...memory.map((m) => `| ${m.engine} | ${SIZES[m.size].label} | ${m.idle ?? '?'} | ${m.peak ?? '?'} |`),
].join('\n');
process.stdout.write(`\n${md}\n`);
for (const d of dbSizes) process.stdout.write(`database ${d.size}: ${(d.bytes / 2 ** 30).toFixed(2)} GiB\n`);
// The queue scenario (bench/queue.ts): PostgreSQL and Redis only, BENCH_QUEUE_RATE / _DURATION_S.
if (engines.includes('postgres') && process.env.REDIS_URL && (!ONLY || ONLY.some((part) => QUEUE_SCENARIO.includes(part)))) {
  const f = await runQueueScenario(Number(process.env.BENCH_QUEUE_RATE ?? 30), Number(process.env.BENCH_QUEUE_DURATION_S ?? 60), (l) => process.stdout.write(`${l}\n`));
  process.stdout.write(`\nQueue under peak load:\n\n${queueTable(f)}\n`);
}
process.stdout.write(`\nend ${machine()}\n`);
