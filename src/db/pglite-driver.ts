/**
 * The Kysely dialect for the embedded database: kysely-pglite-dialect's, with its driver and
 * connections inside two small classes written here (they hold the library's and pass every call
 * on; nothing of the library is replaced) for three reasons:
 *
 * - A turn of the event loop before each connection is handed out. PGlite runs a statement
 *   synchronously on this thread and settles its promise in a microtask, so a chain of statements
 *   each issued from the last one's answer (the queue's start: some sixty statements) runs from
 *   microtask to microtask and the event loop never polls in between: no request is accepted or
 *   answered, not even GET /livez, until the chain ends (seconds on a busy machine). Waiting for
 *   `setImmediate` first lets the pending I/O run between two statements; a statement inside a
 *   transaction keeps the connection and runs at once.
 * - The batches of src/db/pipeline.ts with PostgreSQL's contract (src/db/pg-driver.ts): the
 *   statements run in order (PGlite has no round trip to save), and a batch ending in COMMIT ends
 *   the transaction, after which the driver's own commit or rollback sends nothing and any other
 *   statement throws.
 * - A database span per statement while tracing is on (`traceStatement`, src/db/query-tracing.ts).
 */
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { PGlite } from '@electric-sql/pglite';
import { traceStatement } from './query-tracing.ts';
import { noteRefusedWrite, readOnlyScope } from './admission-gate.ts';

/** One PGlite connection (the library's) with batches. */
export class PgliteConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  /** True once a batch carried the transaction's COMMIT, until the driver's own commit or rollback. */
  endedByBatch = false;

  constructor(inner: DatabaseConnection) {
    this.#inner = inner;
  }

  /** The library's connection. */
  get inner(): DatabaseConnection {
    return this.#inner;
  }

  /** True between BEGIN and COMMIT or ROLLBACK (set by PgliteDriver). */
  inTransaction = false;

  /**
   * Runs one statement; inside an overlapped read (`readOnlyScope`, src/db/admission-gate.ts) a
   * statement outside a transaction runs in a READ ONLY transaction of its own, as on PostgreSQL.
   */
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.endedByBatch) throw new Error('pglite-driver: this transaction was committed by its last batch (pipelinedCommit, src/db/pipeline.ts); nothing may run in it after');
    const run = readOnlyScope.getStore();
    if (!run || this.inTransaction) return this.#run<R>(query);
    await this.#inner.executeQuery(CompiledQuery.raw('start transaction read only'));
    try {
      return await this.#run<R>(query);
    } finally {
      // After a refused statement PostgreSQL answers this COMMIT by rolling back.
      await this.#inner.executeQuery(CompiledQuery.raw('commit'));
    }
  }

  async #run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      // A database span per statement while tracing is on (src/db/query-tracing.ts).
      return await traceStatement(query.sql, 'pglite', () => this.#inner.executeQuery<R>(query));
    } catch (err) {
      noteRefusedWrite(readOnlyScope.getStore(), err);
      throw err;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>(query, chunkSize);
  }

  /**
   * Runs `batch` in order, then COMMIT with `commit` (the transaction has then ended whatever the
   * answers).
   * @returns each statement's result, in order
   * @throws the first failing statement's error (after the COMMIT, which then rolls back)
   */
  async executeBatch(batch: readonly CompiledQuery[], options: { commit: boolean }): Promise<QueryResult<unknown>[]> {
    const results: QueryResult<unknown>[] = [];
    let failure: { error: unknown } | undefined;
    for (const query of batch) {
      try {
        results.push(await this.executeQuery<unknown>(query));
      } catch (error) {
        failure = { error };
        break;
      }
    }
    if (options.commit) {
      this.endedByBatch = true;
      this.inTransaction = false;
      // After a failed statement PostgreSQL answers this COMMIT by rolling the transaction back.
      const end = failure ? 'rollback' : 'commit';
      await traceStatement(end, 'pglite', () => this.#inner.executeQuery(CompiledQuery.raw(end)));
    }
    if (failure) throw failure.error;
    return results;
  }
}

/** kysely-pglite-dialect's driver, with PgliteConnection and the turn of the event loop (see the file comment). */
class PgliteDriver implements Driver {
  readonly #driver: Driver;
  readonly #connections = new WeakMap<DatabaseConnection, PgliteConnection>();

  constructor(driver: Driver) {
    this.#driver = driver;
  }

  init(): Promise<void> {
    return this.#driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const inner = await this.#driver.acquireConnection();
    let connection = this.#connections.get(inner);
    if (!connection) this.#connections.set(inner, (connection = new PgliteConnection(inner)));
    return connection;
  }

  /** BEGIN; READ ONLY inside an overlapped read (`readOnlyScope`, src/db/admission-gate.ts). */
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as PgliteConnection;
    // kysely-pglite-dialect's BEGIN knows no access mode: the read-only one is sent here.
    if (readOnlyScope.getStore()) {
      await c.inner.executeQuery(CompiledQuery.raw(`start transaction${settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''} read only`));
    } else {
      await this.#driver.beginTransaction(c.inner, settings);
    }
    c.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PgliteConnection;
    c.inTransaction = false;
    if (c.endedByBatch) {
      c.endedByBatch = false;
      return;
    }
    await this.#driver.commitTransaction(c.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PgliteConnection;
    c.inTransaction = false;
    if (c.endedByBatch) {
      c.endedByBatch = false;
      return;
    }
    await this.#driver.rollbackTransaction(c.inner);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#driver.releaseConnection((connection as PgliteConnection).inner);
  }

  destroy(): Promise<void> {
    return this.#driver.destroy();
  }
}

class Dialected extends PGliteDialect {
  override createDriver(): Driver {
    return new PgliteDriver(super.createDriver());
  }
}

/** The embedded database's dialect over `pglite` (closing the Kysely instance closes PGlite). */
export function pgliteDialect(pglite: PGlite): Dialect {
  return new Dialected(pglite);
}
