/**
 * Behind a transaction-mode pooler (docs/operations.md "Behind a connection pooler"): the app runs
 * with CARETAKER_DATABASE_POOLER=transaction through a real PgBouncer (Debian's 1.18, which carries
 * no named prepared statement) started here with `pool_mode=transaction` and one server connection,
 * so consecutive transactions of different requests share it and any session state left behind, a
 * named statement or a LISTEN on it would break the next. The flows run through it: sign-in, create
 * a job, move it, list and read jobs, an idempotent replay, the live stream (its LISTEN on the direct
 * connection) and outbox delivery by the background worker (pg-boss through the pooler, its wake-up
 * LISTEN direct). Skipped, saying why, without PostgreSQL or without the pgbouncer binary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../helpers/net.ts';
import { STATUS } from '../../src/modules/jobs/jobs/lifecycle.ts';
import type { DomainEvent, EventHandler } from '../../src/events/index.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../../src/events/worker.ts';
import { buildTestApp, createAgency, createBranch, userClient, type TestApp } from '../helpers/app.ts';
import { skipWithout } from '../helpers/skip.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';

const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
const base = process.env.DATABASE_URL;
const skip =
  skipWithout(base?.startsWith('postgres'), 'pgbouncer.test needs PostgreSQL: set DATABASE_URL') ||
  skipWithout(BINARY, 'pgbouncer.test needs the pgbouncer binary: apt-get install pgbouncer');

/**
 * Starts PgBouncer in transaction mode in front of the PostgreSQL of `url` (every database name, one
 * server connection per database and user). Run as `nobody` when the tests run as root (PgBouncer
 * refuses root).
 */
