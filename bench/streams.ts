/**
 * `npm run bench:streams` (bench/README.md "Live updates at 10,000 streams"): many open live
 * streams (`GET /api/events/stream`, docs/live-updates.md) on one instance, and how fast a job's
 * change reaches every one of them, on two instances of one PostgreSQL database.
 *
 * The run makes its own database (migrated, one agency with one branch), adds
 * ceil(streams ÷ BENCH_STREAMS_PER_ACCOUNT) agency administrators (one argon2id hash) and signs
 * each in over HTTP, starts two `caretaker serve` instances (A and B, Redis shared), creates one
 * job, and then:
 * 1. reads A's resident memory (VmRSS) with no stream open;
 * 2. opens BENCH_STREAMS_N streams to A and BENCH_STREAMS_B to B from BENCH_STREAMS_CLIENTS client
 *    processes (this file run with `--client`: raw sockets, one per stream, SSE read by hand), the
 *    accounts taken in turn;
 * 3. reads A's memory again once every stream has said `ready` and BENCH_STREAMS_SETTLE_S seconds
 *    passed (memory per stream = the difference ÷ the streams), and A's CPU over those seconds
 *    (the heartbeats and their session checks, nothing else happening);
 * 4. edits the job's title through B BENCH_STREAMS_CHANGES times, BENCH_STREAMS_GAP_MS apart,
 *    each `PUT /api/jobs/{uuid}` timed; every stream records when each `job.updated` arrived;
 * 5. prints, for A's streams and B's separately, p50, p99 and the maximum of the time from the
 *    PUT's answer (and from its start) to each delivery, the deliveries missing, and A's CPU time
 *    per change.
 * The date and load average are printed at the start and the end. Nothing is asserted.
 *
 * Limits set for the run (configuration, not code): CARETAKER_LIVE_MAX_CONNECTIONS (default 2,000
 * per instance) to the streams plus 100, CARETAKER_LIVE_MAX_PER_USER (default 8 per account and
 * instance) to BENCH_STREAMS_PER_ACCOUNT. The client processes and instance A each hold one file
 * descriptor per stream: `ulimit -n` must exceed the streams of one process.
 *
 * Environment: DATABASE_URL (required: a PostgreSQL server the bench may create a database on),
 * REDIS_URL (optional), BENCH_STREAMS_N (10000), BENCH_STREAMS_B (a tenth of N), BENCH_STREAMS_PER_ACCOUNT
 * (100, at most 100), BENCH_STREAMS_CLIENTS (2), BENCH_STREAMS_CHANGES (20), BENCH_STREAMS_GAP_MS
 * (1000), BENCH_STREAMS_SETTLE_S (20), BENCH_STREAMS_HEARTBEAT_S (the instances'
 * CARETAKER_LIVE_HEARTBEAT_S, default theirs: 15), BENCH_KEEP_DB=true (keep the database),
 * BENCH_STREAMS_PROF_DIR (a folder for instance A's CPU profile).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { cpuMs, machine } from './common.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { newUuid } from '../src/lib/crypto.ts';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, type CaretakerProcess } from '../test/helpers/process.ts';

/** One batch of streams a client process opens: `count` streams to `port`, each with the next token in turn. */
interface OpenOrder {
  label: 'A' | 'B';
  port: number;
  tokens: string[];
  count: number;
}

type ToClient = { open: OpenOrder[]; inFlight: number } | { report: true };
type FromClient =
  | { opened: number; failed: number; firstError?: string; seconds: number }
  | { report: Record<'A' | 'B', Record<string, number[]>>; streams: Record<'A' | 'B', number>; ended: Record<'A' | 'B', number>; signedOut: Record<'A' | 'B', number> };

/** Now, in ms since the epoch with sub-millisecond precision, comparable across processes of one machine. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

// ---------------------------------------------------------------------------------------------
// The client process: raw sockets, the SSE read by hand (a stream costs one socket and a string).

/**
 * Runs as a client process: opens the streams it is told to (at most `inFlight` being opened at
 * once), records when each `job.updated` event arrives on each stream, and reports the times.
 */
