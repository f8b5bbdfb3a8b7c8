/**
 * Opens what the app needs from the configuration: database (migrated), Redis (optional) and the
 * rate-limit store, and closes them again. Shared by the server, the CLI and the tests.
 */
import { listenerFor } from '../db/notifications.ts';
import { directUrl } from '../db/pooler.ts';
import type { PGlite } from '@electric-sql/pglite';
import type { Redis } from 'ioredis';
import type { AppDeps } from '../app-deps.ts';
import type { Config } from '../config/config.ts';
import { preparedDatabase, unpackPreparedDatabase } from './prepared-database.ts';
import { createDatabase, type DatabaseHandle } from '../db/database.ts';
import { ReadRouting } from '../db/replica.ts';
import { withQueueAdmin } from '../events/queue.ts';
import { DATABASE_MARKER, missingDatabase, writeDatabaseMarker } from '../db/data-marker.ts';
import { StartupError } from './startup.ts';
import { migrateToLatest, migrationClass, migrationStatus } from '../db/migrate.ts';
import { RateLimitStore } from '../core/rate-limit.ts';
import { AuthEpoch } from '../core/auth-epoch.ts';
import { CsrfStore } from '../core/csrf-store.ts';
import { CallbackUseStore } from '../core/callback-uses.ts';
import { RateLimitRules } from '../core/rate-limit-rules.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { syncBuiltinRoles } from '../permissions/roles.ts';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import path from 'node:path';
import { loadSecretsKey, SecretBox } from '../lib/secret-box.ts';
import { createFileStore, S3FileStore } from '../storage/index.ts';
import { jsonLineLogger, NodemailerMailer, type MailLogger } from '../modules/messaging/mail/index.ts';

const gzipAsync = promisify(gzip);

export interface Runtime {
  deps: AppDeps;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * Opens an ioredis client that fails fast instead of queueing while disconnected. ioredis is
 * imported here, when REDIS_URL is set: the embedded database's server never loads it (about 45
 * modules and 30 ms of its start; docs/operations.md "Starting").
 * @param url a `redis://` URL
 * @returns the client, connecting
 */
export async function openRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // Each command is written as it is issued. ioredis's auto-pipelining (commands of one event-loop
    // turn gathered into a pipeline sent at setImmediate) cost a status read at one connection 70 to
    // 120 µs of CPU and a fifth of its rate, and gained nothing measurable at 50 connections
    // (bench/README.md "Redis commands written as issued").
    enableAutoPipelining: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', () => {
    // Reported through status checks and rate-limit fallback; reconnection is automatic.
  });
  return redis;
}

/**
 * PGlite: a consistent copy of the live database. Kysely's PGlite driver lends its one connection
 * to one caller at a time, so holding it waits for any transaction in progress to end and keeps
 * the next one out; PGlite's `dumpDataDir` also holds its own query lock, so the queue's direct
 * queries wait too. The tarball is what a cleanly paused server has on disk. Only the plain tar is
 * taken while the connection is held; it is compressed after it is released (gzip inside the hold
 * made it about 1.6 times as long: docs/operations.md "Backups").
 */
function snapshotOf(database: DatabaseHandle): () => Promise<Blob> {
  return async () => {
    const tar = await database.db.connection().execute(async () => (await database.pglite!.dumpDataDir('none')) as Blob);
    return new Blob([await gzipAsync(Buffer.from(await tar.arrayBuffer()))]);
  };
}

/** Waits until the Redis client is ready, or rejects after `timeoutMs`. */
export function waitForRedis(redis: Redis, timeoutMs = 3_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error('Redis did not become ready in time'));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}

/**
 * Opens the database (migrating it), Redis and the rate-limit store.
 * @param options.clock time source (tests pass a ManualClock)
 * @param options.dataDir overrides the PGlite folder ('memory://' in tests)
 * @param options.loadDataDir PGlite only: a data-folder tarball to start from (tests: a migrated snapshot)
 * @param options.pglite PGlite only: an open instance to use (tests: the worker's reused instance)
 * @param options.progress receives start-up progress lines (opening, migrating); `serve` logs them
 */
