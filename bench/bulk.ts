/**
 * `npm run bench:bulk` (bench/README.md "Imports and exports of 100,000 rows"): the time and the
 * server's memory of the bulk work, each against one `caretaker serve` (its worker in the same
 * process, as in production):
 * - the agency export (`GET /api/agencies/current/export`, docs/onboarding.md "Export") of an agency
 *   holding 100,000 jobs, read as a stream and counted (time to the first byte, to the end, bytes);
 * - the dry runs of 100,000 properties (`POST /api/imports`, two files of 50,000 rows, the import's
 *   limit per file): each one's time and the answer's size;
 * - their commit through the queue (`POST /api/imports/{uuid}/commit`, the periodic task
 *   `imports.commit`): the time until both are committed;
 * - the export again, now with the 100,000 properties too.
 * For each: the server's resident memory before (VmRSS of /proc/<pid>/status), its highest sample
 * during (every 100 ms) and its high-water mark after (VmHWM, the process's peak so far). Nothing is
 * asserted: the run only has to finish.
 *
 * On PostgreSQL (BENCH_BULK_DB, a database a `BENCH_KEEP_DB=true BENCH_SIZES=large` run kept): every
 * job is first moved into agency 1 (one UPDATE; branch n of another agency becomes agency 1's branch
 * ((n - 1) mod 5) + 1), so agency 1 holds the 100,000 jobs; the database is changed for good (the
 * other agencies have no jobs after it). Agency 1's administrator imports and exports.
 * Without BENCH_BULK_DB: the embedded database (PGlite) in a fresh temporary folder with one agency
 * (test/helpers/process.ts createProcessWorld), the imports only (it has no jobs to export).
 *
 * Environment: BENCH_BULK_DB, REDIS_URL (optional, with PostgreSQL), BENCH_BULK_ROWS (100000),
 * BENCH_BULK_STEPS (`export,import,export`: which phases, in order), BENCH_BULK_ROOT (the checkout
 * whose server runs: default this one; another build for a before/after).
 */
import pg from 'pg';
import { readFile } from 'node:fs/promises';
import { machine } from './common.ts';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, type ProcessWorld } from '../test/helpers/process.ts';

const DB = process.env.BENCH_BULK_DB;
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 100_000);
const STEPS = (process.env.BENCH_BULK_STEPS ?? (DB ? 'export,import,export' : 'import')).split(',');
/** The import's limit of data rows per file (src/modules/platform/imports/spreadsheet.ts SHEET_LIMITS). */
const ROWS_PER_FILE = 50_000;
const BENCH_PASSWORD = 'bench password 2026';
const SAMPLE_MS = 100;
const ROOT = process.env.BENCH_BULK_ROOT;

/** One measured phase: what it did, how long, and the server's memory (MiB). */
interface Phase {
  name: string;
  seconds: number;
  /** e.g. "answer 12.3 MiB" or "first byte 0.21 s, 45.6 MiB" */
  detail: string;
  rssBefore: number;
  rssPeak: number;
  hwmAfter: number;
  start: string;
  end: string;
}

