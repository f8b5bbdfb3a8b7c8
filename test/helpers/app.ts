/**
 * buildTestApp(): the real app on a fresh database with a ManualClock, plus factories and HTTP
 * helpers (login, CSRF, authorised requests) used by every HTTP-tier test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/main/app.ts';
import type { AppDeps } from '../../src/app-deps.ts';
import { loadConfig, type Config } from '../../src/config/config.ts';
import type { Db } from '../../src/db/database.ts';
import type { Lifecycle } from '../../src/http/pipeline.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword } from '../../src/lib/passwords.ts';
import { openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { createTestDatabase } from './database.ts';
import { s3TestEnv, testStorageIsS3 } from './s3-server.ts';

/**
 * A log destination for a test: each JSON line the logger writes, parsed, in `lines` (a chunk may
 * hold several lines). Pass `stream` to pino (`buildApp(deps, { logger: { level, stream } })` or
 * `createLogger(config, REDACT, stream)`).
 */
export function logLines(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  db: Db;
  clock: ManualClock;
  config: Readonly<Config>;
  /** The opened database (engine, Kysely, PGlite instance), for the background worker. */
  database: Runtime['database'];
  close(): Promise<void>;
}

/**
 * Builds the app for a test file.
 * @param env extra environment variables (for example small rate limits)
 * @param options.databaseEnv more variables made from the fresh database's connection string
 *   (PostgreSQL only): test/db/pgbouncer.test.ts points DATABASE_URL at a pooler in front of it
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: { lifecycle?: Lifecycle; loggerInstance?: FastifyBaseLogger; databaseEnv?: (databaseUrl: string) => Record<string, string> } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    CARETAKER_COOKIE_SECURE: 'true',
    CARETAKER_RATE_LIMIT_IP_MAX: '100000',
    CARETAKER_RATE_LIMIT_ACCOUNT_MAX: '100000', CARETAKER_RATE_LIMIT_AGENCY_MAX: '10000000',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // CARETAKER_TEST_STORAGE=s3: files go to a fresh bucket on a local S3 server.
    ...(testStorageIsS3() && !env.STORAGE_DRIVER ? await s3TestEnv() : {}),
    ...env,
    ...(database.databaseUrl && options.databaseEnv ? options.databaseEnv(database.databaseUrl) : {}),
  });
  const clock = new ManualClock(new Date('2026-11-21T09:00:00Z'));
  const runtime = await openRuntime(config, {
    clock,
    dataDir: database.dataDir,
    ...(database.loadDataDir ? { loadDataDir: database.loadDataDir } : {}),
    ...(database.pglite ? { pglite: database.pglite } : {}),
    redisPrefix: `caretaker-test:${randomBytes(6).toString('hex')}:`,
    filesDir: await mkdtemp(path.join(tmpdir(), 'caretaker-files-')),
    mailDir: await mkdtemp(path.join(tmpdir(), 'caretaker-mail-')),
  });
  const app = await buildApp(runtime.deps, {
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
  });
  await app.ready();
  return {
    app,
    deps: runtime.deps,
    db: runtime.deps.db,
    clock,
    config,
    database: runtime.database,
    close: async () => {
      await app.close();
      await runtime.close();
      await database.drop();
    },
  };
}

let passwordHashCache: Promise<string> | undefined;
export const TEST_PASSWORD = 'correct horse battery staple';

/**
 * The parameters of the factory users' hash: argon2id as the service's own (src/lib/passwords.ts),
 * at the lowest cost (1 MiB, one pass) instead of 19 MiB and two. Every login verifies the stored
 * hash at the cost written in it, and the suite signs in thousands of times: 26 ms each at the
 * service's cost on an idle core, 0.3 ms at this one (docs/architecture.md, "Tests"). Hashes the
 * service writes itself (sign-up, password changes, recovery codes, the unknown e-mail's dummy)
 * keep the service's cost, and the tests of that cost, of login timing and of logins racing each
 * other store the service's hash (createUser's `serviceCostHash`).
 */