export async function openRuntime(
  config: Readonly<Config>,
  options: { clock?: Clock; dataDir?: string; loadDataDir?: Blob; pglite?: PGlite; redisPrefix?: string; filesDir?: string; mailDir?: string; mailLogger?: MailLogger; progress?: (message: string) => void } = {},
): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const pgliteDir = path.join(options.dataDir ?? config.dataDir, 'pglite');
  // An embedded database on disk (not a test's in-memory one): it has a marker beside it.
  const onDisk = !config.databaseUrl && !options.pglite && !options.loadDataDir && !(options.dataDir ?? config.dataDir).startsWith('memory://');
  // A marker without its database refuses to start rather than create an empty one (src/db/data-marker.ts).
  const missing = onDisk ? missingDatabase(options.dataDir ?? config.dataDir) : undefined;
  if (missing) throw new StartupError('CARETAKER_DATA_DIR', process.env.CARETAKER_DATA_DIR ?? './data', missing.problem, missing.fix);
  // Said only when this start creates the embedded database (no PG_VERSION in its folder yet).
  const creating = !config.databaseUrl && !options.pglite && !options.loadDataDir && !existsSync(path.join(pgliteDir, 'PG_VERSION'));
  // A first start loads the migrated copy prepared at install (src/main/prepared-database.ts) when there is one.
  const prepared = creating ? preparedDatabase() : undefined;
  // Unpacked into the data folder, then opened as an existing database; if that fails, PGlite
  // loads the tarball itself (slower, same result).
  const unpacked = prepared && !options.dataDir?.startsWith('memory://')
    ? await unpackPreparedDatabase(prepared.file, pgliteDir).then(() => true, () => false)
    : false;
  const loadDataDir = options.loadDataDir ?? (prepared && !unpacked ? prepared.blob : undefined);
  const database = createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: options.dataDir ?? config.dataDir,
    poolMax: config.databasePoolMax,
    pooler: config.databasePooler,
    readOnlyPool: true,
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(options.pglite ? { pglite: options.pglite } : {}),
  });
  const progress = options.progress ?? (() => {});
  progress(
    database.engine === 'postgres'
      ? 'opening the database (PostgreSQL)'
      : prepared
        ? `creating the embedded database in ${pgliteDir} from the migrated copy prepared at install (first start only)`
        : creating
          ? `creating the embedded database in ${pgliteDir} (first start only; it takes a while: \`npm run database:prepare\` makes later first starts fast)`
          : `opening the embedded database in ${pgliteDir}`,
  );
  const status = await migrationStatus(database.db);
  const pending = status.pending.length;
  if (pending > 0) progress(`migrating the database: ${pending} migration${pending === 1 ? '' : 's'} to apply`);
  else if (status.newer.length > 0) progress(`the database is ${status.newer.length} migration(s) ahead of this build (a newer release): serving on it unchanged`);
  // Another instance may have applied some meanwhile (it held the lock): only ours are named.
  const online = { status, lockTablesFirst: database.engine === 'postgres', onLockWait: (n: number) => progress(`the tables are in use: locking them again (try ${n + 1})`) };
  for (const name of await migrateToLatest(database.db, online)) progress(`applied ${name} (${migrationClass(name).phase})`);
  if (pending > 0) progress('database migrated');
  await syncBuiltinRoles(database.db, clock.now());
  if (onDisk && !existsSync(path.join(options.dataDir ?? config.dataDir, DATABASE_MARKER))) {
    writeDatabaseMarker(options.dataDir ?? config.dataDir, { at: clock.now().toISOString(), how: creating ? 'created' : 'opened' });
  }
  const redis = config.redisUrl ? await openRedis(config.redisUrl) : undefined;
  if (redis) await waitForRedis(redis).catch(() => undefined);
  // The limiters (and their Redis commands) exist before the first request (src/core/rate-limit.ts).
  const rl = config.rateLimit;
  const limiter = new RateLimitStore(redis, options.redisPrefix ?? config.redisPrefix, [
    { max: rl.ipMax, windowS: rl.windowS },
    { max: rl.accountMax, windowS: rl.windowS },
    { max: rl.agencyMax, windowS: rl.windowS },
    { max: rl.loginAccountFailures, windowS: rl.loginWindowS },
    { max: rl.loginIpFailures, windowS: rl.loginWindowS },
  ]);
  // Moved on by the services that change tokens, accounts, roles or permissions (changeIdentity):
  // cached token lookups go stale everywhere.
  const authEpoch = new AuthEpoch(redis, options.redisPrefix ?? config.redisPrefix);
  const files = createFileStore(config, options.filesDir ?? path.join(config.dataDir, 'files'));
  const mailer = new NodemailerMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    connections: config.queue.sendConcurrency,
    dir: options.mailDir ?? path.join(config.dataDir, 'mail'),
    logger: options.mailLogger ?? jsonLineLogger(config.logLevel),
  });
  // Reads that may lag go to the replica when one is configured and current (src/db/replica.ts).
  const reads = new ReadRouting({
    primary: database.db,
    replica: config.databaseReplicaUrl ? createDatabase({ databaseUrl: config.databaseReplicaUrl, poolMax: config.databasePoolMax, pooler: config.databasePooler }).db : undefined,
    maxLagMs: config.databaseReplicaMaxLagMs,
    redis,
    redisPrefix: options.redisPrefix ?? config.redisPrefix,
  });
  reads.start();
  const rateLimitRules = new RateLimitRules(database.db);
  const csrf = new CsrfStore(database.db, redis, options.redisPrefix ?? config.redisPrefix);
  const callbackUses = new CallbackUseStore(database.db, redis, options.redisPrefix ?? config.redisPrefix);
  const deps: AppDeps = {
    config, db: database.db, reads, engine: database.engine, clock, limiter, authEpoch, csrf, callbackUses, rateLimitRules, redis, files, mailer,
    secrets: new SecretBox(loadSecretsKey(config.secretsKey, options.dataDir ?? config.dataDir)),
    startedAt: clock.now(), pool: database.pool, readPool: database.readPool, listen: listenerFor(database, directUrl(config)),
    snapshotDatabase: database.pglite ? snapshotOf(database) : undefined,
    queueAdmin: (fn) => withQueueAdmin(config, database, fn),
  };
  return {
    deps,
    database,
    close: async () => {
      await mailer.close();
      await reads.close();
      redis?.disconnect();
      if (files instanceof S3FileStore) files.close();
      await database.close();
    },
  };
}
