/**
 * `npm run bench:tracing` (bench/README.md "Tracing"): what tracing costs. Starts the real
 * `caretaker serve` (bin/caretaker.js) on one demo database, in turns:
 * - `off`: no OTEL_* variable (the SDK is never loaded);
 * - `on`: OTEL_EXPORTER_OTLP_ENDPOINT pointing at a sink in this process that reads each OTLP
 *   export (http/protobuf) and discards it; every trace sampled (the default sampler);
 * - `on, 10 % sampled`: the same with OTEL_TRACES_SAMPLER=parentbased_traceidratio and
 *   OTEL_TRACES_SAMPLER_ARG=0.1 (the production setting docs/operations.md "Tracing" suggests);
 * - `baseline` (with BENCH_TRACING_BASELINE=<git revision>): the same command from that revision
 *   (e.g. the commit before tracing), to show what the code that checks "is tracing on?" costs.
 * Each turn drives one scenario with autocannon for BENCH_DURATION_S seconds after a warm-up,
 * BENCH_ROUNDS times in alternation (the machine may be shared: alternating spreads its noise),
 * and prints each run and the median requests per second per variant.
 *
 * Environment: BENCH_DURATION_S (10), BENCH_REQUESTS (unset; set: each run sends this many
 * requests instead of running BENCH_DURATION_S, so on a busy machine every variant's CPU per
 * request is taken over the same work), BENCH_ROUNDS (3), BENCH_CONNECTIONS (10), BENCH_SCENARIO
 * (`jobs`: GET /api/jobs/manage?limit=50 as a demo admin; `status`: GET /api/system/status),
 * BENCH_TRACING_BASELINE (unset: no baseline), DATABASE_URL (PostgreSQL, a database the bench may
 * fill with the demo; unset: PGlite in a temporary folder), REDIS_URL (with PostgreSQL).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuMs, freePort, median } from './common.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const REQUESTS = process.env.BENCH_REQUESTS ? Number(process.env.BENCH_REQUESTS) : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SCENARIO = process.env.BENCH_SCENARIO ?? 'jobs';
const BASELINE = process.env.BENCH_TRACING_BASELINE;
const DEMO_PASSWORD = 'bench-demo-2026';

/** An OTLP/HTTP sink: reads every export and answers 200, keeping only counts. */
async function startSink() {
  const stats = { exports: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => (stats.bytes += c.length));
    req.on('end', () => {
      stats.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, stats, close: () => new Promise<void>((r) => server.close(() => r())) };
}

interface Server {
  child: ChildProcess;
  url: string;
  lines: string[];
}

/** Starts `node <root>/bin/caretaker.js serve` and waits for /readyz. */
async function start(root: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  for (const k of Object.keys(base)) if (k.startsWith('OTEL_')) delete base[k];
  const child = spawn(process.execPath, [path.join(root, 'bin/caretaker.js'), 'serve'], {
    cwd: root,
    env: {
      ...base,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      CARETAKER_COOKIE_SECURE: 'false',
      CARETAKER_RATE_LIMIT_IP_MAX: '1000000',
      CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '1000000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
      CARETAKER_ADMIN_EMAIL: 'sysops@bench.test',
      CARETAKER_ADMIN_PASSWORD: DEMO_PASSWORD,
      CARETAKER_DEMO_PASSWORD: DEMO_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`caretaker exited (${child.exitCode}):\n${lines.join('\n')}`);
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ok) return { child, url, lines };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`caretaker not ready:\n${lines.join('\n')}`);
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * One measured run: warm-up, then DURATION seconds. Besides requests per second it reports the
 * server's own CPU time per request, which other work on a shared machine disturbs far less.
 */
async function measure(server: Server, token: string): Promise<{ rps: number; p50: number; p99: number; errors: number; cpuPerRequest: number }> {
  const target = SCENARIO === 'status' ? `${server.url}/api/system/status` : `${server.url}/api/jobs/manage?limit=50`;
  const headers = { authorization: `Bearer ${token}` };
  await autocannon({ url: target, headers, connections: CONNECTIONS, duration: 2 });
  const cpuBefore = (await cpuMs(server.child.pid)) ?? 0;
  const r = await autocannon({ url: target, headers, connections: CONNECTIONS, ...(REQUESTS ? { amount: REQUESTS } : { duration: DURATION }) });
  const cpu = ((await cpuMs(server.child.pid)) ?? 0) - cpuBefore;
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    cpuPerRequest: cpu / Math.max(1, r.requests.total),
  };
}


async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-tracing-'));
  const dbEnv: Record<string, string> = process.env.DATABASE_URL
    ? { DATABASE_URL: process.env.DATABASE_URL, CARETAKER_DATA_DIR: dataDir, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) }
    : { CARETAKER_DATA_DIR: dataDir };
  let baselineRoot: string | undefined;
  if (BASELINE) {
    baselineRoot = await mkdtemp(path.join(tmpdir(), 'caretaker-bench-baseline-'));
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${BASELINE}" | tar -x -C "${baselineRoot}"`]);
    await symlink(path.join(ROOT, 'node_modules'), path.join(baselineRoot, 'node_modules'));
  }
  const sink = await startSink();
  try {
    // The demo data, loaded once (by the oldest build, so every build after it migrates forward).
    process.stdout.write(`demo data into ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} ...\n`);
    const first = await start(baselineRoot ?? ROOT, { ...dbEnv, CARETAKER_DEMO: 'true', LOG_LEVEL: 'info' });
    const loaded = first.lines.map((l) => { try { return JSON.parse(l) as { accounts?: string[] }; } catch { return {}; } }).find((l) => l.accounts);
    await stop(first);
    const email = loaded?.accounts?.find((a) => a.startsWith('admin@')) ?? loaded?.accounts?.[0];
    if (!email) throw new Error(`no demo account found in the log:\n${first.lines.join('\n')}`);

    const variants: Array<{ name: string; root: string; env: Record<string, string> }> = [
      ...(baselineRoot ? [{ name: `baseline (${BASELINE})`, root: baselineRoot, env: {} }] : []),
      { name: 'off', root: ROOT, env: {} },
      { name: 'on', root: ROOT, env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } },
      {
        name: 'on, 10 % sampled',
        root: ROOT,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
      },
    ];
    const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    const scenario = SCENARIO === 'status' ? 'GET /api/system/status' : 'GET /api/jobs/manage?limit=50';
    const length = REQUESTS ? `${REQUESTS} requests` : `${DURATION} s`;
    process.stdout.write(`${scenario}, ${CONNECTIONS} connections, ${length} per run, ${ROUNDS} rounds; load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const v of variants) {
        const server = await start(v.root, { ...dbEnv, ...v.env });
        try {
          const r = await measure(server, await login(server.url, email));
          results.get(v.name)!.push(r.rps);
          cpu.get(v.name)!.push(r.cpuPerRequest);
          process.stdout.write(
            `round ${round} ${v.name.padEnd(22)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
              `CPU ${r.cpuPerRequest.toFixed(2)} ms/request  errors ${r.errors}  load ${loadavg()[0]!.toFixed(2)}\n`,
          );
        } finally {
          await stop(server);
        }
      }
    }
    const off = median(results.get('off')!);
    const offCpu = median(cpu.get('off')!);
    process.stdout.write(`\nmedians (cost against tracing off: fewer requests per second, more CPU per request):\n`);
    for (const [name, xs] of results) {
      const m = median(xs);
      const c = median(cpu.get(name)!);
      const cost = name === 'off' ? '' : `  ${(((off - m) / off) * 100).toFixed(1)} % req/s, ${(((c - offCpu) / offCpu) * 100).toFixed(1)} % CPU`;
      process.stdout.write(`  ${name.padEnd(22)} ${String(m).padStart(6)} req/s  ${c.toFixed(2)} ms CPU/request${cost}\n`);
    }
    process.stdout.write(`OTLP sink: ${sink.stats.exports} exports, ${(sink.stats.bytes / 1e6).toFixed(1)} MB; load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
  } finally {
    await sink.close();
    await rm(dataDir, { recursive: true, force: true });
    if (baselineRoot) await rm(baselineRoot, { recursive: true, force: true });
  }
}

await main();
