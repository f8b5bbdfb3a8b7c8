/**
 * `npm run bench:ab -- OTHER_CHECKOUT [SCENARIO...]` (bench/README.md "Two builds in rotating
 * turns"): this checkout (A) against another one (B, e.g. a `git worktree` of an earlier commit
 * with node_modules linked) and against the limit, on one database generated before, in rotating
 * turns, so the machine's drift (other work, frequency, caches) meets all three alike.
 *
 * BENCH_AB_SETS sets of three processes of bench/server.ts, one after the other: the limit served by
 * a process of its own (from A), A's and B's apps by one each (A's started first in odd sets, B's
 * in even ones). A process keeps its speed for its life, a few points from another running the same
 * code, so one set cannot tell two builds apart by less than that. In each set, after
 * BENCH_AB_WARMUP_S seconds of load on each, BENCH_AB_ROUNDS rounds run one turn of BENCH_AB_TURN_S
 * seconds for each of the three, in an order that rotates through the six orders of three. Each
 * build's figure is the median over every round of every set of its req/s divided by the limit's in
 * the same round, and the median of its server CPU per request (µs, /proc); each set's medians are
 * printed beside it.
 *
 * Scenarios (default `status,activity,jobs`), as the bench's rows of the same names:
 * - `status`: GET /api/system/status; limit: `select 1` and PING
 * - `activity`: GET /api/admin/activity-log?user_id=2&from_date=2026-08-23&to_date=2026-11-21&limit=50
 * - `jobs`: GET /api/jobs/manage?limit=50
 * - `job`: GET /api/security/csrf-token then POST /api/jobs/manage with it (a job each; req/s counts
 *   both requests, the limit's too)
 * - `login`: POST /api/auth/login round-robin over the 20 accounts `login-N@bench.test` (argon2id)
 *
 * Environment: BENCH_AB_DB (required: a PostgreSQL database a `BENCH_KEEP_DB=true npm run bench`
 * generated and kept; A and the limit run on it), BENCH_AB_DB_B (B's database, default BENCH_AB_DB:
 * give B one its own build generated when the two builds' migrations differ, so each runs on the
 * schema it made), REDIS_URL (optional, as in production), BENCH_AB_SETS (4), BENCH_AB_ROUNDS (6),
 * BENCH_AB_TURN_S (3), BENCH_AB_WARMUP_S (8), BENCH_AB_CONNECTIONS (1).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options } from 'autocannon';
import { cpuMs, machine, median, startBenchServer, type BenchServer } from './common.ts';

const A = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [otherArg, ...scenarioArgs] = process.argv.slice(2);
const DB = process.env.BENCH_AB_DB;
const DB_B = process.env.BENCH_AB_DB_B ?? DB;
if (!otherArg || !DB) {
  process.stderr.write('usage: BENCH_AB_DB=postgres://.../caretaker_test_... npm run bench:ab -- OTHER_CHECKOUT [status|activity|jobs|job|login ...]\n');
  process.exit(2);
}
const B = path.resolve(otherArg);
if (!existsSync(path.join(B, 'bench/server.ts'))) throw new Error(`${B} has no bench/server.ts: not a Caretaker checkout`);
const SETS = Number(process.env.BENCH_AB_SETS ?? 4);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 6);
const TURN_S = Number(process.env.BENCH_AB_TURN_S ?? 3);
const WARMUP_S = Number(process.env.BENCH_AB_WARMUP_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_AB_CONNECTIONS ?? 1);
const PASSWORD = 'bench password 2026';

/** The autocannon load of one side of a scenario: its base URL and the caller's headers in, options out. */
type Load = (base: string, auth: Record<string, string>) => Options;
/** A plain GET of `path`. */
const get = (path: string): Load => (base, auth) => ({ url: `${base}${path}`, headers: auth });

/** A job per fresh CSRF token (autocannon request chaining, as bench/run.ts's "POST job"), in agency 1's first branch. */
const createJob = (csrfPath: string, postPath: string): Load => (base, auth) => {
  const md5 = createHash('md5').update('branch1').digest('hex');
  const body = JSON.stringify({ title: 'Bench write', priority: 3, branch_uuid: `${md5.slice(0, 8)}-${md5.slice(8, 12)}-${md5.slice(12, 16)}-${md5.slice(16, 20)}-${md5.slice(20)}` });
  return {
    url: base,
    requests: [
      {
        method: 'GET', path: csrfPath, headers: auth,
        onResponse: (_status, resBody, context) => {
          (context as { csrf?: string }).csrf = (JSON.parse(resBody) as { data: { token: string } }).data.token;
        },
      },
      {
        method: 'POST', path: postPath, body,
        setupRequest: (req, context) => ({ ...req, headers: { ...auth, 'content-type': 'application/json', 'x-csrf-token': String((context as { csrf?: string }).csrf) } }),
      },
    ],
  };
};

