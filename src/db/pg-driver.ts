/**
 * The Kysely dialect for PostgreSQL over a `pg` pool. It is Kysely's own PostgreSQL dialect
 * (adapter, compiler, introspector) with a driver written here for one reason: a query made by
 * `prepared()` (src/db/prepared.ts) carries a statement name, and this driver hands it to pg as
 * `{ name, text, values }`, so PostgreSQL parses and plans it once per connection. Every other
 * query runs as Kysely's driver runs it. Nothing of pg is replaced or patched.
 * docs/architecture.md, "Prepared statements".
 */
import {
  AbortedTransactionError,
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { isTerminatedConnection } from './errors.ts';
import { statementNameOf } from './prepared.ts';

const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** One pooled pg client as a Kysely connection. */
class PgConnection implements DatabaseConnection {
  readonly client: pg.PoolClient;
  /**
   * Set when a rollback failed or the server ended the connection under a statement: the client is
   * destroyed on release instead of reused. pg hands the statement its error (57P01 "terminating
   * connection due to administrator command") before the socket's end reaches the client, so the
   * pool alone would take the dead client back as idle and give it to the next caller.
   */
  broken = false;

  constructor(client: pg.PoolClient) {
    this.client = client;
  }

  /**
   * Runs `send` with the connection's socket corked, so every statement it hands to pg (which
   * writes a statement as soon as it gets it, in pipeline mode) leaves in one write instead of
   * one each: src/db/pipeline.ts sends a batch this way.
   * @returns what `send` returns
   */
  together<T>(send: () => T): T {
    const stream = (this.client as unknown as { connection?: { stream?: Writable } }).connection?.stream;
    if (!stream) return send();
    stream.cork();
    try {
      return send();
    } finally {
      stream.uncork();
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const name = statementNameOf(query);
    const values = query.parameters as unknown[];
    let result: pg.QueryResult;
    try {
      result = await this.client.query(name === undefined ? { text: query.sql, values } : { name, text: query.sql, values });
    } catch (err) {
      if (isTerminatedConnection(err)) this.broken = true;
      throw err;
    }
    const { command, rowCount, rows } = result;
    if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command }] as R[] };
    return { numAffectedRows: COUNTED.has(command) ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
  }

  // eslint-disable-next-line require-yield -- no query of the project streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('pg-driver: streaming queries are not supported');
  }
}

/** Kysely's driver contract over a pg pool, transactions as Kysely's PostgreSQL driver writes them. */
class PgDriver implements Driver {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgConnection(await this.#pool.connect());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = `start transaction${settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''}${settings.accessMode ? ` ${settings.accessMode}` : ''}`;
    }
    await connection.executeQuery(CompiledQuery.raw(text));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const { rows } = await connection.executeQuery<{ command: string }>(CompiledQuery.raw('commit'));
    // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier error aborted the transaction.
    if (rows[0]?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (err) {
      (connection as PgConnection).broken = true;
      throw err;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as PgConnection;
    c.client.release(c.broken ? new Error('connection broken: rollback failed or ended by the server') : undefined);
  }

  async destroy(): Promise<void> {
    await this.#pool.end();
  }
}

/** The PostgreSQL dialect over `pool` (closing the Kysely instance ends the pool). */
export function pgDialect(pool: pg.Pool): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgDriver(pool),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