/** VmRSS and VmHWM of a process in MiB (Linux /proc; 0 when unreadable). */
async function memory(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/** Runs `work` while sampling the server's VmRSS every SAMPLE_MS; resolves with the phase. */
async function measure(pid: number, name: string, work: () => Promise<string>): Promise<Phase> {
  const start = machine();
  const before = await memory(pid);
  let peak = before.rss;
  const timer = setInterval(() => void memory(pid).then((m) => (peak = Math.max(peak, m.rss))), SAMPLE_MS);
  const started = performance.now();
  let detail: string;
  try {
    detail = await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await memory(pid);
  peak = Math.max(peak, after.rss);
  const phase = { name, seconds, detail, rssBefore: before.rss, rssPeak: peak, hwmAfter: after.hwm, start, end: machine() };
  process.stdout.write(`  ${name}: ${seconds.toFixed(1)} s, ${detail}; RSS ${before.rss.toFixed(0)} → peak ${peak.toFixed(0)} MiB, VmHWM ${after.hwm.toFixed(0)} MiB\n`);
  return phase;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** This run's mark in the references and streets, so that every run imports new properties. */
const RUN = Date.now().toString(36);

/** The CSV of new properties `from`..`to`-1 in the branch `branch`. */
function propertiesCsv(from: number, to: number, branch: string): Buffer {
  const lines = ['external_ref,line1,town,postcode,branch'];
  for (let i = from; i < to; i++) lines.push(`BULK-${RUN}-${i},${i + 1} Bulk Row ${RUN},Leeds,LS${1 + (i % 29)} ${i % 10}AB,${branch}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** One dry run; resolves with the import's uuid and the answer's size in bytes. @throws when it is refused or a row is in error */
async function dryRun(base: string, token: string, file: Buffer, name: string): Promise<{ uuid: string; bytes: number }> {
  const form = new FormData();
  form.set('entity', 'addresses');
  form.set('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), name);
  const res = await fetch(`${base}/api/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-csrf-token': await httpCsrf(base, token) }, body: form });
  const text = await res.text();
  const body = JSON.parse(text) as { data?: { uuid: string; counts: Record<string, number> }; error?: string };
  if (res.status !== 201 && res.status !== 200) throw new Error(`dry run of ${name}: ${res.status} ${body.error ?? ''}`);
  if (body.data!.counts.error) throw new Error(`dry run of ${name}: ${body.data!.counts.error} rows in error`);
  return { uuid: body.data!.uuid, bytes: Buffer.byteLength(text) };
}

/** Commits the imports and waits until the worker has written them all. @throws when one fails */
async function commitAll(base: string, token: string, uuids: string[]): Promise<void> {
  for (const uuid of uuids) {
    const res = await fetch(`${base}/api/imports/${uuid}/commit`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-csrf-token': await httpCsrf(base, token) } });
    if (res.status !== 202 && res.status !== 200) throw new Error(`commit of ${uuid}: ${res.status} ${await res.text()}`);
  }
  for (;;) {
    const states = await Promise.all(
      uuids.map(async (uuid) => {
        const res = await fetch(`${base}/api/imports/${uuid}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { data?: { status: string } };
        // An answer other than 200 (the server busy) is asked again at the next turn.
        return res.status === 200 ? body.data!.status : `HTTP ${res.status}`;
      }),
    );
    if (states.some((s) => s === 'failed')) throw new Error(`an import failed: ${states.join(', ')}`);
    if (states.every((s) => s === 'committed')) return;
    if (states.some((s) => s.startsWith('HTTP'))) process.stdout.write(`  (import states: ${states.join(', ')})\n`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Reads the agency export to its end, counting bytes; resolves with the detail (first byte, size). @throws on a status other than 200 */
async function exportAgency(base: string, token: string): Promise<string> {
  const started = performance.now();
  const res = await fetch(`${base}/api/agencies/current/export`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let firstByte: number | undefined;
  for await (const chunk of res.body!) {
    firstByte ??= (performance.now() - started) / 1000;
    bytes += (chunk as Uint8Array).byteLength;
  }
  return `first byte ${(firstByte ?? 0).toFixed(2)} s, ZIP ${mib(bytes)}`;
}

/** Moves every job into agency 1 (its branches by position) unless it holds them all already; resolves with agency 1's jobs. */
async function jobsIntoAgencyOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`update jobs j set agency_id = 1, branch_id = (j.branch_id - 1) % 5 + 1 where j.agency_id <> 1`);
    await client.query('vacuum analyze jobs');
    const { rows } = await client.query<{ n: string }>('select count(*) as n from jobs where agency_id = 1');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** ANALYZE of the tables an import of properties writes (autovacuum's work, off on this machine's PostgreSQL). */
async function analyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('analyze addresses, imports, import_rows');
  } finally {
    await client.end();
  }
}

let world: ProcessWorld | undefined;
try {
  let env: Record<string, string>;
  let login: { email: string; password: string };
  let branch: string;
  if (DB) {
    process.stdout.write(`agency 1 holds ${(await jobsIntoAgencyOne(DB)).toLocaleString('en-GB')} jobs\n`);
    env = { DATABASE_URL: DB, REDIS_URL: process.env.REDIS_URL ?? '', CARETAKER_REDIS_PREFIX: `caretaker-bench-bulk:${process.pid}:` };
    login = { email: 'admin-1@bench.test', password: BENCH_PASSWORD };
    branch = 'Branch 1';
  } else {
    world = await createProcessWorld('pglite');
    env = world.env;
    login = world.admin;
    branch = 'Main';
  }
  const server = await startCaretaker(env, [], ROOT);
  await server.waitReady();
  const pid = server.child.pid!;
  const { token } = await httpLogin(server.url, login.email, login.password);
  const engine = DB ? 'PostgreSQL' : 'PGlite';
  process.stdout.write(`bench:bulk on ${engine}, ${ROWS.toLocaleString('en-GB')} properties, server of ${ROOT ?? 'this checkout'}; start ${machine()}\n`);
  const phases: Phase[] = [];
  let imported = false;
  for (const step of STEPS) {
    if (step === 'export') {
      phases.push(await measure(pid, imported ? 'export (jobs and the imported properties)' : 'export', () => exportAgency(server.url, token)));
    } else if (step === 'import') {
      const uuids: string[] = [];
      for (let from = 0; from < ROWS; from += ROWS_PER_FILE) {
        const to = Math.min(ROWS, from + ROWS_PER_FILE);
        phases.push(
          await measure(pid, `dry run of ${(to - from).toLocaleString('en-GB')} rows`, async () => {
            const file = propertiesCsv(from, to, branch);
            const r = await dryRun(server.url, token, file, `properties-${from + 1}-${to}.csv`);
            uuids.push(r.uuid);
            return `file ${mib(file.length)}, answer ${mib(r.bytes)}`;
          }),
        );
      }
      phases.push(await measure(pid, `commit of ${ROWS.toLocaleString('en-GB')} rows (${uuids.length} imports, queued)`, async () => (await commitAll(server.url, token, uuids), 'until both are committed')));
      // This machine's PostgreSQL runs without autovacuum: analyze as it would after 100,000 new
      // rows, or the next export plans its property pages on the statistics of an agency without them.
      if (DB) await analyze(DB);
      imported = true;
    } else throw new Error(`BENCH_BULK_STEPS: unknown step ${step} (export, import)`);
  }
  process.stdout.write(`\n| step | seconds | detail | RSS before MiB | peak RSS during MiB | peak − before | VmHWM after MiB | start (UTC, load average) | end |\n|---|---|---|---|---|---|---|---|---|\n`);
  for (const p of phases) {
    process.stdout.write(`| ${p.name} | ${p.seconds.toFixed(1)} | ${p.detail} | ${p.rssBefore.toFixed(0)} | ${p.rssPeak.toFixed(0)} | ${(p.rssPeak - p.rssBefore).toFixed(0)} | ${p.hwmAfter.toFixed(0)} | ${p.start} | ${p.end} |\n`);
  }
} finally {
  await stopAllProcesses();
  await world?.drop();
}
