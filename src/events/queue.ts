/**
 * The durable queue (docs/events.md): pg-boss 12 on the application's own database. On PostgreSQL
 * it has its own small pool; on PGlite it goes through an adapter that shares the single embedded
 * connection with Kysely, serialised by Kysely's connection queue, so a pg-boss statement never
 * lands inside an open application transaction. Job tables live in the `pgboss` schema.
 */
import type { PGlite } from '@electric-sql/pglite';
import type * as PgBossModule from 'pg-boss';
import type { PgBoss, Db as BossDb } from 'pg-boss';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import { directUrl, pooledQueueDatabase } from '../db/pooler.ts';

/**
 * pg-boss's module, imported at its first use (the worker's start, which `caretaker serve` holds
 * until its first answer; an operator's action on the queue; the outbox relay): with its
 * OpenTelemetry API and cron parser it is about 160 modules and 50 ms that a server's start does
 * not need before it answers (docs/operations.md "Starting"). Later calls get the loaded module.
 * @returns pg-boss's exports (`PgBoss`, `fromPglite`, `fromKysely`, ...)
 */
export function loadPgBoss(): Promise<typeof PgBossModule> {
  return import('pg-boss');
}

/** Schema of pg-boss's tables. */
export const BOSS_SCHEMA = 'pgboss';

/** Queue of an event handler: one per handler, so retries and dead letters are per handler. */
export function handlerQueue(handlerName: string): string {
  return `handler.${handlerName}`;
}

/** Queue of a periodic task (its pg-boss schedule sends one job per tick to it). */
export function taskQueue(taskName: string): string {
  return `task.${taskName}`;
}

/** Where jobs go after their last failed try (kept for inspection and `redrive`). */
export const DEAD_LETTER_QUEUE = 'dead-letter';

/**
 * pg-boss's database adapter for PGlite, serialised with Kysely: every statement waits for the one
 * embedded connection as a Kysely query would (`db.connection()`), then runs through pg-boss's own
 * PGlite adapter (multi-statement scripts through `exec`, rollback of aborted blocks).
 */
export async function serialisedPgliteAdapter(db: Db, pglite: PGlite): Promise<BossDb> {
  const inner = (await loadPgBoss()).fromPglite(pglite);
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => db.connection().execute(() => fn());
  const adapter: BossDb = {
    executeSql: (text, values) => exclusive(() => inner.executeSql(text, values)),
  };
  if (inner.listen) {
    const listen = inner.listen.bind(inner);
    adapter.listen = async (channel, onNotification, onReconnect) => {
      const handle = await exclusive(() => listen(channel, onNotification, onReconnect));
      return { close: () => exclusive(() => handle.close()) };
    };
  }
  if (inner.setSessionStatements) {
    const set = inner.setSessionStatements.bind(inner);
    adapter.setSessionStatements = (statements) => exclusive(() => set(statements));
  }
  return adapter;
}

/** What openBoss needs from the opened database. */
export interface BossDatabase {
  db: Db;
  engine: 'pglite' | 'postgres';
  pglite?: PGlite | undefined;
}

/**
 * Creates (does not start) the pg-boss instance for the configured database.
 * @param options.schedule run the cron monitor (only the worker needs it)
 * @param options.admin an instance for operator actions only: no supervision, no schema install or migration
 */
export async function createBoss(
  config: Readonly<Config>,
  database: BossDatabase,
  options: { schedule?: boolean; cronWorkerIntervalSeconds?: number; admin?: boolean } = {},
): Promise<PgBoss> {
  const { PgBoss } = await loadPgBoss();
  const common = {
    schema: BOSS_SCHEMA,
    schedule: options.schedule ?? false,
    ...(options.admin ? { supervise: false, migrate: false, createSchema: false } : {}),
    ...(options.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds } : {}),
    superviseIntervalSeconds: config.queue.superviseS,
    monitorIntervalSeconds: Math.max(1, Math.min(60, config.queue.superviseS)),
    registerInstance: false,
  };
  if (database.engine === 'postgres') {
    if (!config.databaseUrl) throw new Error('PostgreSQL engine without DATABASE_URL');
    const max = options.admin ? 1 : 4;
    if (config.databasePooler === 'transaction') {
      const db = pooledQueueDatabase(config.databaseUrl, directUrl(config) ?? config.databaseUrl, max);
      const boss = new PgBoss({ ...common, db, useListenNotify: !options.admin });
      boss.on('stopped', () => void db.end().catch(() => undefined));
      return boss;
    }
    return new PgBoss({ ...common, connectionString: config.databaseUrl, max, useListenNotify: !options.admin });
  }
  if (!database.pglite) throw new Error('PGlite engine without its instance');
  return new PgBoss({ ...common, backend: 'pglite', db: await serialisedPgliteAdapter(database.db, database.pglite) });
}

/**
 * Runs `fn` with a pg-boss instance that takes no work (no schedules, no supervision, no schema
 * changes), started for the call and stopped after it: operator actions on the queue such as moving
 * dead letters back to their queues (`redrive`). The caller checks that pg-boss's schema exists.
 */
export async function withQueueAdmin<T>(config: Readonly<Config>, database: BossDatabase, fn: (boss: PgBoss) => Promise<T>): Promise<T> {
  const boss = await createBoss(config, database, { admin: true });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    return await fn(boss);
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}
