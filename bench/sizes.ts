/**
 * `npm run bench:sizes` (docs/operations.md "Deployment at three sizes"): the jobs list
 * (`GET /api/jobs/manage?limit=50` as an agency admin) served by one instance and by two instances
 * on one PostgreSQL database, straight and through PgBouncer in transaction mode, on a database a
 * `BENCH_KEEP_DB=true npm run bench` generated and kept.
 *
 * Each layout: its processes of bench/server.ts started (the app as in production, Redis shared),
 * one login, BENCH_SIZES_WARMUP_S seconds of load unmeasured, then BENCH_SIZES_DURATION_S seconds
 * measured; the BENCH_SIZES_CONNECTIONS connections are split evenly over the instances, each
 * instance loaded by its own autocannon at the same time; req/s is the sum, p50 and p99 the worst
 * instance's. The date and load average are printed at the start and end of each layout.
 *
 * Environment: BENCH_SIZES_DB (required, the kept database), REDIS_URL (optional, as in production),
 * BENCH_SIZES_LAYOUTS (`1,2,2-pgbouncer`), BENCH_SIZES_CONNECTIONS (50), BENCH_SIZES_WARMUP_S (5),
 * BENCH_SIZES_DURATION_S (10), DATABASE_POOL_MAX (each instance's pool, 10), BENCH_SIZES_BOUNCER_POOL
 * (PgBouncer's default_pool_size, 10: the server connections all instances share).
 * PgBouncer: /usr/sbin/pgbouncer or /usr/bin/pgbouncer (Debian's package), run as `nobody` under root.
 *
 * BENCH_SIZES_REPLICA=true: the run first makes a primary and a streaming standby of it from the
 * machine's PostgreSQL binaries (test/helpers/pg-cluster.ts), copies BENCH_SIZES_DB into the
 * primary (pg_dump, pg_restore), and runs every layout on that primary, so that the layouts are
 * compared on one server; a layout ending in `-replica` (`2-replica`, `2-pgbouncer-replica`) also
 * sets DATABASE_REPLICA_URL to the standby, where the jobs list (a read that may lag) then goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, machine, startBenchServer, type BenchServer } from './common.ts';
import { pgBinary, startPrimaryAndStandby, type PrimaryAndStandby } from '../test/helpers/pg-cluster.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DB = process.env.BENCH_SIZES_DB;
if (!DB) {
  process.stderr.write('usage: BENCH_SIZES_DB=postgres://.../caretaker_test_... npm run bench:sizes\n');
  process.exit(2);
}
const LAYOUTS = (process.env.BENCH_SIZES_LAYOUTS ?? '1,2,2-pgbouncer').split(',').map((s) => s.trim());
const CONNECTIONS = Number(process.env.BENCH_SIZES_CONNECTIONS ?? 50);
const WARMUP_S = Number(process.env.BENCH_SIZES_WARMUP_S ?? 5);
const DURATION_S = Number(process.env.BENCH_SIZES_DURATION_S ?? 10);
const BOUNCER_POOL = Number(process.env.BENCH_SIZES_BOUNCER_POOL ?? 10);
const PASSWORD = 'bench password 2026';
const PATH = '/api/jobs/manage?limit=50';
const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
const WITH_REPLICA = process.env.BENCH_SIZES_REPLICA === 'true';

/**
 * A primary holding a copy of `source` (pg_dump in the custom format, pg_restore) and a streaming
 * standby of it; resolves with both and the copy's URLs on each.
 */
async function copyOntoPrimaryAndStandby(source: string): Promise<{ clusters: PrimaryAndStandby; primary: string; standby: string }> {
  const database = decodeURIComponent(new URL(source).pathname.slice(1));
  const dumpDir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-dump-'));
  await chmod(dumpDir, 0o777);
  const dump = path.join(dumpDir, 'db.dump');
  try {
    const clusters = await startPrimaryAndStandby(async (url) => {
      await pgBinary('pg_dump', ['-Fc', '-f', dump, source]);
      await pgBinary('createdb', ['-h', new URL(url('postgres')).hostname, '-p', new URL(url('postgres')).port, '-U', 'postgres', database]);
      await pgBinary('pg_restore', ['-d', url(database), '--no-owner', dump]);
    }, '-c max_connections=120 -c shared_buffers=128MB');
    return { clusters, primary: clusters.url(clusters.primaryPort, database), standby: clusters.url(clusters.standbyPort, database) };
  } finally {
    await rm(dumpDir, { recursive: true, force: true });
  }
}