/** Logins round-robin over the bench's 20 login accounts (bench/generate.ts), as bench/run.ts's "POST login". */
const login = (path: string): Load => (base) => {
  let n = 0;
  return {
    url: base,
    requests: [{
      method: 'POST', path, headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `login-${(n++ % 20) + 1}@bench.test`, password: PASSWORD }) }),
    }],
  };
};

/** The real request and the limit's, per scenario. */
const ACTIVITY = 'user_id=2&from_date=2026-08-23&to_date=2026-11-21&limit=50';
const SCENARIOS: Record<string, { real: Load; limit: Load }> = {
  status: { real: get('/api/system/status'), limit: get('/status') },
  activity: { real: get(`/api/admin/activity-log?${ACTIVITY}`), limit: get(`/activity?${ACTIVITY}`) },
  jobs: { real: get('/api/jobs/manage?limit=50'), limit: get('/jobs?limit=50') },
  job: { real: createJob('/api/security/csrf-token', '/api/jobs/manage'), limit: createJob('/csrf-token', '/jobs') },
  login: { real: login('/api/auth/login'), limit: login('/login') },
};
const scenarios = scenarioArgs.length > 0 ? scenarioArgs : Object.keys(SCENARIOS);
for (const s of scenarios) if (!(s in SCENARIOS)) throw new Error(`unknown scenario ${s} (${Object.keys(SCENARIOS).join(', ')})`);

/** Starts bench/server.ts of `root` on the kept database; resolves when it says it is ready. */
async function start(root: string, tag: string, database = DB): Promise<BenchServer> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'silent',
    CARETAKER_COOKIE_SECURE: 'false',
    CARETAKER_RATE_LIMIT_IP_MAX: '1000000',
    CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '1000000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
    BENCH_ENGINE: 'postgres',
    DATABASE_URL: database,
    CARETAKER_REDIS_PREFIX: `caretaker-bench-ab:${tag}:${process.pid}:`,
  };
  delete env.BENCH_JOBS;
  return startBenchServer(root, env, [], undefined, 3);
}

/** What one turn measured: 2xx answers per second, the server's CPU µs per answer, and the answers that were not 2xx. */
interface Turn {
  rps: number;
  cpuUs: number;
  /** non-2xx answers and transport errors (timeouts, resets), by kind: `"429": 3`, `"errors": 1`. */
  failed: Record<string, number>;
}

/**
 * One turn: only 2xx answers count towards req/s. A non-2xx answer or an error does not stop the
 * run (one refused login among thousands would end an hour's measurement): it is counted by status
 * and reported beside the table, so a build that fails requests cannot look faster unnoticed.
 */
async function turn(load: Options, pid: number | undefined, seconds: number): Promise<Turn> {
  const before = (await cpuMs(pid)) ?? 0;
  const result = await autocannon({ ...load, connections: CONNECTIONS, duration: seconds });
  const after = (await cpuMs(pid)) ?? 0;
  const failed: Record<string, number> = {};
  for (const [code, n] of Object.entries(result.statusCodeStats ?? {})) if (!code.startsWith('2') && (n.count ?? 0) > 0) failed[code] = n.count ?? 0;
  if (result.errors > 0) failed.errors = result.errors;
  if (result.timeouts > 0) failed.timeouts = result.timeouts;
  const ok = result['2xx'];
  return { rps: ok / seconds, cpuUs: ((after - before) * 1000) / Math.max(result.requests.total, 1), failed };
}

/** Adds one turn's failed answers to a side's running count. */
function addFailed(into: Record<string, number>, failed: Record<string, number>): void {
  for (const [kind, n] of Object.entries(failed)) into[kind] = (into[kind] ?? 0) + n;
}

const ORDERS = [['limit', 'A', 'B'], ['A', 'B', 'limit'], ['B', 'limit', 'A'], ['limit', 'B', 'A'], ['B', 'A', 'limit'], ['A', 'limit', 'B']] as const;

