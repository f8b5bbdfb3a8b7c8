/**
 * Several statements of one transaction sent in one round trip: `pipelined(trx, queries)` hands
 * them to the connection together and returns their results in order. On PostgreSQL the pool's
 * clients run in pg's pipeline mode (src/db/database.ts), so the statements travel together, in
 * one write to the socket (PgConnection.together, src/db/pg-driver.ts), and the server answers
 * them in order; on PGlite they run one after the other. The statements must not need each
 * other's results in JavaScript (a statement may read what an earlier one wrote: they run in
 * order, in the same transaction). A failing statement fails the call, and the transaction with
 * it. docs/architecture.md, "Prepared statements".
 */
import { CompiledQuery, type Compilable, type DatabaseConnection, type Dialect, type QueryResult } from 'kysely';
import { wrapDriver, type DriverMethod } from './driver-hooks.ts';
import type { Trx } from './types.ts';

const BATCHES = new WeakMap<CompiledQuery, readonly CompiledQuery[]>();

function compiled(q: Compilable<unknown> | CompiledQuery): CompiledQuery {
  return 'compile' in q && typeof q.compile === 'function' ? q.compile() : (q as CompiledQuery);
}

/** The row type of a statement given to `pipelined`. */
type RowOf<Q> = Q extends CompiledQuery<infer R> ? R : Q extends Compilable<infer R> ? R : unknown;

/**
 * Runs `queries` in order in one round trip on the transaction's connection.
 * @returns each query's result (rows typed as the query's, affected rows), in the order given
 * @throws the first statement's error (the transaction is then aborted)
 */
export async function pipelined<const Q extends ReadonlyArray<Compilable<unknown> | CompiledQuery>>(
  trx: Trx,
  queries: Q,
): Promise<{ -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> }> {
  const batch = queries.map(compiled);
  const marker = CompiledQuery.raw(batch.map((q) => q.sql).join(';\n'), []);
  BATCHES.set(marker, batch);
  const { rows } = await trx.executeQuery<QueryResult<unknown>>(marker);
  return rows as { -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> };
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
  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    if (wrapped.has(connection)) return connection;
    wrapped.add(connection);
    const execute = connection.executeQuery.bind(connection);
    connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      const batch = BATCHES.get(query);
      if (batch === undefined) return execute<R>(query);
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
