/**
 * The claim of an Idempotency-Key, made by the database layer on behalf of the request pipeline
 * (src/http/idempotency-pipeline.ts; docs/api.md "Idempotency-Key"). While a write request runs
 * with a key, its claim sits in `claimScope` (AsyncLocalStorage). The first transaction the
 * request opens inserts the key's row right after BEGIN, so the row commits with the write and
 * vanishes with its rollback; a write outside any transaction inserts it just before. A second
 * request with the same key waits on the first one's uncommitted row (PostgreSQL) or runs after it
 * (PGlite), finds the row and is refused with ClaimTaken before it writes anything.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect } from 'kysely';
import { withDriverHooks } from './driver-hooks.ts';

/** One request's key. */
export interface KeyClaim {
  userId: number;
  key: string;
  /** "METHOD /path?query". */
  route: string;
  /** SHA-256 (hex) of the route and the body; set later for multipart bodies (src/http/upload.ts). */
  hash: string | undefined;
  now: Date;
  expiresAt: Date;
  /** pending: not claimed yet; open: inserted in a transaction not yet committed; committed. */
  state: 'pending' | 'open' | 'committed';
  /** True when the row was inserted outside a transaction (before a lone write statement). */
  outside: boolean;
  /** True when the key was already stored before this request (a multipart body compares its hash once read). */
  existing: boolean;
}

/**
 * Sets the hash of a body read by the handler (a multipart upload) and refuses the request when
 * the key was stored before it: the pipeline then answers 422 or the first answer.
 * @throws ClaimTaken when the request's key already has a row
 */
export function noteBodyHash(hash: string): void {
  const claim = claimScope.getStore();
  if (!claim) return;
  claim.hash = hash;
  if (claim.existing) throw new ClaimTaken();
}

/** The claim of the request running now, if it carries a key. */
export const claimScope = new AsyncLocalStorage<KeyClaim>();

/** Thrown when another request holds the key already (its row exists). */
export class ClaimTaken extends Error {
  constructor() {
    super('Idempotency-Key already claimed');
    this.name = 'ClaimTaken';
  }
}

const WRITE = /^\s*(insert|update|delete)\b/i;

function claimQueries(c: KeyClaim): CompiledQuery[] {
  return [
    CompiledQuery.raw('delete from idempotency_keys where user_id = $1 and key = $2 and expires_at <= $3', [c.userId, c.key, c.now]),
    CompiledQuery.raw(
      'insert into idempotency_keys (user_id, key, request_hash, route, created_at, expires_at) values ($1, $2, $3, $4, $5, $6) ' +
        'on conflict (user_id, key) do nothing returning key',
      [c.userId, c.key, c.hash ?? '', c.route, c.now, c.expiresAt],
    ),
  ];
}

async function insertClaim(connection: DatabaseConnection, c: KeyClaim): Promise<boolean> {
  const [purge, insert] = claimQueries(c);
  await connection.executeQuery(purge!);
  const result = await connection.executeQuery(insert!);
  return result.rows.length > 0;
}

/**
 * The dialect with its driver wrapped to insert the claim of `claimScope` (see the file comment).
 * @param dialect the engine's dialect (PostgreSQL or PGlite)
 */
export function claimKeysInTransactions(dialect: Dialect): Dialect {
  const inTransaction = new WeakSet<DatabaseConnection>();
  const watched = new WeakSet<DatabaseConnection>();
  const watch = (connection: DatabaseConnection) => {
    if (watched.has(connection)) return;
    watched.add(connection);
    const execute = connection.executeQuery.bind(connection);
    connection.executeQuery = (async (query: CompiledQuery, options?: unknown) => {
      const claim = claimScope.getStore();
      if (claim?.state === 'pending' && !inTransaction.has(connection) && WRITE.test(query.sql)) {
        claim.state = 'committed';
        claim.outside = true;
        const [purge, insert] = claimQueries(claim);
        await execute(purge!);
        if ((await execute(insert!)).rows.length === 0) {
          claim.state = 'pending';
          claim.outside = false;
          throw new ClaimTaken();
        }
      }
      return execute(query, options as never);
    }) as DatabaseConnection['executeQuery'];
  };
  return withDriverHooks(dialect, {
    acquired: watch,
    async beginTransaction(connection, begin) {
      await begin();
      inTransaction.add(connection);
      const claim = claimScope.getStore();
      if (claim?.state !== 'pending') return;
      claim.state = 'open';
      let claimed = false;
      try {
        claimed = await insertClaim(connection, claim);
      } finally {
        if (!claimed) {
          claim.state = 'pending';
          inTransaction.delete(connection);
          // Kysely rolls back only a transaction whose BEGIN succeeded.
          await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
        }
      }
      if (!claimed) throw new ClaimTaken();
    },
    async commitTransaction(connection, commit) {
      await commit();
      inTransaction.delete(connection);
      const claim = claimScope.getStore();
      if (claim?.state === 'open') claim.state = 'committed';
    },
    async rollbackTransaction(connection, rollback) {
      inTransaction.delete(connection);
      const claim = claimScope.getStore();
      if (claim?.state === 'open') claim.state = 'pending';
      await rollback();
    },
  });
}
