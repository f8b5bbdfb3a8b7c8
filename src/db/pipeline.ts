/**
 * Several statements of one transaction sent in one round trip, the one place the project
 * pipelines (docs/architecture.md, "Prepared statements"):
 *
 * - `pipelined(trx, queries)` hands the statements to the transaction's connection together and
 *   returns their results in order. On PostgreSQL the pool's clients run in pg's pipeline mode
 *   (src/db/database.ts): pg sends each statement as it gets it, so the statements travel without
 *   waiting for each other's answers and the server answers them in order
 *   (PgConnection.executeBatch, src/db/pg-driver.ts). On PGlite they run one after the other
 *   (PgliteConnection.executeBatch, src/db/pglite-driver.ts).
 *   The statements must not need each other's results in JavaScript (a statement may read what an
 *   earlier one wrote: they run in order, in the same transaction). A failing statement fails
 *   the call, and the transaction with it.
 * - `pipelinedCommit(trx, queries)` is the same with the transaction's COMMIT at the end of the
 *   batch, for the owner's last statements: the locks they take (a reference counter's row) are
 *   held for the batch's one trip instead of until a COMMIT sent after their answers came back.
 *   The connection then remembers that its transaction has ended: the driver's own commit (or
 *   rollback) sends nothing, and a statement sent after it throws. On PGlite the statements run
 *   in order, with the same contract (src/db/pglite-driver.ts).
 *
 * The connection is reached through Kysely's own `provideConnection` of the transaction's
 * executor; nothing of Kysely, pg or PGlite is replaced.
 */
import type { CompiledQuery, Compilable, DatabaseConnection, QueryResult } from 'kysely';
import { PgConnection } from './pg-driver.ts';
import { PgliteConnection } from './pglite-driver.ts';
import type { Trx } from './types.ts';

function compiled(q: Compilable<unknown> | CompiledQuery): CompiledQuery {
  return 'compile' in q && typeof q.compile === 'function' ? q.compile() : (q as CompiledQuery);
}

/** The row type of a statement given to `pipelined`. */
type RowOf<Q> = Q extends CompiledQuery<infer R> ? R : Q extends Compilable<infer R> ? R : unknown;

type Results<Q extends ReadonlyArray<unknown>> = { -readonly [K in keyof Q]: QueryResult<RowOf<Q[K]>> };

/** Runs `batch` on the transaction's connection: together on PostgreSQL, in order elsewhere. */
function runBatch(trx: Trx, batch: readonly CompiledQuery[], commit: boolean): Promise<QueryResult<unknown>[]> {
  return trx.getExecutor().provideConnection(async (connection: DatabaseConnection) => {
    if (connection instanceof PgConnection || connection instanceof PgliteConnection) return connection.executeBatch(batch, { commit });
    throw new Error('pipeline: the connection sends no batches (only src/db/pg-driver.ts and src/db/pglite-driver.ts do)');
  });
}

/**
 * Runs `queries` in order in one round trip on the transaction's connection.
 * @returns each query's result (rows typed as the query's, affected rows), in the order given
 * @throws the first statement's error (the transaction is then aborted)
 */
export async function pipelined<const Q extends ReadonlyArray<Compilable<unknown> | CompiledQuery>>(trx: Trx, queries: Q): Promise<Results<Q>> {
  return (await runBatch(trx, queries.map(compiled), false)) as Results<Q>;
}

/**
 * Runs `queries` in order and then COMMIT, in one round trip: the transaction's last statements.
 * Only the transaction's owner may end it so (nothing of the transaction may run after; a
 * statement that tries throws).
 * @returns each query's result, in the order given, once the transaction is committed
 * @throws the first statement's error, or the COMMIT's (the transaction is then rolled back)
 */
export async function pipelinedCommit<const Q extends ReadonlyArray<Compilable<unknown> | CompiledQuery>>(trx: Trx, queries: Q): Promise<Results<Q>> {
  return (await runBatch(trx, queries.map(compiled), true)) as Results<Q>;
}
