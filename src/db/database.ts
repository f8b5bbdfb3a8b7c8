/**
 * Opens the database: PGlite (PostgreSQL compiled to WASM, in-process) in the data folder when
 * DATABASE_URL is unset, or a `pg` pool against PostgreSQL when it is set (docs/architecture.md "Stack").
 * Both speak the same SQL dialect; every query in the project must run on both. Both run with the
 * same planner settings (PLANNER_SETTINGS).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, sql, type Dialect } from 'kysely';
import pg from 'pg';
import { pgDialect } from './pg-driver.ts';
import { pgliteDialect } from './pglite-driver.ts';
import { answersWithin } from '../lib/concurrency.ts';
import type { Database } from './schema.ts';
import { PreparedQuery, type Params } from './prepared.ts';
import { namedStatements, startupOptions, transactionSettings, type PoolerMode } from './pooler.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /** 'pglite' or 'postgres'. */
  engine: 'pglite' | 'postgres';
  /** The pg pool (PostgreSQL only), exposed for metrics. */
  pool?: pg.Pool;
  /**
   * The pool of read-only sessions the overlapped reads run on (PostgreSQL without a pooler, when
   * `readOnlyPool` was asked for), exposed for metrics.
   */
  readPool?: pg.Pool;
  /** The PGlite instance (embedded only), for the queue's adapter (src/events/queue.ts). */
  pglite?: PGlite;
  /** Closes every connection. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; undefined selects PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite folder; 'memory://' for an in-memory database. */
  dataDir?: string;
  poolMax?: number;
  /**
   * PostgreSQL only: `transaction` when databaseUrl is a transaction-mode pooler (src/db/pooler.ts):
   * no named statements, the planner settings per transaction instead of per session. Default none.
   */
  pooler?: PoolerMode;
  /**
   * PGlite only: a data-folder tarball (from `PGlite.dumpDataDir`) to start from instead of an empty
   * cluster; skips initdb. Tests use it to clone one migrated database per file.
   */
  loadDataDir?: Blob;
  /**
   * PGlite only: an open instance to use instead of opening one (`dataDir` and `loadDataDir` are then
   * ignored); closing the handle calls its `close()`. The tests lend each file their worker's
   * instance, reset between files (test/helpers/pglite-reuse.ts).
   */
  pglite?: PGlite;
  /**
   * PostgreSQL without a transaction pooler: open a second pool, of at most `poolMax` sessions
   * started with `default_transaction_read_only=on`, for the overlapped reads (src/db/admission-gate.ts).
   * Their statements then run as they are, PostgreSQL refusing any write, instead of each inside
   * `start transaction read only` ... `commit` (three commands for one). Sessions open on first use
   * and close after 30 s idle. The service's own database asks for it (src/main/runtime.ts); tools
   * and replicas do not. Default false.
   */
  readOnlyPool?: boolean;
}

// int8 (count(*), bigserial) arrives from pg as a string; every id here is int4 and every count is
// cast to int in SQL, so no parser override is needed. Dates arrive as Date from both drivers.

/**
 * The planner settings of every session, on both engines (docs/architecture.md, "Prepared
 * statements"):
 * - `join_collapse_limit=1`: joins run in the order they are written. The job detail joins ten
 *   tables; searching their orders cost more than running the query, and the written order (jobs
 *   first, then the tables it points at) is the one the planner picks anyway. Every query is
 *   therefore written from its driving table outwards.
 * - `plan_cache_mode=force_generic_plan`: a named prepared statement (src/db/prepared.ts) is
 *   planned once per connection, not again for each value. PostgreSQL applies the setting to
 *   every statement sent with parameters, unnamed ones too, so no query's plan sees its values;
 *   a query whose best plan depends on them (how common a searched word is) runs inside
 *   `withCustomPlans` (src/db/custom-plans.ts).
 * - `max_parallel_workers_per_gather=0`: a generic plan cannot see the page size; launching
 *   parallel workers for a 50-row page cost more than the page.
 */
export const PLANNER_SETTINGS = { join_collapse_limit: '1', plan_cache_mode: 'force_generic_plan', max_parallel_workers_per_gather: '0' } as const;

/**
 * Creates the Kysely instance for the configured engine.
 * @returns a handle with the Kysely instance and a close function
 */
