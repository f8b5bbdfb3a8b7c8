/**
 * The Kysely dialect for PostgreSQL over a `pg` pool. It is Kysely's own PostgreSQL dialect
 * (adapter, compiler, introspector) with a driver written here for one reason: a query made by
 * `prepared()` (src/db/prepared.ts) carries a statement name, and this driver hands it to pg as
 * `{ name, text, values }`, so PostgreSQL parses and plans it once per connection (not behind a
 * transaction pooler: `PgSessionRules`, src/db/pooler.ts). Every other
 * query runs as Kysely's driver runs it. Each statement runs inside a database span while tracing is
 * on (`traceStatement`, src/db/query-tracing.ts). The connection also sends a batch of statements in one round
 * trip (`executeBatch`, for src/db/pipeline.ts). Nothing of pg is replaced or patched.
 * docs/architecture.md, "Prepared statements".
 */
import {
  AbortedTransactionError,
  type CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { isTerminatedConnection } from './errors.ts';
import { statementNameOf } from './prepared.ts';
import { traceStatement } from './query-tracing.ts';
import { noteRefusedWrite, readOnlyScope } from './admission-gate.ts';

const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** How the connections of a pool behave (src/db/pooler.ts decides them from the pooler mode). */
export interface PgSessionRules {
  /** Queries made by `prepared()` run as named statements (false behind a transaction pooler). */
  named: boolean;
  /** A statement sent with every BEGIN in the same round trip (the transaction's settings), or undefined. */
  begin: string | undefined;
}

/** One pooled pg client as a Kysely connection (src/db/pipeline.ts sends its batches through `executeBatch`). */
export class PgConnection implements DatabaseConnection {
  readonly client: pg.PoolClient;
  readonly #rules: PgSessionRules;
  /**
   * Set when a rollback failed or the server ended the connection under a statement: the client is
   * destroyed on release instead of reused. pg hands the statement its error (57P01 "terminating
   * connection due to administrator command") before the socket's end reaches the client, so the
   * pool alone would take the dead client back as idle and give it to the next caller.
   */
  broken = false;

  /**
   * True for a session of the read-only pool (`default_transaction_read_only=on`, src/db/database.ts):
   * PostgreSQL refuses its writes by itself, so an overlapped read's statements go as they are.
   */
  readonly #readOnlySession: boolean;

  constructor(client: pg.PoolClient, rules: PgSessionRules = { named: true, begin: undefined }, readOnlySession = false) {
    this.client = client;
    this.#rules = rules;
    this.#readOnlySession = readOnlySession;
  }

  /**
   * True once a batch of `executeBatch` carried the transaction's COMMIT, until the driver's own
   * commit or rollback of that transaction (which then send nothing).
   */
  #endedByBatch = false;

  /** True between BEGIN and COMMIT or ROLLBACK. */
  #inTransaction = false;

  /**
   * Runs one statement. Inside an overlapped read (`readOnlyScope`, src/db/admission-gate.ts) on a
   * session that is not read-only itself (behind a transaction pooler, which carries no session
   * setting), a statement outside a transaction is sent as `start transaction read only`, the
   * statement and `commit`, together (pipeline mode: one round trip), so PostgreSQL refuses it if
   * it writes. On a session of the read-only pool it goes as it is.
   */
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#endedByBatch) throw new Error('pg-driver: this transaction was committed by its last batch (pipelinedCommit, src/db/pipeline.ts); nothing may run in it after');
    const run = readOnlyScope.getStore();
    if (!run || this.#inTransaction || this.#readOnlySession) return this.#run<R>(query);
    const begun = this.#command('start transaction read only');
    const ran = this.#run<R>(query);
    const ended = this.#command('commit');
    const [b, r, e] = await Promise.allSettled([begun, ran, ended]);
    if (r.status === 'rejected') throw r.reason;
    if (b.status === 'rejected') throw b.reason;
    if (e.status === 'rejected') throw e.reason;
    return r.value;
  }

  async #run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const name = this.#rules.named ? statementNameOf(query) : undefined;
    const values = query.parameters as unknown[];
    let result: pg.QueryResult;
    try {
      // A database span of ours (src/db/query-tracing.ts); the pg instrumentation's is suppressed inside it.
      result = await traceStatement(query.sql, 'postgres', () => this.client.query(name === undefined ? { text: query.sql, values } : { name, text: query.sql, values }));
    } catch (err) {
      if (isTerminatedConnection(err)) this.broken = true;
      noteRefusedWrite(readOnlyScope.getStore(), err);
      throw err;
    }
    const { command, rowCount, rows } = result;
    return { numAffectedRows: COUNTED.has(command) ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
  }

  /**
   * Sends `batch` without waiting for each answer: the pool's clients run in pg's pipeline mode
   * (src/db/database.ts), so the statements travel together and the server answers them in order,
   * one round trip for all (src/db/pipeline.ts). With `commit`, the transaction's COMMIT follows
   * them in the same trip and the transaction has ended whatever the answers (see #endedByBatch).
   * @returns each statement's result, in order
   * @throws the first failing statement's error; AbortedTransactionError when the COMMIT rolled back
   */
  async executeBatch(batch: readonly CompiledQuery[], options: { commit: boolean }): Promise<QueryResult<unknown>[]> {
    const sent = batch.map((q) => this.executeQuery<unknown>(q));
    let committed: Promise<string> | undefined;
    if (options.commit) {
      this.#endedByBatch = true;
      this.#inTransaction = false;
      committed = this.#command('commit');
    }
    const settled = await Promise.allSettled([...sent, ...(committed ? [committed] : [])]);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    if (committed && (await committed) === 'ROLLBACK') throw new AbortedTransactionError();
    return settled.slice(0, batch.length).map((s) => (s as PromiseFulfilledResult<QueryResult<unknown>>).value);
  }

  /** Runs a transaction command (begin, commit, rollback) and returns the server's command tag. */
  async #command(text: string): Promise<string> {
    try {
      // A database span of ours, as every other statement has (src/db/query-tracing.ts).
      return (await traceStatement(text, 'postgres', () => this.client.query(text))).command;
    } catch (err) {
      if (isTerminatedConnection(err)) this.broken = true;
      throw err;
    }
  }

  /**
   * BEGIN, or START TRANSACTION with the given isolation level and access mode; READ ONLY inside an
   * overlapped read (`readOnlyScope`, src/db/admission-gate.ts).
   */
  async begin(settings: TransactionSettings): Promise<void> {
    const accessMode = readOnlyScope.getStore() ? 'read only' : settings.accessMode;
    let text = 'begin';
    if (settings.isolationLevel || accessMode) {
      text = `start transaction${settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''}${accessMode ? ` ${accessMode}` : ''}`;
    }
    const settings_ = this.#rules.begin;
    if (settings_ === undefined) await this.#command(text);
    else await Promise.all([this.#command(text), this.#command(settings_)]);
    this.#inTransaction = true;
  }

  /**
   * COMMIT, unless a batch already sent it (then nothing is sent).
   * @throws AbortedTransactionError when PostgreSQL completes the COMMIT with a ROLLBACK tag (an
   *   earlier error aborted the transaction)
   */
  async commit(): Promise<void> {
    this.#inTransaction = false;
    if (this.#endedByBatch) {
      this.#endedByBatch = false;
      return;
    }
    if ((await this.#command('commit')) === 'ROLLBACK') throw new AbortedTransactionError();
  }

  /** ROLLBACK, unless a batch's COMMIT already ended the transaction (then nothing is sent). */
  async rollback(): Promise<void> {
    this.#inTransaction = false;
    if (this.#endedByBatch) {
      this.#endedByBatch = false;
      return;
    }
    try {
      await this.#command('rollback');
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }

  // eslint-disable-next-line require-yield -- no query of the project streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('pg-driver: streaming queries are not supported');
  }
}

/**
 * Kysely's driver contract over a pg pool, transactions as Kysely's PostgreSQL driver writes them.
 * An overlapped read (`readOnlyScope`, src/db/admission-gate.ts) takes its connections from the
 * read-only pool when there is one.
 */
class PgDriver implements Driver {
  readonly #pool: pg.Pool;
  readonly #rules: PgSessionRules;
  readonly #readPool: pg.Pool | undefined;

  constructor(pool: pg.Pool, rules: PgSessionRules, readPool: pg.Pool | undefined) {
    this.#pool = pool;
    this.#rules = rules;
    this.#readPool = readPool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#readPool && readOnlyScope.getStore()) return new PgConnection(await this.#readPool.connect(), this.#rules, true);
    return new PgConnection(await this.#pool.connect(), this.#rules);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (connection as PgConnection).begin(settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PgConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PgConnection).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as PgConnection;
    c.client.release(c.broken ? new Error('connection broken: rollback failed or ended by the server') : undefined);
  }

  async destroy(): Promise<void> {
    await Promise.all([this.#pool.end(), this.#readPool?.end()]);
  }
}

/**
 * The PostgreSQL dialect over `pool` (closing the Kysely instance ends the pools).
 * @param rules named statements or not, and what goes with each BEGIN (src/db/pooler.ts)
 * @param readPool sessions started read-only, for the overlapped reads (src/db/database.ts); none:
 *   they run on `pool`, each statement in a READ ONLY transaction of its own
 */
export function pgDialect(pool: pg.Pool, rules: PgSessionRules = { named: true, begin: undefined }, readPool?: pg.Pool): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgDriver(pool, rules, readPool),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