const TEST_HASH_OPTIONS = { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/**
 * The argon2id hash of TEST_PASSWORD at the test cost (TEST_HASH_OPTIONS), computed once per worker
 * process; resolves to a PHC string `$argon2id$v=19$m=1024,t=1,p=1$...`.
 */
export function testPasswordHash(): Promise<string> {
  passwordHashCache ??= argon2Hash(TEST_PASSWORD, TEST_HASH_OPTIONS);
  return passwordHashCache;
}

/** Creates an agency; returns its id and uuid. */
export async function createAgency(db: Db, name = `Agency ${randomBytes(3).toString('hex')}`) {
  const now = new Date();
  return db.insertInto('agencies').values({ uuid: newUuid(), name, created_at: now, updated_at: now }).returning(['id', 'uuid', 'name']).executeTakeFirstOrThrow();
}

/** Creates a branch of an agency. */
export async function createBranch(db: Db, agencyId: number, name = `Branch ${randomBytes(3).toString('hex')}`, sharing = false) {
  const now = new Date();
  return db
    .insertInto('branches')
    .values({ uuid: newUuid(), agency_id: agencyId, name, sharing_enabled: sharing, created_at: now, updated_at: now })
    .returning(['id', 'uuid', 'name', 'agency_id'])
    .executeTakeFirstOrThrow();
}

export interface TestUserInput {
  role: 'sysops' | 'admin' | 'agent' | 'contractor' | 'tenant' | 'api' | string;
  agencyId?: number | null;
  branchId?: number | null;
  contractorId?: number | null;
  tenantId?: number | null;
  email?: string;
  name?: string;
  status?: 'active' | 'disabled';
  /**
   * Store TEST_PASSWORD hashed at the service's own cost (`hashPassword`) instead of the test cost
   * (testPasswordHash): for tests of that cost, of login timing, or of logins racing each other
   * while the hash is checked.
   */
  serviceCostHash?: boolean;
}

/** Creates a user with TEST_PASSWORD (hashed at the test cost unless `serviceCostHash`); returns the row with its e-mail. */
export async function createUser(db: Db, input: TestUserInput) {
  const role = await db.selectFrom('roles').select('id').where('code', '=', input.role).executeTakeFirstOrThrow();
  const now = new Date();
  const email = (input.email ?? `${input.role}-${randomBytes(4).toString('hex')}@example.test`).toLowerCase();
  return db
    .insertInto('users')
    .values({
      uuid: newUuid(),
      agency_id: input.agencyId ?? null,
      branch_id: input.branchId ?? null,
      role_id: role.id,
      contractor_id: input.contractorId ?? null,
      tenant_id: input.tenantId ?? null,
      name: input.name ?? `Test ${input.role}`,
      email,
      password_hash: input.serviceCostHash ? await hashPassword(TEST_PASSWORD) : await testPasswordHash(),
      status: input.status ?? 'active',
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'uuid', 'email', 'name', 'agency_id', 'branch_id'])
    .executeTakeFirstOrThrow();
}

/** POST /api/auth/login; returns the bearer token (throws unless 200). */
export async function login(app: FastifyInstance, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

/** GET /api/security/csrf-token with the bearer token; returns the CSRF token. */
export async function csrf(app: FastifyInstance, token: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/security/csrf-token', headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`csrf failed: ${res.statusCode} ${res.body}`);
  return res.json().data.token as string;
}

/** An HTTP client bound to one bearer token; writes fetch a CSRF token first unless told not to. */
export class Client {
  readonly app: FastifyInstance;
  readonly token: string;

  constructor(app: FastifyInstance, token: string) {
    this.app = app;
    this.token = token;
  }

  /** GET with the bearer token. */
  get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${this.token}`, ...headers } });
  }

  /** POST/PUT/DELETE with the bearer token and a fresh CSRF token in X-CSRF-Token. */
  async write(
    method: 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    payload?: InjectOptions['payload'],
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, ...options.headers };
    if (options.csrf !== false) headers['x-csrf-token'] = await csrf(this.app, this.token);
    return this.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  }

  post(url: string, payload?: InjectOptions['payload'], options?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.write('POST', url, payload, options);
  }

  put(url: string, payload?: InjectOptions['payload'], options?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.write('PUT', url, payload, options);
  }

  delete(url: string, payload?: InjectOptions['payload'], options?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.write('DELETE', url, payload, options);
  }
}

/** Creates a user and logs in; returns the user row and a Client. */
export async function userClient(t: TestApp, input: TestUserInput) {
  const user = await createUser(t.db, input);
  const token = await login(t.app, user.email);
  return { user, token, client: new Client(t.app, token) };
}

/**
 * A small world most tests need: agency A with branches A1, A2 (A2 shares), agency B with B1, and
 * an admin, agent (A1) and SysOps client.
 */
export async function standardWorld(t: TestApp) {
  const agencyA = await createAgency(t.db, 'Agency A');
  const agencyB = await createAgency(t.db, 'Agency B');
  const a1 = await createBranch(t.db, agencyA.id, 'A1');
  const a2 = await createBranch(t.db, agencyA.id, 'A2', true);
  const b1 = await createBranch(t.db, agencyB.id, 'B1');
  const sysops = await userClient(t, { role: 'sysops' });
  const adminA = await userClient(t, { role: 'admin', agencyId: agencyA.id });
  const agentA1 = await userClient(t, { role: 'agent', agencyId: agencyA.id, branchId: a1.id });
  const adminB = await userClient(t, { role: 'admin', agencyId: agencyB.id });
  return { agencyA, agencyB, a1, a2, b1, sysops, adminA, agentA1, adminB };
}
