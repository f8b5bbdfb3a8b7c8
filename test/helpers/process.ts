/**
 * Process-tier helpers (docs/architecture.md "Tests"): start `node bin/caretaker.js serve` as a child
 * process on a free port, wait for readiness, collect its log lines, signal and kill it; a TCP
 * proxy that can simulate an outage of PostgreSQL or Redis; and a seeded database the child opens.
 * Every child started here is remembered and killed by `stopAllProcesses()` (call it in afterAll /
 * afterEach), so a failing test leaves nothing running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { hashPassword } from '../../src/lib/passwords.ts';
import { syncBuiltinRoles } from '../../src/permissions/roles.ts';
import { COMPILE_CACHE_ENV } from './child-env.ts';
import { createTestDatabase, pgliteSnapshot } from './database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

import { freePort } from './net.ts';

export { freePort };

const children = new Set<CaretakerProcess>();

/** One `caretaker serve` child process. */
export class CaretakerProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  readonly child: ChildProcess;
  readonly port: number;

  constructor(child: ChildProcess, port: number) {
    this.child = child;
    this.port = port;
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(line);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        children.delete(this);
        resolve(this.exitInfo);
      });
    });
  }

  /** Base URL, e.g. http://127.0.0.1:41234 */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** The log text so far (for failure messages). */
  get log(): string {
    return this.lines.join('\n');
  }

  /** Parsed JSON log lines (non-JSON lines skipped). */
  json(): Array<Record<string, unknown>> {
    return this.lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /**
   * Waits until GET /readyz answers 200 (GET /api/system/health/ready on an older build without it).
   * @throws Error with the child's log when it exits first or `timeoutMs` passes
   */
  async waitReady(timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`caretaker exited before it was ready (${JSON.stringify(this.exitInfo)}):\n${this.log}`);
      // Poll only once the server says it listens, so small rate limits are not used up.
      if (this.lines.some((l) => l.includes('Caretaker is serving'))) {
        let res = await fetch(`${this.url}/readyz`).catch(() => undefined);
        // A build from before the probes moved out of /api (the rolling-upgrade test's older build)
        if (res?.status === 404) res = await fetch(`${this.url}/api/system/health/ready`).catch(() => undefined);
        await res?.arrayBuffer().catch(() => undefined);
        if (res?.status === 200) return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`caretaker not ready after ${timeoutMs} ms:\n${this.log}`);
  }

  /** Sends a signal (SIGTERM, SIGKILL, ...). */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /**
   * Waits for the exit.
   * @throws Error when it has not exited after `timeoutMs`
   */
  async waitExit(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`caretaker did not exit within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL and wait. */
  async kill(): Promise<void> {
    this.signal('SIGKILL');
    await this.waitExit(10_000).catch(() => undefined);
  }
}

/** Environment variables a child gets unless the test says otherwise. */
const BASE_ENV = {
  ...COMPILE_CACHE_ENV,
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  CARETAKER_COOKIE_SECURE: 'false',
  CARETAKER_RATE_LIMIT_IP_MAX: '100000',
  CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '100000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
};

/**
 * Starts `node bin/caretaker.js serve [args]` on a free port.
 * @param env variables on top of BASE_ENV; DATABASE_URL and REDIS_URL of the test process are NOT
 *   inherited (pass them explicitly)
 * @param root the checkout to run (default this one; the rolling-upgrade test runs an older build)
 */
export async function startCaretaker(env: Record<string, string>, args: string[] = [], root = ROOT): Promise<CaretakerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  const child = spawn(process.execPath, [path.join(root, 'bin/caretaker.js'), 'serve', ...args], {
    cwd: root,
    env: { ...inherited, ...BASE_ENV, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = new CaretakerProcess(child, port);
  children.add(proc);
  return proc;
}

/**
 * Runs `node bin/caretaker.js ...args` to its end (commands that exit: --version, help, config
 * check, doctor, and start-up failures) and collects its output.
 * @param env variables on top of BASE_ENV; DATABASE_URL and REDIS_URL are not inherited
 * @param root the checkout to run (default this one)
 * @throws Error when it has not exited after `timeoutMs` (it is killed)
 */
export async function runCaretaker(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  root = ROOT,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  const child = spawn(process.execPath, [path.join(root, 'bin/caretaker.js'), ...args], { cwd: root, env: { ...inherited, ...BASE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  let timer: NodeJS.Timeout | undefined;
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`caretaker ${args.join(' ')} did not exit within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
      }, timeoutMs);
      child.once('exit', (c) => resolve(c));
    });
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** Kills every child still running (afterAll / afterEach). */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...children].map((c) => c.kill()));
}

