/**
 * Writes of an overlapped read wait for its admission (docs/architecture.md "Overlapped reads"). The
 * request pipeline (src/http/pipeline.ts) may start a GET handler while the request's rate-limit
 * count and auth-epoch check are still in flight; the handler then runs inside `admissionScope`
 * (AsyncLocalStorage) holding that check. A statement that only reads runs at once; any other
 * statement, and the BEGIN of a transaction, first waits for the check (before it takes a pool
 * connection), and fails with its error when the request is refused. So a refused read changes
 * nothing in the database, as the ordinary order (check first, handler after) guarantees.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AbortableOperationOptions, CompiledQuery, DatabaseConnection, Dialect, QueryResult } from 'kysely';
import { wrapDriver, type DriverMethod } from './driver-hooks.ts';

/** The admission of the overlapped read running now (rejects with the error to answer), if any. */
export const admissionScope = new AsyncLocalStorage<Promise<void>>();

const READ_ONLY = /^\s*(select|with)\b/i;
const WRITE_VERB = /\b(insert|update|delete|merge|copy|lock|call|do)\b|\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|\bnextval\s*\(/i;
const known = new Map<string, boolean>();

/**
 * True when the statement only reads: it starts with SELECT or WITH and names no writing verb,
 * row lock or sequence step anywhere (a word of that name inside a string literal counts as a
 * write too, which only makes the statement wait). Cached per SQL text.
 */
export function onlyReads(sqlText: string): boolean {
  let answer = known.get(sqlText);
  if (answer === undefined) {
    answer = READ_ONLY.test(sqlText) && !WRITE_VERB.test(sqlText);
    if (known.size >= 2_000) known.clear();
    known.set(sqlText, answer);
  }
  return answer;
}

/**
 * A connection handed out inside an admission scope: the real one is acquired when the first
 * statement comes, after the admission when that statement writes, so a waiting write holds no
 * pool connection (the admission itself may need one, to look a token up again).
 */
class DeferredConnection implements DatabaseConnection {
  #real: Promise<DatabaseConnection> | undefined;
  readonly #acquire: () => Promise<DatabaseConnection>;
  readonly #admission: Promise<void>;

  /**
   * @param acquire the driver's own acquisition of a pool connection
   * @param admission the overlapped read's admission
   */
  constructor(acquire: () => Promise<DatabaseConnection>, admission: Promise<void>) {
    this.#acquire = acquire;
    this.#admission = admission;
  }

  /** The real connection, acquired once; after the admission when `writes`. */
  async real(writes: boolean): Promise<DatabaseConnection> {
    if (writes) await this.#admission;
    this.#real ??= this.#acquire();
    return this.#real;
  }

  /** The real connection if one was acquired. */
  acquired(): Promise<DatabaseConnection> | undefined {
    return this.#real;
  }

  async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    return (await this.real(!onlyReads(query.sql))).executeQuery<R>(query, options);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.real(!onlyReads(query.sql))).streamQuery<R>(query, chunkSize, options);
  }
}

/**
 * The dialect with every statement but a read, and every transaction, waiting for the admission
 * of `admissionScope` when there is one (see the file comment and DeferredConnection).
 * @param dialect the engine's dialect (PostgreSQL or PGlite)
 */
export function gateWritesOnAdmission(dialect: Dialect): Dialect {
  return wrapDriver(dialect, (name, own) => {
    const fn = own as unknown as (...args: unknown[]) => Promise<unknown>;
    if (name === 'acquireConnection') {
      return (async (...args: unknown[]) => {
        const admission = admissionScope.getStore();
        if (!admission) return fn(...args);
        return new DeferredConnection(() => fn(...args) as Promise<DatabaseConnection>, admission);
      }) as DriverMethod;
    }
    if (name === 'releaseConnection') {
      return (async (connection: DatabaseConnection, ...rest: unknown[]) => {
        if (!(connection instanceof DeferredConnection)) return fn(connection, ...rest);
        const real = connection.acquired();
        if (real) await fn(await real, ...rest);
      }) as DriverMethod;
    }
    // Every other step on a connection (BEGIN, COMMIT, savepoints) runs on the real one; a
    // transaction starts only once admitted.
    return (async (first: unknown, ...rest: unknown[]) => fn(first instanceof DeferredConnection ? await first.real(true) : first, ...rest)) as DriverMethod;
  });
}