async function startPgbouncer(url: URL): Promise<{ port: number; process: ChildProcess; dir: string; log: string[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-pgbouncer-'));
  await chmod(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(url.username || 'postgres');
  const password = decodeURIComponent(url.password);
  await writeFile(path.join(dir, 'users.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  const ini = [
    '[databases]',
    `* = host=${url.hostname} port=${url.port || '5432'}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    "unix_socket_dir = ''",
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    'default_pool_size = 1',
    'min_pool_size = 0',
    'reserve_pool_size = 0',
    'max_client_conn = 200',
    'server_reset_query =',
    'log_connections = 0',
    'log_disconnections = 0',
  ].join('\n');
  const file = path.join(dir, 'pgbouncer.ini');
  await writeFile(file, `${ini}\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child = spawn(BINARY!, [file], { stdio: ['ignore', 'pipe', 'pipe'], ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
  const log: string[] = [];
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  const bouncer = new URL(url);
  bouncer.port = String(port);
  bouncer.hostname = '127.0.0.1';
  await vi.waitUntil(async () => {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${log.join('')}`);
    const c = new pg.Client({ connectionString: bouncer.toString(), connectionTimeoutMillis: 1_000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  }, { timeout: 20_000, interval: 50 });
  return { port, process: child, dir, log };
}

describe.skipIf(skip)('the API behind PgBouncer in transaction mode (CARETAKER_DATABASE_POOLER=transaction)', () => {
  let t: TestApp;
  let bouncer: Awaited<ReturnType<typeof startPgbouncer>>;
  let worker: BackgroundWorker | undefined;
  let http: string;
  const streams: SseStream[] = [];
  const delivered: string[] = [];
  let w: Awaited<ReturnType<typeof world>>;

  async function world() {
    const agency = await createAgency(t.db, 'Pooled Lettings');
    const branch = await createBranch(t.db, agency.id, 'Pooled Central');
    return {
      agency,
      branch,
      admin: await userClient(t, { role: 'admin', agencyId: agency.id }),
      agent: await userClient(t, { role: 'agent', agencyId: agency.id, branchId: branch.id }),
    };
  }

  beforeAll(async () => {
    bouncer = await startPgbouncer(new URL(base!));
    t = await buildTestApp(
      { CARETAKER_RELAY_INTERVAL_MS: '100', CARETAKER_DATABASE_POOLER: 'transaction' },
      {
        // DATABASE_URL through the pooler, DATABASE_DIRECT_URL straight to PostgreSQL.
        databaseEnv: (direct) => {
          const pooled = new URL(direct);
          pooled.hostname = '127.0.0.1';
          pooled.port = String(bouncer.port);
          return { DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: direct };
        },
      },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    http = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    w = await world();
  }, 120_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await worker?.stop(5_000);
    await t?.close();
    bouncer?.process.kill('SIGTERM');
    if (bouncer) await rm(bouncer.dir, { recursive: true, force: true });
  });

  it('runs with the pooler settings: DATABASE_URL is the pooler, the direct URL is not', () => {
    expect(t.config.databasePooler).toBe('transaction');
    expect(new URL(t.config.databaseUrl!).port).toBe(String(bouncer.port));
    expect(t.config.databaseDirectUrl).not.toBe(t.config.databaseUrl);
  });

  it('creates, moves, lists and reads jobs, and replays an idempotent write, through the pooler', async () => {
    const created = await w.agent.client.post('/api/jobs/manage', { title: 'Leak under the sink', priority: 2 });
    expect(created.statusCode, created.body).toBe(201);
    const job = created.json().data as { uuid: string };
    // Many requests in a row share the one server connection; each sees only its own transaction.
    for (let i = 0; i < 5; i++) {
      const again = await w.agent.client.post('/api/jobs/manage', { title: `Dripping tap ${i}`, priority: 3 });
      expect(again.statusCode, again.body).toBe(201);
    }
    const key = { headers: { 'idempotency-key': `pooled-move-${Date.now()}` } };
    const body = { to_status_id: STATUS.approved, note: 'approved over the phone' };
    const moved = await w.admin.client.post(`/api/jobs/${job.uuid}/transitions`, body, key);
    expect(moved.statusCode, moved.body).toBe(200);
    const replay = await w.admin.client.post(`/api/jobs/${job.uuid}/transitions`, body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(moved.body);
    const list = await w.admin.client.get('/api/jobs/manage?limit=50');
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json().data as unknown[]).length).toBe(6);
    const read = await w.admin.client.get(`/api/jobs/${job.uuid}`);
    expect(read.statusCode).toBe(200);
    expect((read.json().data as { status_id: number }).status_id).toBe(STATUS.approved);
    // Concurrent requests: more clients than server connections, each transaction whole.
    const lists = await Promise.all(Array.from({ length: 8 }, () => w.agent.client.get('/api/jobs/manage?limit=10')));
    expect(lists.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
  });

  it('streams live events: the LISTEN is on the direct connection, not the pooler', async () => {
    const s = await openSse(`${http}/api/events/stream`, { authorization: `Bearer ${w.admin.token}` });
    streams.push(s);
    expect(s.status).toBe(200);
    await s.waitFor((m) => m.some((x) => x.json.type === 'ready'));
    const created = await w.agent.client.post('/api/jobs/manage', { title: 'Broken window', priority: 3 });
    expect(created.statusCode).toBe(201);
    const uuid = (created.json().data as { uuid: string }).uuid;
    await s.waitFor(() => s.jobEvents().some((e) => e.job_uuid === uuid), 15_000);
    const direct = new pg.Client({ connectionString: t.config.databaseDirectUrl });
    await direct.connect();
    try {
      // The listening session is PostgreSQL's, reached directly: PgBouncer's server connection never LISTENs.
      const listeners = await direct.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'");
      expect(listeners.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await direct.end();
    }
  });

  it('delivers outbox events through the queue (pg-boss through the pooler, its wake-ups direct)', async () => {
    const handler: EventHandler = {
      name: 'test.pooled',
      events: ['job.created'],
      async handle(event: DomainEvent) {
        delivered.push((event.payload as { job_uuid?: string }).job_uuid ?? event.id);
      },
    };
    worker = await startBackgroundWorker(t.deps, t.database, [handler], [], { info: () => {}, error: () => {} });
    const created = await w.agent.client.post('/api/jobs/manage', { title: 'Boiler pressure low', priority: 2 });
    expect(created.statusCode).toBe(201);
    const uuid = (created.json().data as { uuid: string }).uuid;
    await vi.waitUntil(() => delivered.includes(uuid), { timeout: 60_000, interval: 50 });
    await vi.waitUntil(async () => (await t.db.selectFrom('outbox').select('published_at').execute()).every((r) => r.published_at !== null), { timeout: 30_000, interval: 50 });
  });

  it('left PgBouncer no prepared statement and no error to report', () => {
    const text = bouncer.log.join('');
    expect(text).not.toMatch(/prepared statement .* does not exist|unsupported startup parameter/i);
  });
});
