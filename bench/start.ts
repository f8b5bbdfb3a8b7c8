/**
 * `npm run bench:start` (bench/README.md "Starting and memory"): how long `caretaker serve` takes
 * to its first ready answer and how much memory one idle server holds. Starts the real command
 * (`node bin/caretaker.js serve`, as `npm start` does) and polls GET /readyz every 20 ms until 200:
 * - `first start`: an empty data folder on the embedded database (PGlite), which loads the
 *   migrated copy prepared at install (prepared/, scripts/database-prepare.js);
 * - `restart`: the same data folder again;
 * - `postgres`: with DATABASE_URL (and REDIS_URL when set) on a database the bench migrates first.
 * After each ready answer it waits BENCH_START_IDLE_S seconds and reads the server's resident memory
 * (VmRSS) and its peak (VmHWM) from /proc, then stops it with SIGTERM; at the ready answer it also
 * reads the CPU time used so far (user + system, less moved by the machine's other work than the
 * wall clock) and the peak so far. Each start also reports its
 * own phases (the `startup_ms` field of the "Caretaker is serving" log line, src/main/server.ts): modules
 * loaded, database open and migrated, app built, first-run work, listening; plus the bench's
 * "ready" (first 200 from /readyz), all in milliseconds since the process started.
 *
 * Environment: BENCH_START_ROUNDS (5; medians are reported), BENCH_START_IDLE_S (10),
 * BENCH_START_KINDS (`first,restart,postgres`; postgres only with DATABASE_URL), DATABASE_URL,
 * REDIS_URL, BENCH_START_ENV (extra `NAME=value` pairs for the server, comma-separated),
 * BENCH_START_NODE_FLAGS (flags for node before bin/caretaker.js, space-separated; default: those of
 * package.json's start script, as `npm start` runs it),
 * BENCH_START_ROOT (another checkout to start instead of this one, e.g. an earlier commit's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './common.ts';

const ROOT = path.resolve(process.env.BENCH_START_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
/** The node flags of `npm start` (package.json's start script), so the bench starts what production runs. */
function startScriptFlags(): string {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  return /^node\s+(.*?)\s*bin\/caretaker\.js/.exec(pkg.scripts?.start ?? '')?.[1] ?? '';
}
const NODE_FLAGS = (process.env.BENCH_START_NODE_FLAGS ?? startScriptFlags()).split(' ').filter(Boolean);
const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 5);
const IDLE_S = Number(process.env.BENCH_START_IDLE_S ?? 10);
const KINDS = (process.env.BENCH_START_KINDS ?? 'first,restart,postgres').split(',').map((k) => k.trim());
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_START_ENV ?? '')
    .split(',')
    .filter((p) => p.includes('='))
    .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
);

/** One start's figures, in milliseconds since the process started, and memory in MiB. */
export interface StartResult {
  phases: Record<string, number>;
  ready: number;
  rssMiB: number;
  peakMiB: number;
  /** CPU time (user + system, every thread) the process had used at its first ready answer, in ms. */
  cpuAtReady: number;
  /** The same for its main thread alone (without V8's background compilers and the GC's helpers), in ms. */
  mainCpuAtReady: number;
  /** Peak resident memory (VmHWM) at the first ready answer, in MiB; peakMiB is after the idle wait. */
  peakAtReadyMiB: number;
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc). */
async function memoryOf(pid: number): Promise<{ rssMiB: number; peakMiB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(/\d+/.exec(status.split('\n').find((l) => l.startsWith(field)) ?? '0')?.[0] ?? 0);
  return { rssMiB: kib('VmRSS:') / 1024, peakMiB: kib('VmHWM:') / 1024 };
}

/**
 * CPU time a process has used (user + system, all its threads), or its main thread alone, in
 * milliseconds: from /proc/<pid>/stat or /proc/<pid>/task/<pid>/stat, in clock ticks of 10 ms
 * (USER_HZ 100 on Linux). Less dependent on the machine's other work than the wall-clock figures.
 */
