/**
 * Running behind a transaction-mode connection pooler (docs/operations.md "Behind a connection
 * pooler"): PgBouncer in `pool_mode=transaction`, RDS Proxy, Supabase's and Neon's poolers hand each
 * transaction (or each statement outside one) to whichever server connection is free, so nothing
 * may rely on a session outliving its transaction. Every rule the project follows there is here,
 * by name, and the code that opens connections asks these functions:
 * - `namedStatements`: no named prepared statement (src/db/prepared.ts) on pooled connections; a
 *   statement parsed on one server connection is unknown on the next (PgBouncer before 1.21);
 * - `startupOptions` / `transactionSettings`: no session settings; the planner settings
 *   (PLANNER_SETTINGS, src/db/database.ts) go with each transaction as `SET LOCAL`
 *   (`set_config(name, value, true)`) instead of the connection's startup `options`, which
 *   PgBouncer refuses;
 * - `directUrl`: LISTEN (src/db/notifications.ts, the queue's wake-ups) on a connection of its own
 *   to DATABASE_DIRECT_URL, never through the pooler; so are the scratch databases and dumps of
 *   `caretaker verify-backup --dump`;
 * - `pooledQueueDatabase`: pg-boss the same way (unnamed statements through the pooler, its
 *   wake-up LISTEN direct);
 * - locks: advisory locks are only ever transaction-scoped (`pg_advisory_xact_lock`), on every
 *   engine and mode, so there is nothing to switch (src/db/migrate.ts, the SMS consent lock).
 */
import pg from 'pg';
import type { Db as BossDb } from 'pg-boss';
import { listenPostgres } from './notifications.ts';

/** CARETAKER_DATABASE_POOLER: `none` (a pool of our own to PostgreSQL) or `transaction`. */
export type PoolerMode = 'none' | 'transaction';

/** Whether queries may run as named prepared statements (not behind a transaction pooler). */
export function namedStatements(mode: PoolerMode): boolean {
  return mode === 'none';
}

/**
 * The libpq startup `options` of a pooled connection: the settings as session settings
 * (`-c name=value ...`), or undefined behind a transaction pooler.
 */
export function startupOptions(mode: PoolerMode, settings: Readonly<Record<string, string>>): string | undefined {
  if (mode !== 'none') return undefined;
  return Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');
}

/**
 * The statement sent with each transaction's BEGIN (in the same round trip) behind a transaction
 * pooler: the settings for that transaction only; undefined when they are session settings.
 * Only names and values of our own constants are written into the text.
 */
export function transactionSettings(mode: PoolerMode, settings: Readonly<Record<string, string>>): string | undefined {
  if (mode === 'none') return undefined;
  const sets = Object.entries(settings).map(([k, v]) => `set_config('${k}', '${v}', true)`);
  return sets.length ? `select ${sets.join(', ')}` : undefined;
}

/**
 * Where a session of its own connects (LISTEN, a backup's scratch database): DATABASE_DIRECT_URL,
 * which defaults to DATABASE_URL. Behind a transaction pooler a LISTEN through it would stay on one
 * server connection that the pooler then lends to others, and the notifications would be lost.
 */
export function directUrl(config: { databaseUrl: string | undefined; databaseDirectUrl: string | undefined }): string | undefined {
  return config.databaseDirectUrl ?? config.databaseUrl;
}

/**
 * pg-boss's database behind a transaction-mode pooler (src/events/queue.ts): its statements through the
 * pooler on a small pool of our own (pg-boss sends them unnamed, and takes only transaction-scoped
 * advisory locks), its LISTEN on a connection of its own to DATABASE_DIRECT_URL. The pool ends when
 * the instance stops (`end`).
 * @param max connections of the pool
 */
export function pooledQueueDatabase(pooledUrl: string, listenUrl: string, max: number): BossDb & { end(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: pooledUrl, max, application_name: 'pgboss', connectionTimeoutMillis: 10_000 });
  pool.on('error', () => undefined);
  return {
    executeSql: (text, values) => pool.query(text, values),
    listen: (channel, onNotification, onReconnect) => listenPostgres(listenUrl, channel, onNotification, onReconnect),
    end: () => pool.end(),
  };
}
