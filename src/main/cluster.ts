/**
 * `caretaker serve --workers N` (docs/operations.md): N Node processes sharing one port through
 * node:cluster. Only meaningful on PostgreSQL (PGlite is one process with one connection); the
 * state that must hold across processes (sessions, CSRF tokens, revocation) lives in PostgreSQL
 * and the rate-limit counters in Redis.
 *
 * The primary migrates the database and runs the first-start work once, forks the workers,
 * restarts a worker that dies (not during shutdown), and forwards SIGTERM/SIGINT to every worker
 * as SIGTERM, waiting for them to finish their requests (CARETAKER_SHUTDOWN_TIMEOUT_S, then
 * SIGKILL).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config.ts';
import { openRuntime } from './runtime.ts';
import { prepareDatabase, startServer } from './server.ts';

/** Message for --workers > 1 without DATABASE_URL. */
export const WORKERS_NEED_POSTGRES =
  '--workers above 1 needs PostgreSQL: set DATABASE_URL. The embedded PGlite database lives inside one ' +
  'process and cannot be shared by several.';

/**
 * Parses `--workers N` / `--workers=N` from the serve arguments.
 * @returns the number of workers (1 when absent)
 * @throws Error with a usage message for a value that is not a whole number from 1 to 64
 */
export function parseWorkers(args: string[]): number {
  let raw: string | undefined;
  args.forEach((arg, i) => {
    if (arg === '--workers') raw = args[i + 1] ?? '';
    else if (arg.startsWith('--workers=')) raw = arg.slice('--workers='.length);
  });
  if (raw === undefined) return 1;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) {
    throw new Error(`--workers must be a whole number from 1 to 64 (got '${raw}')`);
  }
  return Number(raw);
}

function log(level: 'info' | 'warn' | 'error', msg: string, extra: Record<string, unknown> = {}): void {
  const levels = { info: 30, warn: 40, error: 50 };
  process.stdout.write(`${JSON.stringify({ level: levels[level], time: Date.now(), pid: process.pid, role: 'primary', ...extra, msg })}\n`);
}

/**
 * Runs `serve` with `workers` processes: in the primary, prepares and forks; in a worker, serves.
 * @throws Error(WORKERS_NEED_POSTGRES) when workers > 1 and DATABASE_URL is unset
 */
export async function serveCluster(config: Readonly<Config>, workers: number, background = true): Promise<void> {
  if (cluster.isWorker) {
    await startServer(config, { prepare: false, worker: true, background });
    return;
  }
  if (!config.databaseUrl) throw new Error(WORKERS_NEED_POSTGRES);

  const runtime = await openRuntime(config);
  await prepareDatabase(runtime, config, (obj, msg) => log('info', msg, obj));
  await runtime.close();

  let stopping = false;
  const recentCrashes: number[] = [];
  const fork = (): Worker => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    recentCrashes.push(now);
    while (recentCrashes.length > 0 && recentCrashes[0]! < now - 60_000) recentCrashes.shift();
    if (recentCrashes.length > workers * 5) {
      log('error', 'workers keep dying; giving up', { code, signal });
      process.exit(1);
    }
    log('warn', 'worker died; starting a new one', { worker_pid: worker.process.pid, code, signal });
    setTimeout(fork, 500);
  });
  for (let i = 0; i < workers; i++) fork();
  log('info', 'cluster started', { workers, port: config.port });

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down the workers', { signal });
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    for (const w of alive) w.process.kill('SIGTERM');
    const deadline = setTimeout(
      () => {
        log('error', 'workers did not stop in time; killing them');
        for (const w of alive) if (!w.isDead()) w.process.kill('SIGKILL');
        process.exit(1);
      },
      (config.shutdownTimeoutS + 2) * 1000,
    );
    let left = alive.length;
    if (left === 0) process.exit(0);
    for (const w of alive) {
      w.once('exit', () => {
        left -= 1;
        if (left === 0) {
          clearTimeout(deadline);
          log('info', 'all workers stopped');
          process.exit(0);
        }
      });
    }
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