/** One set of three processes: warm-up and ROUNDS rounds of every scenario; results added to `into`. */
async function runSet(set: number, into: Map<string, Samples>): Promise<void> {
  // A process keeps its speed for its life, a few points either way from another running the same
  // code, and the one started last was the slower in more runs than not: each set starts new
  // processes, A's first in odd sets and B's first in even ones.
  const limit = await start(A, 'limit');
  const aFirst = set % 2 === 1;
  const first = aFirst ? await start(A, 'A') : await start(B, 'B', DB_B);
  const second = aFirst ? await start(B, 'B', DB_B) : await start(A, 'A');
  const servers = { limit, A: aFirst ? first : second, B: aFirst ? second : first };
  try {
    // One login for all three (a second login of the same account would revoke the first token),
    // on the limit's process, which also serves the app: the login's argon2id and its token cache
    // entry stay out of the two builds' processes, which then start their turns alike.
    const signIn = async (port: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin-1@bench.test', password: PASSWORD }),
      });
      const { token } = (await res.json()) as { token?: string };
      if (!token) throw new Error(`login failed (${res.status}): is BENCH_AB_DB a database the bench generated?`);
      return { authorization: `Bearer ${token}` };
    };
    const headers = await signIn(servers.limit.port);
    // B on a database of its own signs in there (after A's token: a second login of the account on
    // one database would revoke the first).
    const headersB = DB_B === DB ? headers : await signIn(servers.B.port);
    for (const name of scenarios) {
      const scenario = SCENARIOS[name]!;
      const samples = into.get(name)!;
      const targets = {
        limit: { load: scenario.limit(`http://127.0.0.1:${servers.limit.limitPort}`, headers), pid: servers.limit.child.pid },
        A: { load: scenario.real(`http://127.0.0.1:${servers.A.port}`, headers), pid: servers.A.child.pid },
        B: { load: scenario.real(`http://127.0.0.1:${servers.B.port}`, headersB), pid: servers.B.child.pid },
      };
      for (const side of ['limit', 'A', 'B'] as const) addFailed(samples.failed[side], (await turn(targets[side].load, targets[side].pid, WARMUP_S)).failed);
      const setShare = { A: [] as number[], B: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const got: Partial<Record<'limit' | 'A' | 'B', Turn>> = {};
        for (const side of ORDERS[round % ORDERS.length]!) {
          got[side] = await turn(targets[side].load, targets[side].pid, TURN_S);
          addFailed(samples.failed[side], got[side].failed);
        }
        const limitRun = got.limit!;
        for (const side of ['A', 'B'] as const) {
          samples.share[side].push(got[side]!.rps / limitRun.rps);
          setShare[side].push(got[side]!.rps / limitRun.rps);
        }
        for (const side of ['limit', 'A', 'B'] as const) samples.cpu[side].push(got[side]!.cpuUs);
      }
      const [a, b] = [(100 * median(setShare.A)).toFixed(1), (100 * median(setShare.B)).toFixed(1)];
      samples.sets.push(`${a}/${b}`);
      process.stdout.write(`  set ${set}, ${name}: A ${a} %, B ${b} % of the limit (medians of ${ROUNDS} rounds)\n`);
    }
  } finally {
    for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  }
}

/** Every round's figures of one scenario, over all sets. */
interface Samples {
  share: { A: number[]; B: number[] };
  cpu: { limit: number[]; A: number[]; B: number[] };
  /** Each set's medians, "A/B" in %. */
  sets: string[];
  /** Answers that were not 2xx (warm-up included), per side and kind. */
  failed: { limit: Record<string, number>; A: Record<string, number>; B: Record<string, number> };
}

process.stdout.write(`bench:ab: A ${A}, B ${B}; ${SETS} sets of processes, ${ROUNDS} rounds each of ${TURN_S} s turns, ${CONNECTIONS} connection(s); start ${machine()}\n`);
const results = new Map<string, Samples>(scenarios.map((name) => [name, { share: { A: [], B: [] }, cpu: { limit: [], A: [], B: [] }, sets: [], failed: { limit: {}, A: {}, B: {} } }]));
for (let set = 1; set <= SETS; set++) await runSet(set, results);
const rows = [...results].map(([name, r]) => {
  const ahead = r.share.A.filter((a, i) => a > r.share.B[i]!).length;
  return (
    `| ${name} | **${(100 * median(r.share.A)).toFixed(1)} %** (${median(r.cpu.A).toFixed(0)}) | ${(100 * median(r.share.B)).toFixed(1)} % (${median(r.cpu.B).toFixed(0)}) | ` +
    `${median(r.cpu.limit).toFixed(0)} | ${ahead} of ${r.share.A.length} | ${r.sets.join(', ')} |`
  );
});
const failures = [...results].flatMap(([name, r]) =>
  (['limit', 'A', 'B'] as const).filter((side) => Object.keys(r.failed[side]).length > 0)
    .map((side) => `- ${name}, ${side}: ${Object.entries(r.failed[side]).map(([kind, n]) => `${n} × ${kind}`).join(', ')} (not counted in its req/s)`));
process.stdout.write(
  `\n| scenario | A: % of limit (CPU µs/req) | B: % of limit (CPU µs/req) | limit CPU µs/req | rounds A ahead | each set, A/B % |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n` +
    `${failures.length > 0 ? `\nAnswers that were not 2xx:\n${failures.join('\n')}\n` : ''}\nend ${machine()}\n`,
);