function client(): void {
  /** Per instance, per event id: the arrival times (ms since the epoch), one per stream that got it. */
  const arrivals: Record<'A' | 'B', Map<string, number[]>> = { A: new Map(), B: new Map() };
  const streams = { A: 0, B: 0 };
  /** Streams that ended after `ready`, and those of them that were told `signed_out` first. */
  const ended = { A: 0, B: 0 };
  const signedOut = { A: 0, B: 0 };
  const sockets: net.Socket[] = [];

  /** Opens one stream; resolves once it said `ready`, rejects when refused or closed first. */
  const openOne = (order: OpenOrder, token: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ port: order.port, host: '127.0.0.1', noDelay: true });
      sockets.push(socket);
      let head = true;
      let tail = '';
      let ready = false;
      socket.setEncoding('utf8');
      socket.on('connect', () => {
        socket.write(`GET /api/events/stream HTTP/1.1\r\nhost: 127.0.0.1:${order.port}\r\nauthorization: Bearer ${token}\r\naccept: text/event-stream\r\n\r\n`);
      });
      socket.on('data', (chunk: string) => {
        const at = now();
        let text = tail + chunk;
        if (head) {
          const end = text.indexOf('\r\n\r\n');
          if (end < 0) {
            tail = text;
            return;
          }
          if (!text.startsWith('HTTP/1.1 200')) {
            socket.destroy();
            // The status line and the start of the body (the error envelope).
            reject(new Error(`${text.slice(0, text.indexOf('\r\n'))} ${text.slice(end + 4, end + 204)}`));
            return;
          }
          head = false;
          text = text.slice(end + 4);
        }
        // Messages end with a blank line; the chunked framing (size lines) sits between writes.
        const last = text.lastIndexOf('\n\n');
        if (last < 0) {
          tail = text;
          return;
        }
        tail = text.slice(last + 2);
        const complete = text.slice(0, last);
        if (!ready && complete.includes('"type":"ready"')) {
          ready = true;
          streams[order.label]++;
          resolve();
        }
        if (complete.includes('"type":"signed_out"')) signedOut[order.label]++;
        for (let i = complete.indexOf('"type":"job.updated"'); i >= 0; i = complete.indexOf('"type":"job.updated"', i + 1)) {
          const idAt = complete.lastIndexOf('{"id":"', i);
          const id = complete.slice(idAt + 7, complete.indexOf('"', idAt + 7));
          let list = arrivals[order.label].get(id);
          if (!list) arrivals[order.label].set(id, (list = []));
          list.push(at);
        }
      });
      socket.on('error', (err) => reject(err));
      socket.on('close', () => {
        if (ready) {
          streams[order.label]--;
          ended[order.label]++;
        }
        reject(new Error('closed before ready'));
      });
    });

  process.on('message', (message: ToClient) => {
    if ('open' in message) {
      void (async () => {
        const started = now();
        const jobs: Array<{ order: OpenOrder; token: string }> = [];
        for (const order of message.open) for (let i = 0; i < order.count; i++) jobs.push({ order, token: order.tokens[i % order.tokens.length]! });
        let next = 0;
        let opened = 0;
        let failed = 0;
        let firstError: string | undefined;
        await Promise.all(
          Array.from({ length: message.inFlight }, async () => {
            while (next < jobs.length) {
              const job = jobs[next++]!;
              await openOne(job.order, job.token).then(
                () => opened++,
                (err: Error) => {
                  failed++;
                  firstError ??= err.message;
                },
              );
            }
          }),
        );
        const reply: FromClient = { opened, failed, seconds: (now() - started) / 1000, ...(firstError ? { firstError } : {}) };
        process.send!(reply);
      })();
    } else {
      const report: FromClient = {
        report: { A: Object.fromEntries(arrivals.A), B: Object.fromEntries(arrivals.B) },
        streams,
        ended,
        signedOut,
      };
      process.send!(report, () => {
        for (const s of sockets) s.destroy();
        process.exit(0);
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The run.

/** Resident memory of a process in MiB (VmRSS from /proc/<pid>/status). */
async function rssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** The value at fraction `q` (0..1) of sorted `values` (nearest rank). */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Sends `message` to a client and resolves with its next answer. */
function ask(child: ChildProcess, message: ToClient): Promise<FromClient> {
  return new Promise((resolve) => {
    child.once('message', (m: FromClient) => resolve(m));
    child.send(message);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    process.stderr.write('usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm run bench:streams\n');
    process.exit(2);
  }
  const N = Number(process.env.BENCH_STREAMS_N ?? 10_000);
  const NB = Number(process.env.BENCH_STREAMS_B ?? Math.round(N / 10));
  const PER_ACCOUNT = Math.min(100, Number(process.env.BENCH_STREAMS_PER_ACCOUNT ?? 100));
  const CLIENTS = Number(process.env.BENCH_STREAMS_CLIENTS ?? 2);
  const CHANGES = Number(process.env.BENCH_STREAMS_CHANGES ?? 20);
  const GAP_MS = Number(process.env.BENCH_STREAMS_GAP_MS ?? 1_000);
  const SETTLE_S = Number(process.env.BENCH_STREAMS_SETTLE_S ?? 20);
  const accounts = Math.ceil(Math.max(N, NB) / PER_ACCOUNT);
  const start = machine();
  process.stdout.write(`start ${start}\n`);

  const world = await createProcessWorld('postgres');
  const password = 'bench password 2026';
  {
    const handle = world.open();
    const hash = await hashPassword(password);
    const admin = await handle.db.selectFrom('users').select(['agency_id', 'branch_id', 'role_id']).where('email', '=', world.admin.email).executeTakeFirstOrThrow();
    const at = new Date();
    const rows = Array.from({ length: accounts }, (_, i) => ({
      uuid: newUuid(),
      agency_id: admin.agency_id,
      branch_id: admin.branch_id,
      role_id: admin.role_id,
      name: `Stream reader ${i + 1}`,
      email: `reader-${i + 1}@streams.bench`,
      password_hash: hash,
      created_at: at,
      updated_at: at,
    }));
    await handle.db.insertInto('users').values(rows).execute();
    await handle.close();
  }

  const env = {
    ...world.env,
    REDIS_URL: process.env.REDIS_URL ?? '',
    CARETAKER_REDIS_PREFIX: `caretaker-bench-streams:${process.pid}:`,
    CARETAKER_LIVE_MAX_CONNECTIONS: String(Math.max(N, NB) + 100),
    CARETAKER_LIVE_MAX_PER_USER: String(PER_ACCOUNT),
    ...(process.env.BENCH_STREAMS_HEARTBEAT_S ? { CARETAKER_LIVE_HEARTBEAT_S: process.env.BENCH_STREAMS_HEARTBEAT_S } : {}),
  };
  const clients: ChildProcess[] = [];
  let a: CaretakerProcess | undefined;
  try {
    // BENCH_STREAMS_PROF_DIR: instance A writes a CPU profile there (stopped with SIGTERM at the end).
    const prof = process.env.BENCH_STREAMS_PROF_DIR;
    a = await startCaretaker(prof ? { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${prof}` } : env);
    const b = await startCaretaker(env);
    await Promise.all([a.waitReady(), b.waitReady()]);
    const tokens: string[] = [];
    for (let i = 0; i < accounts; i++) tokens.push((await httpLogin(a.url, `reader-${i + 1}@streams.bench`, password)).token);
    const editor = (await httpLogin(b.url, world.admin.email, world.admin.password)).token;
    const created = await fetch(`${b.url}/api/jobs/manage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json', 'x-csrf-token': await httpCsrf(b.url, editor) },
      body: JSON.stringify({ title: 'Streams bench job', priority: 3 }),
    });
    const job = ((await created.json()) as { data?: { uuid: string } }).data;
    if (created.status !== 201 || !job) throw new Error(`job not created: ${created.status}`);

    // Memory with no stream open (the app warmed by the logins), then with all open.
    await sleep(2_000);
    const rssBefore = await rssMiB(a.child.pid);
    const rssBeforeB = await rssMiB(b.child.pid);
    for (let i = 0; i < CLIENTS; i++) clients.push(fork(fileURLToPath(import.meta.url), ['--client'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    const share = (total: number, i: number) => Math.floor(total / CLIENTS) + (i < total % CLIENTS ? 1 : 0);
    const openStarted = now();
    const opened = (await Promise.all(
      clients.map((c, i) =>
        ask(c, {
          inFlight: 50,
          open: [
            { label: 'A', port: a!.port, tokens, count: share(N, i) },
            { label: 'B', port: b.port, tokens, count: share(NB, i) },
          ],
        }),
      ),
    )) as Array<Extract<FromClient, { opened: number }>>;
    const openSeconds = (now() - openStarted) / 1000;
    const failed = opened.reduce((s, o) => s + o.failed, 0);
    process.stdout.write(`opened ${opened.reduce((s, o) => s + o.opened, 0)} streams in ${openSeconds.toFixed(1)} s, ${failed} failed${failed ? ` (first: ${opened.find((o) => o.firstError)?.firstError})` : ''}\n`);
    const settleCpu = await cpuMs(a.child.pid);
    await sleep(SETTLE_S * 1_000);
    const idleCpu = (await cpuMs(a.child.pid))! - settleCpu!;
    const rssWith = await rssMiB(a.child.pid);
    const rssWithB = await rssMiB(b.child.pid);

    // The changes, through B, one after the other.
    const changes: Array<{ started: number; answered: number }> = [];
    const refused: string[] = [];
    const cpuBefore = await cpuMs(a.child.pid);
    const changesStarted = machine();
    for (let i = 0; i < CHANGES; i++) {
      const csrf = await httpCsrf(b.url, editor);
      const started = now();
      const res = await fetch(`${b.url}/api/jobs/${job.uuid}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ title: `Streams bench job, change ${i + 1}` }),
      });
      const body = await res.text();
      const answered = now();
      // A refused change (503: the pool exhausted) wrote nothing: counted, not timed.
      if (res.status === 200) changes.push({ started, answered });
      else refused.push(`${res.status} ${body.slice(0, 120)}`);
      await sleep(GAP_MS);
    }
    await sleep(5_000);
    const cpuChanges = (await cpuMs(a.child.pid))! - cpuBefore!;
    const reports = (await Promise.all(clients.map((c) => ask(c, { report: true })))) as Array<Extract<FromClient, { report: unknown }>>;
    const end = machine();

    process.stdout.write(`\n${N.toLocaleString('en-GB')} streams on A, ${NB.toLocaleString('en-GB')} on B (${accounts} accounts, ${PER_ACCOUNT} streams each at most per instance, ${CLIENTS} client processes); ${CHANGES} title edits through B, ${GAP_MS} ms apart\n`);
    process.stdout.write(`start ${start}\nchanges from ${changesStarted}\nend ${end}\n\n`);
    process.stdout.write(`| instance | VmRSS no stream, MiB | VmRSS with the streams, MiB | per stream, KiB | CPU while open, ${SETTLE_S} s (% of a core) |\n|---|---|---|---|---|\n`);
    process.stdout.write(`| A (${N.toLocaleString('en-GB')} streams) | ${rssBefore.toFixed(0)} | ${rssWith.toFixed(0)} | ${N ? (((rssWith - rssBefore) * 1024) / N).toFixed(1) : '-'} | ${((idleCpu / (SETTLE_S * 1000)) * 100).toFixed(1)} |\n`);
    process.stdout.write(`| B (${NB.toLocaleString('en-GB')} streams) | ${rssBeforeB.toFixed(0)} | ${rssWithB.toFixed(0)} | ${NB ? (((rssWithB - rssBeforeB) * 1024) / NB).toFixed(1) : '-'} | |\n\n`);
    if (refused.length) process.stdout.write(`changes refused: ${refused.length} (first: ${refused[0]})\n`);
    process.stdout.write(`PUT answered in: p50 ${quantile(changes.map((c) => c.answered - c.started).sort((x, y) => x - y), 0.5).toFixed(1)} ms, max ${Math.max(...changes.map((c) => c.answered - c.started)).toFixed(1)} ms; A's CPU during the changes ${cpuChanges} ms (${(cpuChanges / CHANGES).toFixed(0)} ms a change, the ${CHANGES} tried)\n\n`);
    const sum = (key: 'ended' | 'signedOut', label: 'A' | 'B') => reports.reduce((s, r) => s + r[key][label], 0);
    process.stdout.write(`streams that ended during the run: A ${sum('ended', 'A')} (${sum('signedOut', 'A')} told signed_out), B ${sum('ended', 'B')} (${sum('signedOut', 'B')} told signed_out)\n\n`);
    process.stdout.write('| streams on | deliveries | missing | from the answer: p50 ms | p99 ms | max ms | from the request start: p50 ms | p99 ms |\n|---|---|---|---|---|---|---|---|\n');
    for (const label of ['A', 'B'] as const) {
      const ids = [...new Set(reports.flatMap((r) => Object.keys(r.report[label])))].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
      const streamsOpen = reports.reduce((s, r) => s + r.streams[label], 0);
      const fromAnswer: number[] = [];
      const fromStart: number[] = [];
      ids.slice(-changes.length).forEach((id, i) => {
        const change = changes[i]!;
        for (const r of reports) for (const at of r.report[label][id] ?? []) {
          fromAnswer.push(at - change.answered);
          fromStart.push(at - change.started);
        }
      });
      fromAnswer.sort((x, y) => x - y);
      fromStart.sort((x, y) => x - y);
      const expected = streamsOpen * changes.length;
      if (!fromAnswer.length) {
        process.stdout.write(`| ${label} | 0 | ${expected} | | | | | |\n`);
        continue;
      }
      const f = (v: number) => v.toFixed(1);
      process.stdout.write(
        `| ${label} (${streamsOpen.toLocaleString('en-GB')}) | ${fromAnswer.length.toLocaleString('en-GB')} | ${expected - fromAnswer.length} | ${f(quantile(fromAnswer, 0.5))} | ${f(quantile(fromAnswer, 0.99))} | ${f(fromAnswer.at(-1)!)} | ${f(quantile(fromStart, 0.5))} | ${f(quantile(fromStart, 0.99))} |\n`,
      );
    }
    if (prof) {
      a.signal('SIGTERM');
      await a.waitExit(60_000);
    }
  } finally {
    for (const c of clients) if (c.exitCode === null) c.kill('SIGKILL');
    await stopAllProcesses();
    if (process.env.BENCH_KEEP_DB === 'true') process.stdout.write(`kept ${world.databaseUrl}\n`);
    else await world.drop();
  }
}

if (process.argv.includes('--client')) client();
else await main();
