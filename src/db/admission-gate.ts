/**
 * The read-only handle of an overlapped read (docs/architecture.md "Overlapped reads"). The request
 * pipeline (src/http/pipeline.ts) may start a GET handler while the request's rate-limit count and
 * auth-epoch check are still in flight; it then runs the handler inside `readOnlyScope`, and the
 * connections of our own drivers (PgConnection, src/db/pg-driver.ts; PgliteConnection,
 * src/db/pglite-driver.ts) run every statement of that handler in a READ ONLY transaction: a
 * transaction the handler opens starts READ ONLY, and a statement outside one is sent as
 * `start transaction read only; <statement>; commit` in the same round trip. PostgreSQL itself
 * refuses any write (SQLSTATE 25006); the connection marks the scope, and the pipeline waits for
 * the admission and runs the handler once more, as an ordinary read. Nothing here reads SQL text.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One overlapped read's run: `refusedWrite` is set when the database refused one of its writes. */
export interface ReadOnlyRun {
  refusedWrite: boolean;
}

/** The overlapped read running now, if any. */
export const readOnlyScope = new AsyncLocalStorage<ReadOnlyRun>();

/** PostgreSQL's `read_only_sql_transaction`: a write in a READ ONLY transaction. */
const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * Marks the current overlapped read when `err` is PostgreSQL's refusal of a write in a read-only
 * transaction (called by the connections on every failed statement); nothing outside a scope.
 */
export function noteRefusedWrite(run: ReadOnlyRun | undefined, err: unknown): void {
  if (run && (err as { code?: unknown } | null)?.code === READ_ONLY_SQL_TRANSACTION) run.refusedWrite = true;
}
