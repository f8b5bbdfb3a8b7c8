/**
 * `npm run bench:fairness` (docs/operations.md "Fairness between agencies"): one agency's jobs list
 * while another agency imports 100,000 properties, against the same list alone.
 *
 * On a database a `BENCH_KEEP_DB=true BENCH_ENGINES=postgres npm run bench` generated and kept, one
 * `caretaker serve` (its worker in the same process, as in production) serves:
 * - agency 1's administrator reading `GET /api/jobs/manage?limit=50` on BENCH_FAIRNESS_CONNECTIONS
 *   connections, measured alone for BENCH_FAIRNESS_DURATION_S seconds, then
 * - the same load for as long as agency 2's administrator uploads its files (the dry runs: at most
 *   50,000 rows a file, so 100,000 rows are two files) and then for as long as the worker commits
 *   them (`POST /api/imports/{uuid}/commit`, the periodic task `imports.commit`).
 * Prints req/s, p50 and p99 of each phase and its p99 against the list's alone, with the date and
 * load average. Nothing is asserted: the run only has to finish.
 *
 * Environment: BENCH_FAIRNESS_DB (required, the kept database), REDIS_URL (optional),
 * BENCH_FAIRNESS_ROWS (100000), BENCH_FAIRNESS_CONNECTIONS (10), BENCH_FAIRNESS_DURATION_S (15).
 */
import autocannon from 'autocannon';
import { machine } from './common.ts';
import { httpCsrf, httpLogin, startCaretaker, stopAllProcesses } from '../test/helpers/process.ts';

const DB = process.env.BENCH_FAIRNESS_DB;
if (!DB) {
  process.stderr.write('usage: BENCH_FAIRNESS_DB=postgres://.../caretaker_test_... npm run bench:fairness\n');
  process.exit(2);
}
const ROWS = Number(process.env.BENCH_FAIRNESS_ROWS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_FAIRNESS_CONNECTIONS ?? 10);
const DURATION_S = Number(process.env.BENCH_FAIRNESS_DURATION_S ?? 15);
/** The import's limit of data rows per file (src/modules/platform/imports/spreadsheet.ts SHEET_LIMITS). */
const ROWS_PER_FILE = 50_000;
const PASSWORD = 'bench password 2026';
const LIST = '/api/jobs/manage?limit=50';

interface Phase {
  name: string;
  seconds: number;
  result: autocannon.Result;
  start: string;
  end: string;
}

/** Loads agency 1's list until `until` settles (or for `seconds` when it is a number); resolves with the phase. */
async function measure(base: string, token: string, name: string, until: number | Promise<unknown>): Promise<Phase> {
  const start = machine();
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${base}${LIST}`, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, duration: typeof until === 'number' ? until : 3_600 },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    if (typeof until !== 'number') until.then(() => instance.stop(), () => instance.stop());
  });
  await until;
  return { name, seconds: (performance.now() - started) / 1000, result, start, end: machine() };
}

/** This run's mark in the references and streets, so that every run imports new properties (a second run of the same file would find them unchanged). */
const RUN = Date.now().toString(36);

/** The CSV of new properties `from`..`to`-1 for agency 2 (its branch "Branch 6"). */
function propertiesCsv(from: number, to: number): Buffer {
  const lines = ['external_ref,line1,town,postcode,branch'];
  for (let i = from; i < to; i++) lines.push(`FAIR-${RUN}-${i},${i + 1} Fairness Row ${RUN},Leeds,LS${1 + (i % 29)} ${i % 10}AB,Branch 6`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Agency 2's dry run of one file; resolves with the import's uuid. @throws when it is refused or a row is in error */
async function dryRun(base: string, token: string, file: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.set('entity', 'addresses');
  form.set('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), name);
  const res = await fetch(`${base}/api/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-csrf-token': await httpCsrf(base, token) }, body: form });
  const body = (await res.json()) as { data?: { uuid: string; counts: Record<string, number> }; error?: string };
  if (res.status !== 201 && res.status !== 200) throw new Error(`dry run of ${name}: ${res.status} ${body.error ?? ''}`);
  if (body.data!.counts.error) throw new Error(`dry run of ${name}: ${body.data!.counts.error} rows in error`);
  return body.data!.uuid;
}

/** Commits the imports and waits until the worker has written them all; resolves with the seconds it took. */
async function commitAll(base: string, token: string, uuids: string[]): Promise<number> {
  const started = performance.now();
  for (const uuid of uuids) {
    const res = await fetch(`${base}/api/imports/${uuid}/commit`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-csrf-token': await httpCsrf(base, token) } });
    if (res.status !== 202 && res.status !== 200) throw new Error(`commit of ${uuid}: ${res.status} ${await res.text()}`);
  }
  for (;;) {
    const states = await Promise.all(
      uuids.map(async (uuid) => ((await (await fetch(`${base}/api/imports/${uuid}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { status: string } }).data.status),
    );
    if (states.some((s) => s === 'failed')) throw new Error(`an import failed: ${states.join(', ')}`);
    if (states.every((s) => s === 'committed')) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

const server = await startCaretaker({
  DATABASE_URL: DB,
  REDIS_URL: process.env.REDIS_URL ?? '',
  CARETAKER_REDIS_PREFIX: `caretaker-bench-fairness:${process.pid}:`,
});
try {
  await server.waitReady();
  const reader = await httpLogin(server.url, 'admin-1@bench.test', PASSWORD);
  const importer = await httpLogin(server.url, 'admin-2@bench.test', PASSWORD);
  const phases: Phase[] = [];
  phases.push(await measure(server.url, reader.token, 'alone', DURATION_S));
  const uuids: string[] = [];
  const files = async () => {
    for (let from = 0; from < ROWS; from += ROWS_PER_FILE) {
      const to = Math.min(ROWS, from + ROWS_PER_FILE);
      uuids.push(await dryRun(server.url, importer.token, propertiesCsv(from, to), `properties-${from + 1}-${to}.csv`));
    }
  };
  phases.push(await measure(server.url, reader.token, `during the dry runs of ${ROWS.toLocaleString('en-GB')} rows`, files()));
  let commitSeconds = 0;
  phases.push(await measure(server.url, reader.token, `during their commit`, commitAll(server.url, importer.token, uuids).then((s) => (commitSeconds = s))));
  phases.push(await measure(server.url, reader.token, 'alone again', DURATION_S));

  const alone = phases[0]!.result.latency.p99;
  process.stdout.write(`agency 1's jobs list (${LIST}), ${CONNECTIONS} connections, while agency 2 imports ${ROWS.toLocaleString('en-GB')} properties (${uuids.length} files; commit ${commitSeconds.toFixed(0)} s)\n`);
  process.stdout.write('| phase | seconds | req/s | p50 ms | p99 ms | p99 ÷ alone | non-2xx | start (UTC, load average) | end |\n|---|---|---|---|---|---|---|---|---|\n');
  for (const p of phases) {
    const r = p.result;
    const rps = Math.round(r.requests.total / p.seconds);
    process.stdout.write(`| ${p.name} | ${p.seconds.toFixed(0)} | ${rps} | ${r.latency.p50} | ${r.latency.p99} | ${(r.latency.p99 / alone).toFixed(2)} | ${r.non2xx} | ${p.start} | ${p.end} |\n`);
  }
} finally {
  await stopAllProcesses();
}