/** Starts PgBouncer in transaction mode in front of the server of `url`; resolves with its URL. */
async function startBouncer(url: URL): Promise<{ url: string; child: ChildProcess; dir: string }> {
  if (!BINARY) throw new Error('no pgbouncer binary (apt-get install pgbouncer)');
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-bouncer-'));
  await chmod(dir, 0o755);
  const port = await freePort();
  await writeFile(path.join(dir, 'users.txt'), `"${decodeURIComponent(url.username || 'postgres')}" "${decodeURIComponent(url.password)}"\n`, { mode: 0o644 });
  const ini = [
    '[databases]', `* = host=${url.hostname} port=${url.port || '5432'}`, '[pgbouncer]',
    'listen_addr = 127.0.0.1', `listen_port = ${port}`, "unix_socket_dir = ''", 'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`, 'pool_mode = transaction', `default_pool_size = ${BOUNCER_POOL}`,
    'max_client_conn = 500', 'server_reset_query =', 'log_connections = 0', 'log_disconnections = 0',
  ].join('\n');
  await writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child = spawn(BINARY, [path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore', ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
  const bouncer = new URL(url);
  bouncer.hostname = '127.0.0.1';
  bouncer.port = String(port);
  for (let i = 0; ; i++) {
    const c = new pg.Client({ connectionString: bouncer.toString(), connectionTimeoutMillis: 1_000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      break;
    } catch {
      await c.end().catch(() => undefined);
      if (i > 100 || child.exitCode !== null) throw new Error('pgbouncer did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url: bouncer.toString(), child, dir };
}

/** The transactions committed so far in the database of `url` (pg_stat_database.xact_commit; a hot standby counts its own read-only ones). */
async function transactionsOn(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>('select xact_commit::text as n from pg_stat_database where datname = current_database()');
    return Number(rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

/**
 * One layout on the database `db` (`replica`: its standby, for layouts ending in `-replica`): its
 * instances started, loaded together, stopped; resolves with its table row.
 */
async function runLayout(layout: string, db: string, replica: string | undefined): Promise<string> {
  const instances = Number(layout.split('-')[0]);
  const pooled = layout.includes('-pgbouncer');
  const withReplica = layout.endsWith('-replica');
  if (withReplica && !replica) throw new Error(`${layout}: set BENCH_SIZES_REPLICA=true (the run makes the standby)`);
  const bouncer = pooled ? await startBouncer(new URL(db)) : undefined;
  const servers: BenchServer[] = [];
  try {
    for (let i = 0; i < instances; i++) {
      servers.push(await startBenchServer(ROOT, {
        ...process.env,
        LOG_LEVEL: 'silent',
        CARETAKER_COOKIE_SECURE: 'false',
        CARETAKER_RATE_LIMIT_IP_MAX: '1000000',
        CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '1000000',
        CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
        BENCH_ENGINE: 'postgres',
        BENCH_JOBS: undefined,
        DATABASE_URL: bouncer ? bouncer.url : db,
        ...(bouncer ? { CARETAKER_DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: db } : {}),
        ...(withReplica ? { DATABASE_REPLICA_URL: replica } : {}),
        CARETAKER_REDIS_PREFIX: `caretaker-bench-sizes:${process.pid}:`,
      }));
    }
    const login = await fetch(`http://127.0.0.1:${servers[0]!.port}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin-1@bench.test', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token?: string };
    if (!token) throw new Error(`login failed (${login.status}): is BENCH_SIZES_DB a database the bench generated?`);
    const headers = { authorization: `Bearer ${token}` };
    const each = Math.max(1, Math.floor(CONNECTIONS / instances));
    const load = (seconds: number) => Promise.all(servers.map((s) => autocannon({ url: `http://127.0.0.1:${s.port}${PATH}`, headers, connections: each, duration: seconds })));
    await load(WARMUP_S);
    const standbyBefore = withReplica ? await transactionsOn(replica!) : 0;
    const start = machine();
    const results = await load(DURATION_S);
    const end = machine();
    const standbyTransactions = withReplica ? (await transactionsOn(replica!)) - standbyBefore : undefined;
    for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error(`${layout}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    const rps = results.reduce((sum, r) => sum + r.requests.total, 0) / DURATION_S;
    const p50 = Math.max(...results.map((r) => r.latency.p50));
    const p99 = Math.max(...results.map((r) => r.latency.p99));
    const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
    const onStandby = standbyTransactions === undefined ? '–' : `${standbyTransactions.toLocaleString('en-GB')} (${Math.round((100 * standbyTransactions) / Math.max(1, requests))} % of ${requests.toLocaleString('en-GB')} requests)`;
    return `| ${layout} | ${instances} × ${each} | ${Math.round(rps).toLocaleString('en-GB')} | ${p50} | ${p99} | ${onStandby} | ${start} | ${end} |`;
  } finally {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
    }
    if (bouncer) {
      bouncer.child.kill('SIGTERM');
      await rm(bouncer.dir, { recursive: true, force: true });
    }
  }
}

const copy = WITH_REPLICA ? await copyOntoPrimaryAndStandby(DB) : undefined;
try {
  process.stdout.write(`jobs list (${PATH}), ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ${DURATION_S} s measured${copy ? `, on a copy of the database on a primary with a streaming standby (${copy.primary}, ${copy.standby})` : ''}\n`);
  process.stdout.write('| layout | instances × connections | req/s | p50 ms | p99 ms | transactions on the standby | start (UTC, load average) | end |\n|---|---|---|---|---|---|---|---|\n');
  for (const layout of LAYOUTS) process.stdout.write(`${await runLayout(layout, copy?.primary ?? DB, copy?.standby)}\n`);
} finally {
  await copy?.clusters.stop();
}