async function cpuOf(pid: number, mainThread = false): Promise<number> {
  const stat = await readFile(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts `node bin/caretaker.js serve`, times it to the first 200 from /readyz, waits idle and
 * reads its memory, then stops it.
 * @param env the server's database variables (CARETAKER_DATA_DIR, or DATABASE_URL and REDIS_URL)
 */
export async function timeStart(env: Record<string, string>, idleS = IDLE_S): Promise<StartResult> {
  const port = await freePort();
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'CARETAKER_DEMO', 'NODE_OPTIONS']) delete base[k];
  for (const k of Object.keys(base)) if (k.startsWith('OTEL_') || k.startsWith('BENCH_')) delete base[k];
  const spawned = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, path.join(ROOT, 'bin/caretaker.js'), 'serve'], {
    cwd: ROOT,
    env: { ...base, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', CARETAKER_COOKIE_SECURE: 'false', ...EXTRA_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const url = `http://127.0.0.1:${port}/readyz`;
  let ready = 0;
  let cpuAtReady = 0;
  let mainCpuAtReady = 0;
  let peakAtReadyMiB = 0;
  try {
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`caretaker exited (${child.exitCode}):\n${lines.join('\n')}`);
      if (await fetch(url).then((r) => r.ok, () => false)) {
        ready = performance.now() - spawned;
        cpuAtReady = await cpuOf(child.pid!);
        mainCpuAtReady = await cpuOf(child.pid!, true);
        peakAtReadyMiB = (await memoryOf(child.pid!)).peakMiB;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!ready) throw new Error(`caretaker not ready:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, idleS * 1000));
    const memory = await memoryOf(child.pid!);
    const serving = lines.map((l) => (l.startsWith('{') ? (JSON.parse(l) as { msg?: string; startup_ms?: Record<string, number> }) : {})).find((l) => l.msg === 'Caretaker is serving');
    return { phases: serving?.startup_ms ?? {}, ready, ...memory, cpuAtReady, mainCpuAtReady, peakAtReadyMiB };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The rows of one kind: each phase's median, the ready median and range, memory medians. */
export function summarise(kind: string, results: StartResult[]): string[] {
  const phases = Object.keys(results[0]?.phases ?? {});
  const readies = results.map((r) => r.ready);
  const out = [
    `${kind}: ready in ${(median(readies) / 1000).toFixed(2)} s median (${(Math.min(...readies) / 1000).toFixed(2)}-${(Math.max(...readies) / 1000).toFixed(2)} s, ${results.length} starts); ` +
      `CPU at ready ${median(results.map((r) => r.cpuAtReady)).toFixed(0)} ms (main thread ${median(results.map((r) => r.mainCpuAtReady)).toFixed(0)} ms); idle RSS ${median(results.map((r) => r.rssMiB)).toFixed(0)} MiB, ` +
      `peak ${median(results.map((r) => r.peakMiB)).toFixed(0)} MiB (at ready ${median(results.map((r) => r.peakAtReadyMiB)).toFixed(0)} MiB)`,
  ];
  if (phases.length) out.push(`  phases (median ms since the process started): ${phases.map((p) => `${p} ${median(results.map((r) => r.phases[p] ?? NaN)).toFixed(0)}`).join(', ')}, ready ${median(readies).toFixed(0)}`);
  return out;
}

/** Migrates the PostgreSQL database once (so each timed start finds it migrated, as a restart would). */
async function migratePostgres(): Promise<void> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/caretaker.js'), 'migrate'], { cwd: ROOT, env: process.env, stdio: 'inherit' });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`caretaker migrate exited ${String(code)}`);
}

async function main(): Promise<void> {
  process.stdout.write(`caretaker serve (${ROOT}${NODE_FLAGS.length ? `, node ${NODE_FLAGS.join(' ')}` : ''}) to the first 200 from /readyz, ${ROUNDS} rounds, memory after ${IDLE_S} s idle; load average before: ${load()}\n`);
  const results: Record<string, StartResult[]> = { 'first start (embedded, prepared copy)': [], 'restart (embedded)': [], 'PostgreSQL': [] };
  const pg = KINDS.includes('postgres') && process.env.DATABASE_URL;
  if (pg) await migratePostgres();
  for (let round = 1; round <= ROUNDS; round++) {
    if (KINDS.includes('first') || KINDS.includes('restart')) {
      const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-start-'));
      try {
        const first = await timeStart({ CARETAKER_DATA_DIR: dir });
        results['first start (embedded, prepared copy)']!.push(first);
        process.stdout.write(`round ${round} first start: ready ${first.ready.toFixed(0)} ms ${JSON.stringify(first.phases)} cpu ${first.cpuAtReady} ms (main ${first.mainCpuAtReady}) rss ${first.rssMiB.toFixed(0)} MiB peak ${first.peakMiB.toFixed(0)} MiB (at ready ${first.peakAtReadyMiB.toFixed(0)}) (load ${load()})\n`);
        if (KINDS.includes('restart')) {
          const again = await timeStart({ CARETAKER_DATA_DIR: dir });
          results['restart (embedded)']!.push(again);
          process.stdout.write(`round ${round} restart: ready ${again.ready.toFixed(0)} ms ${JSON.stringify(again.phases)} cpu ${again.cpuAtReady} ms (main ${again.mainCpuAtReady}) rss ${again.rssMiB.toFixed(0)} MiB peak ${again.peakMiB.toFixed(0)} MiB (at ready ${again.peakAtReadyMiB.toFixed(0)}) (load ${load()})\n`);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    if (pg) {
      const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-start-'));
      try {
        const env: Record<string, string> = { DATABASE_URL: process.env.DATABASE_URL!, CARETAKER_DATA_DIR: dir };
        if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
        const r = await timeStart(env);
        results.PostgreSQL!.push(r);
        process.stdout.write(`round ${round} PostgreSQL: ready ${r.ready.toFixed(0)} ms ${JSON.stringify(r.phases)} cpu ${r.cpuAtReady} ms (main ${r.mainCpuAtReady}) rss ${r.rssMiB.toFixed(0)} MiB peak ${r.peakMiB.toFixed(0)} MiB (at ready ${r.peakAtReadyMiB.toFixed(0)}) (load ${load()})\n`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
  process.stdout.write('\n');
  for (const [kind, rs] of Object.entries(results)) if (rs.length) process.stdout.write(`${summarise(kind, rs).join('\n')}\n`);
  process.stdout.write(`load average after: ${load()}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