export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const mode = options.pooler ?? 'none';
    const options_ = startupOptions(mode, PLANNER_SETTINGS);
    const pool = openPool(options.databaseUrl, options.poolMax ?? 10, options_);
    // Read-only sessions need a session setting, which a transaction pooler does not carry.
    const readPool = options.readOnlyPool && options_ ? openPool(options.databaseUrl, options.poolMax ?? 10, `${options_} -c default_transaction_read_only=on`) : undefined;
    const db = new Kysely<Database>({ dialect: pgDialect(pool, { named: namedStatements(mode), begin: transactionSettings(mode, PLANNER_SETTINGS) }, readPool) });
    return {
      db,
      engine: 'postgres',
      pool,
      ...(readPool ? { readPool } : {}),
      close: () => db.destroy(),
    };
  }
  const pglite = options.pglite ?? openPglite(options.dataDir ?? './data', options.loadDataDir);
  // PGlite runs one session: the settings hold for every later query (PGlite runs them in order).
  void pglite.exec(Object.entries(PLANNER_SETTINGS).map(([k, v]) => `set ${k} = '${v}';`).join(' ')).catch(() => undefined);
  const dialect: Dialect = pgliteDialect(pglite);
  const db = new Kysely<Database>({ dialect });
  return { db, engine: 'pglite', pglite, close: () => db.destroy() };
}

/**
 * A pg pool of at most `max` connections to `url`, each started with the libpq `options` given
 * (session settings, `-c name=value ...`; none behind a transaction pooler, src/db/pooler.ts).
 */
function openPool(url: string, max: number, startup: string | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Queries given to a client together travel together (src/db/pipeline.ts); the project's
    // queries otherwise run one at a time per connection, as Kysely awaits each.
    pipeline: true,
    ...(startup ? { options: startup } : {}),
  });
  // A client losing its connection must not crash the process; the next query reconnects. The
  // pool listens on idle clients only; a checked-out client between two queries (inside a
  // transaction) emits 'error' too, and an unheard 'error' is fatal (docs/security.md promise 19).
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/**
 * PGlite's server settings, sized for one agency's server (docs/operations.md "Memory on the
 * embedded database"): `shared_buffers` 16 MB instead of PostgreSQL's 128 MB. PGlite's shared
 * memory lives in the process's WebAssembly heap and is all touched at start, so every megabyte
 * of it is resident before the first query; pages not in the buffers are read from the data
 * folder through the operating system's file cache. 16 MB instead of 32 MB held 19 MiB less with
 * no measured change in the bench's embedded reads (bench/README.md).
 */
export const PGLITE_SETTINGS = { shared_buffers: '16MB' } as const;

/**
 * Opens PGlite, with the pg_trgm extension, in `<dir>/pglite` (created if missing), or in memory
 * for a `memory://` dir. Resolves nothing itself: await `waitReady` or the first query.
 * @param loadDataDir a data-folder tarball to start from instead of an empty cluster
 * @param settings server settings beside PGLITE_SETTINGS (`name: value`; the same name replaces its value)
 */
export function openPglite(dir: string, loadDataDir: Blob | undefined, settings: Readonly<Record<string, string>> = {}): PGlite {
  let dataDir = dir;
  if (!dir.startsWith('memory://')) {
    dataDir = path.join(dir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  // pg_trgm ships as a separate contrib bundle in PGlite; the search indexes need it (docs/insight.md).
  const startParams = [...PGlite.defaultStartParams, ...Object.entries({ ...PGLITE_SETTINGS, ...settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  return new PGlite(dataDir, { extensions: { pg_trgm }, startParams, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** The status read's `select 1`, once per request of GET /api/system/status: a named prepared statement. */
const PING = new PreparedQuery('ping', (db, _shape: 'one', _p: Params<object>) => db.selectNoFrom(sql<number>`1`.as('one')));

/** Runs `select 1`; resolves true when the database answers within `timeoutMs`. */
export async function pingDatabase(db: Db, timeoutMs = 2_000): Promise<boolean> {
  return answersWithin(PING.run(db, 'one', {}), timeoutMs);
}

/**
 * Opens one connection to PostgreSQL, runs `select 1` and closes it (the start-up check).
 * @throws the driver's error (its `code` names the reason: 28P01, 28000, 3D000, ECONNREFUSED ...)
 */
export async function probePostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
