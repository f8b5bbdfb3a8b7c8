/**
 * Opens the database: PGlite (PostgreSQL compiled to WASM, in-process) in the data folder when
 * DATABASE_URL is unset, or a `pg` pool against PostgreSQL when it is set (ARCHITECTURE.md).
 * Both speak the same SQL dialect; every query in the project must run on both.
 */
import { claimKeysInTransactions } from './idempotency-claim.ts';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { prepareMarkedQueries } from './prepared.ts';
import type { Database } from './schema.ts';
import { watchIdentityWrites, type IdentityWrites } from './identity-writes.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /** 'pglite' or 'postgres'. */
  engine: 'pglite' | 'postgres';
  /** The pg pool (PostgreSQL only), exposed for metrics. */
  pool?: pg.Pool;
  /**
   * PostgreSQL only: a second pool whose sessions keep the written join order and generic plans
   * (`join_collapse_limit=1`, `plan_cache_mode=force_generic_plan`) and start no parallel workers
   * (`max_parallel_workers_per_gather=0`: a generic plan cannot see the page size, planned for
   * thousands of rows, and launching workers cost 40 ms of a 3 ms page for SysOps at 100,000 jobs),
   * for hot reads of the ten-table job join run as named prepared statements (the jobs list;
   * bench/README.md): one round trip, no transaction, planned once per connection. Read-only use.
   */
  plannedPool?: pg.Pool;
  /** The PGlite instance (embedded only), for the queue's adapter (src/events/queue.ts). */
  pglite?: PGlite;
  /** Committed writes to identity tables are reported here (src/db/identity-writes.ts). */
  identityWrites: IdentityWrites;
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
}

// int8 (count(*), bigserial) arrives from pg as a string; every id here is int4 and every count is
// cast to int in SQL, so no parser override is needed. Dates arrive as Date from both drivers.

/** Connections of the planned-reads pool for a main pool of `poolMax`: half of it, at least 2. */
export function plannedPoolMax(poolMax: number): number {
  return Math.max(2, Math.ceil(poolMax / 2));
}

/**
 * Creates the Kysely instance for the configured engine.
 * @returns a handle with the Kysely instance and a close function
 */
export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // A client losing its connection must not crash the process; the next query reconnects. The
    // pool listens on idle clients only; a checked-out client between two queries (inside a
    // transaction) emits 'error' too, and an unheard 'error' is fatal (SECURITY.md promise 19).
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      // Texts marked by asPrepared run as named prepared statements (src/db/prepared.ts).
      prepareMarkedQueries(client);
    });
    const plannedPool = new pg.Pool({
      connectionString: options.databaseUrl,
      // Half the main pool (at least 2): docs/operations.md, "Sizing the connection pool".
      max: plannedPoolMax(options.poolMax ?? 10),
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      options: '-c join_collapse_limit=1 -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0',
    });
    plannedPool.on('error', () => {});
    plannedPool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const identityWrites: IdentityWrites = { listener: null };
    const db = new Kysely<Database>({ dialect: watchIdentityWrites(claimKeysInTransactions(new PostgresDialect({ pool })), identityWrites) });
    return {
      db,
      engine: 'postgres',
      pool,
      plannedPool,
      identityWrites,
      close: async () => {
        await db.destroy();
        await plannedPool.end();
      },
    };
  }
  const pglite = options.pglite ?? openPglite(options.dataDir ?? './data', options.loadDataDir);
  const identityWrites: IdentityWrites = { listener: null };
  const dialect: Dialect = watchIdentityWrites(claimKeysInTransactions(new PGliteDialect(pglite)), identityWrites);
  const db = new Kysely<Database>({ dialect });
  return { db, engine: 'pglite', pglite, identityWrites, close: () => db.destroy() };
}

/**
 * Opens PGlite, with the pg_trgm extension, in `<dir>/pglite` (created if missing), or in memory
 * for a `memory://` dir. Resolves nothing itself: await `waitReady` or the first query.
 * @param loadDataDir a data-folder tarball to start from instead of an empty cluster
 */
export function openPglite(dir: string, loadDataDir: Blob | undefined): PGlite {
  let dataDir = dir;
  if (!dir.startsWith('memory://')) {
    dataDir = path.join(dir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  // pg_trgm ships as a separate contrib bundle in PGlite; the search indexes need it (docs/insight.md).
  return new PGlite(dataDir, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** Runs `select 1`; resolves true when the database answers within `timeoutMs`. */
export async function pingDatabase(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    await Promise.race([db.selectNoFrom((eb) => eb.val(1).as('one')).execute(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
