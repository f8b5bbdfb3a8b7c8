/**
 * Several statements of one transaction sent in one round trip: `pipelined(trx, queries)` hands
 * them to the connection together and returns their results in order. On PostgreSQL the pool's
 * clients run in pg's pipeline mode (src/db/database.ts), so the statements travel together, in
 * one write to the socket (PgConnection.together, src/db/pg-driver.ts), and the server answers
 * them in order; on PGlite they run one after the other. The statements must not need each
 * other's results in JavaScript (a statement may read what an earlier one wrote: they run in
 * order, in the same transaction). A failing statement fails the call, and the transaction with
 * it. docs/architecture.md, "Prepared statements".
 *
 * `pipelinedCommit` is the same with the transaction's COMMIT at the end of the batch, for the
 * owner's last statements: the locks they take (a reference counter's row) are held for the
 * batch's one trip instead of until a COMMIT sent after their answers came back. The
 * transaction then takes no more statements, and Kysely's own COMMIT (or ROLLBACK, when a
 * statement of the batch failed and the batch's COMMIT rolled back) sends nothing.
 */
import { CompiledQuery, type Compilable, type DatabaseConnection, type Dialect, type QueryResult } from 'kysely';
import { wrapDriver, type DriverMethod } from './driver-hooks.ts';
import type { Trx } from './types.ts';

const BATCHES = new WeakMap<CompiledQuery, readonly CompiledQuery[]>();
/** The batches of `pipelinedCommit`: their last statement is the transaction's COMMIT. */
const COMMITTING = new WeakSet<CompiledQuery>();
const COMMIT = CompiledQuery.raw('commit');

function compiled(q: Compilable<unknown> | CompiledQuery): CompiledQuery {
  return 'compile' in q && typeof q.compile === 'function' ? q.compile() : (q as CompiledQuery);
}

/** The row type of a statement given to `pipelined`. */
type RowOf<Q> = Q extends CompiledQuery<infer R> ? R : Q extends Compilable<infer R> ? R : unknown;

/** Sends `batch` as one marked statement on the transaction's connection (runPipelines runs it). */
async function runBatch(trx: Trx, batch: readonly CompiledQuery[], commits: boolean): Promise<unknown[]> {
  const marker = CompiledQuery.raw(batch.map((q) => q.sql).join(';\n'), []);
  BATCHES.set(marker, batch);
  if (commits) COMMITTING.add(marker);
  const { rows } = await trx.executeQuery<unknown>(marker);
  return rows;
}

/**
 * Runs `queries` in order in one round trip on the transaction's connection.
 * @returns each query's result (rows typed as the query's, affected rows), in the order given
 * @throws the first statement's error (the transaction is then aborted)
 */
export async function pipelined<const Q extends ReadonlyArray<Compilable<unknown> | CompiledQuery>>(
  trx: Trx,
  queries: Q,
): Promise<{ -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> }> {
  return (await runBatch(trx, queries.map(compiled), false)) as { -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> };
}

/**
 * Runs `queries` in order and then COMMIT, in one round trip: the transaction's last statements.
 * Only the transaction's owner may end it so (nothing of the transaction may run after; a
 * statement that tries throws).
 * @returns each query's result, in the order given, once the transaction is committed
 * @throws the first statement's error, or the COMMIT's (the transaction is then rolled back)
 */
export async function pipelinedCommit<const Q extends ReadonlyArray<Compilable<unknown> | CompiledQuery>>(
  trx: Trx,
  queries: Q,
): Promise<{ -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> }> {
  const results = await runBatch(trx, [...queries.map(compiled), COMMIT], true);
  return results.slice(0, -1) as { -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> };
}

/** A connection that can send several statements in one write (PostgreSQL's, src/db/pg-driver.ts). */
interface OneWrite {
  together<T>(send: () => T): T;
}

function isOneWrite(connection: DatabaseConnection): connection is DatabaseConnection & OneWrite {
  return typeof (connection as Partial<OneWrite>).together === 'function';
}

/**
 * The dialect with its connections running a `pipelined` batch: every statement given to the
 * connection at once (pg queues and, in pipeline mode, sends them together), results in order.
 */
export function runPipelines(dialect: Dialect): Dialect {
  const wrapped = new WeakSet<DatabaseConnection>();
  // Connections whose transaction a `pipelinedCommit` batch ended, until Kysely ends it too.
  const ended = new WeakSet<DatabaseConnection>();
  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    if (wrapped.has(connection)) return connection;
    wrapped.add(connection);
    const execute = connection.executeQuery.bind(connection);
    connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      if (ended.has(connection)) {
        if (query.sql !== 'commit' && query.sql !== 'rollback') throw new Error('pipeline: this transaction was committed by its last batch (pipelinedCommit); nothing may run in it after');
        ended.delete(connection);
        return { rows: [{ command: 'COMMIT' }] as R[] };
      }
      const batch = BATCHES.get(query);
      if (batch === undefined) return execute<R>(query);
      // The COMMIT is sent with the batch: whatever the batch's answers, the transaction has ended.
      if (COMMITTING.has(query)) ended.add(connection);
      const send = () => batch.map((q) => execute<unknown>(q));
      const results = await Promise.all(isOneWrite(connection) ? connection.together(send) : send());
      return { rows: results as R[] };
    };
    return connection;
  };
  return wrapDriver(dialect, (name, own) => {
    if (name !== 'acquireConnection') return undefined;
    const acquire = own as unknown as (...args: unknown[]) => Promise<DatabaseConnection>;
    return (async (...args: unknown[]) => wrap(await acquire(...args))) as DriverMethod;
  });
}