/** A database prepared for a child: migrated, with an agency, one branch and an admin. */
export interface ProcessWorld {
  /** Environment for the child: DATABASE_URL or CARETAKER_DATA_DIR. */
  env: Record<string, string>;
  /** PostgreSQL connection string of the fresh database, or undefined on PGlite. */
  databaseUrl: string | undefined;
  /** The PGlite data folder (also the files folder). */
  dataDir: string;
  admin: { email: string; password: string };
  /** Opens the database from the test process (PGlite: only while no child holds it). */
  open(): ReturnType<typeof createDatabase>;
  /** Drops the database / removes the folder. */
  drop(): Promise<void>;
}

export const WORLD_PASSWORD = 'process-tier password';

/**
 * Adds agency "Process Agency" with one branch "Main" and an admin account `email` (password
 * WORLD_PASSWORD) to a migrated database whose built-in roles are synchronised.
 */
export async function addProcessAgency(db: ReturnType<typeof createDatabase>['db'], email: string): Promise<void> {
  const now = new Date();
  const agency = await db
    .insertInto('agencies')
    .values({ uuid: newUuid(), name: 'Process Agency', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const branch = await db
    .insertInto('branches')
    .values({ uuid: newUuid(), agency_id: agency.id, name: 'Main', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const role = await db.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      uuid: newUuid(),
      agency_id: agency.id,
      branch_id: branch.id,
      role_id: role.id,
      name: 'Process Admin',
      email,
      password_hash: await hashPassword(WORLD_PASSWORD),
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * Creates a fresh database (PostgreSQL when `engine` is 'postgres', else PGlite in a temporary
 * folder), migrates it and adds agency "Process Agency" with one branch and an admin account.
 */
export async function createProcessWorld(engine: 'pglite' | 'postgres'): Promise<ProcessWorld> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'caretaker-proc-'));
  const pgdb = engine === 'postgres' ? await createTestDatabase() : undefined;
  if (engine === 'postgres' && !pgdb?.databaseUrl) throw new Error('createProcessWorld(postgres) needs DATABASE_URL');
  const databaseUrl = pgdb?.databaseUrl;
  const open = () => createDatabase({ databaseUrl, dataDir, poolMax: 4 });
  // PGlite starts from the suite's migrated snapshot (no initdb, no migrations); PostgreSQL is
  // already a copy of the migrated template.
  const snapshot = databaseUrl ? undefined : await pgliteSnapshot();
  const handle = createDatabase({ databaseUrl, dataDir, poolMax: 4, ...(snapshot ? { loadDataDir: snapshot } : {}) });
  const email = 'admin@process.test';
  try {
    await migrateToLatest(handle.db);
    await syncBuiltinRoles(handle.db, new Date());
    await addProcessAgency(handle.db, email);
  } finally {
    await handle.close();
  }
  return {
    env: databaseUrl ? { DATABASE_URL: databaseUrl, CARETAKER_DATA_DIR: dataDir } : { CARETAKER_DATA_DIR: dataDir },
    databaseUrl,
    dataDir,
    admin: { email, password: WORLD_PASSWORD },
    open,
    drop: async () => {
      await pgdb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy in front of a local service (PostgreSQL, Redis) that can simulate an outage:
 * `down()` destroys every open connection and resets each new one at once; `up()` forwards again.
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private isDown = false;
  private server: net.Server | undefined;
  port = 0;

  private readonly targetPort: number;
  private readonly targetHost: string;

  constructor(targetPort: number, targetHost = '127.0.0.1') {
    this.targetPort = targetPort;
    this.targetHost = targetHost;
  }

  /** Starts listening on a free port. */
  async start(): Promise<this> {
    this.server = net.createServer((client) => {
      if (this.isDown) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.sockets.add(client);
      this.sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** Simulates the outage. */
  down(): void {
    this.isDown = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Ends the outage. */
  up(): void {
    this.isDown = false;
  }

  /** Stops the proxy. */
  async close(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Logs in over HTTP; returns the bearer token and the session cookie. */
export async function httpLogin(baseUrl: string, email: string, password: string): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 200 || !body.token) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('caretaker_session='));
  return { token: body.token, cookie: setCookie?.split(';')[0] ?? '' };
}

/** GET /api/security/csrf-token with a bearer token; returns the CSRF token. */
export async function httpCsrf(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/security/csrf-token`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data?: { token: string } };
  if (res.status !== 200 || !body.data) throw new Error(`csrf failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}
