/**
 * Tells when a write that changes who a token stands for has become visible: an update or delete
 * on `auth_tokens`, `users`, `roles` or `agencies` (suspension), or any write on `role_permissions` (docs/security.md,
 * "Token lookup cache"). Wraps the Kysely driver, so it sees every statement of the process,
 * whatever module wrote it, and calls the listener after the COMMIT of a transaction that made
 * such a write (or after the statement itself outside a transaction). The listener (the auth
 * epoch bump, src/core/auth-epoch.ts) makes every instance's cached token lookups stale.
 *
 * Not counted, since they change no cached identity: new rows in `auth_tokens` and `users` (a
 * token that was never looked up is not cached), and updates that set only `last_used_at` or
 * `last_login_at` (the touch of a token, the stamp of a login).
 */
import type { AbortableOperationOptions, CompiledQuery, DatabaseConnection, Dialect, QueryResult } from 'kysely';
import { withDriverHooks } from './driver-hooks.ts';

const WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?(auth_tokens|users|roles|role_permissions|agencies)"?[\s(]/gi;
const SET_LIST = /^\s*update\s+"?\w+"?\s+set\s+([\s\S]*?)\s+where\s/i;
const UNTRACKED_COLUMNS = new Set(['last_used_at', 'last_login_at']);

/** Answers by SQL text: a process runs the same few hundred texts again and again. */
const known = new Map<string, boolean>();

/** True when the SQL text writes identity data (see the file comment). */
export function writesIdentity(sqlText: string): boolean {
  let answer = known.get(sqlText);
  if (answer === undefined) {
    answer = scan(sqlText);
    if (known.size >= 2_000) known.clear();
    known.set(sqlText, answer);
  }
  return answer;
}

function scan(sqlText: string): boolean {
  for (const m of sqlText.matchAll(WRITE)) {
    const verb = m[1]!.toLowerCase();
    const table = m[2]!.toLowerCase();
    if (verb.startsWith('insert') && table !== 'role_permissions') continue;
    if (verb === 'update') {
      const set = SET_LIST.exec(sqlText)?.[1];
      const columns = set ? [...set.matchAll(/"?(\w+)"?\s*=/g)].map((c) => c[1]!) : [];
      if (columns.length > 0 && columns.every((c) => UNTRACKED_COLUMNS.has(c))) continue;
    }
    return true;
  }
  return false;
}

/** Where the listener is set once the rest of the runtime exists (src/main/runtime.ts). */
export interface IdentityWrites {
  /** Awaited after the write is committed; an error is swallowed (the cache's time limit still applies). */
  listener: (() => Promise<void>) | null;
}

interface ConnectionState {
  inTransaction: boolean;
  dirty: boolean;
}

/**
 * The dialect with its driver wrapped to report identity writes to `watch.listener`.
 * @param dialect the engine's dialect (PostgreSQL or PGlite)
 */
export function watchIdentityWrites(dialect: Dialect, watch: IdentityWrites): Dialect {
  const states = new WeakMap<DatabaseConnection, ConnectionState>();
  const notify = async () => {
    await watch.listener?.().catch(() => undefined);
  };
  const stateOf = (connection: DatabaseConnection): ConnectionState => {
    let state = states.get(connection);
    if (!state) {
      state = { inTransaction: false, dirty: false };
      states.set(connection, state);
      const execute = connection.executeQuery.bind(connection);
      const tracked = state;
      connection.executeQuery = async <R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> => {
        const result = await execute<R>(query, options);
        if (writesIdentity(query.sql)) {
          if (tracked.inTransaction) tracked.dirty = true;
          else await notify();
        }
        return result;
      };
    }
    return state;
  };
  return withDriverHooks(dialect, {
    acquired: (connection) => void stateOf(connection),
    async beginTransaction(connection, begin) {
      await begin();
      Object.assign(stateOf(connection), { inTransaction: true, dirty: false });
    },
    async commitTransaction(connection, commit) {
      const state = stateOf(connection);
      await commit();
      const dirty = state.dirty;
      Object.assign(state, { inTransaction: false, dirty: false });
      if (dirty) await notify();
    },
    async rollbackTransaction(connection, rollback) {
      Object.assign(stateOf(connection), { inTransaction: false, dirty: false });
      await rollback();
    },
  });
}
