/**
 * One PGlite instance per test worker, lent to the files that worker runs one after another and put
 * back to the migrated state between them. Loading a new instance from the migrated snapshot cost
 * each file about 0.6 s of CPU (untarring 40 MB into PGlite's in-memory file system, starting
 * PostgreSQL, collecting the garbage), half of what a small test file costs on PGlite.
 *
 * When the instance is loaded, the rows of every non-empty table are copied into the schema
 * `caretaker_test_seed`, every sequence's value is noted, and a fingerprint of the catalogue is taken
 * (schemas, relations, columns, functions, triggers, constraints, extensions, enum labels).
 * Lending it again:
 * 1. ends a transaction left open and resets the session (`DISCARD ALL`: settings, prepared
 *    statements, cursors, listeners, advisory locks, temporary tables);
 * 2. finds which tables of the application's schemas hold a row, then in one implicit transaction
 *    truncates those, copies the snapshot's rows back (with `session_replication_role = replica`, so
 *    foreign keys and triggers do not fire) and sets every sequence to the snapshot's value;
 * 3. compares the catalogue's fingerprint with the first one. A difference (a test created or
 *    dropped an object, pg-boss added its schema), a failed step or a reset slower than 10 s
 *    discards the instance and the file gets a fresh one loaded from the snapshot.
 * The file holds a proxy of the instance that stops working once the file gives it back, as a
 * closed instance would (its methods reject): a timer left running by one file cannot write into the next file's data.
 * A file that asks for a second database while it holds the worker's instance (two apps in one
 * file) gets a fresh instance of its own, as every file did before.
 */
import type { PGlite } from '@electric-sql/pglite';
import { expect } from 'vitest';
import { openPglite } from '../../src/db/database.ts';

const SEED = 'caretaker_test_seed';
const APP_SCHEMAS = `n.nspname not like 'pg\\_%' and n.nspname not in ('information_schema', '${SEED}')`;
const ALL_SCHEMAS = `n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'`;

const FINGERPRINT_SQL = `
select md5(coalesce(string_agg(x, ',' order by x), '')) as fingerprint from (
  select 'n:' || n.nspname as x from pg_namespace n where ${ALL_SCHEMAS}
  union all select 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || c.relnatts
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${ALL_SCHEMAS}
  union all select 'a:' || n.nspname || '.' || c.relname || '.' || a.attname || ':' || a.atttypid || ':' || a.attnotnull || ':' || a.attgenerated::text || ':' || a.attidentity::text || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where ${ALL_SCHEMAS} and a.attnum > 0 and not a.attisdropped
  union all select 'p:' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${ALL_SCHEMAS}
  union all select 't:' || c.relname || '.' || t.tgname || ':' || t.tgenabled::text
    from pg_trigger t join pg_class c on c.oid = t.tgrelid where not t.tgisinternal
  union all select 'k:' || n.nspname || '.' || k.conname || ':' || pg_get_constraintdef(k.oid)
    from pg_constraint k join pg_namespace n on n.oid = k.connamespace where ${ALL_SCHEMAS}
  union all select 'x:' || extname || ':' || extversion from pg_extension
  union all select 'e:' || e.enumtypid::regtype || ':' || e.enumlabel from pg_enum e
) s`;

interface Lendable {
  pglite: PGlite;
  /** Every table of the application's schemas, quoted and schema-qualified. */
  tables: string[];
  /** One statement listing which of `tables` hold a row now: rows of `i`, an index into `tables`. */
  holdingRowsSql: string;
  /** The statements that put the data back once the tables holding rows are emptied (copy the seed rows, set the sequences). */
  resetSql: string;
  fingerprint: string;
  /** The file that holds it now, or undefined when it is free. */
  holder: { file: string; proxy: { revoke(): void } } | undefined;
}

let worker: Lendable | undefined;
const stats = { loaded: 0, reset: 0, discarded: 0 };

/** How often this worker loaded an instance from the snapshot, reset one, and discarded one. */
export function reuseStats(): Readonly<typeof stats> {
  return { ...stats };
}

/** The test file running now (Vitest's expect state), or '' outside a test. */
function currentFile(): string {
  try {
    return expect.getState().testPath ?? '';
  } catch {
    return '';
  }
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Loads a fresh instance from the snapshot (`loadDataDir`). */
export async function loadPglite(snapshot: Blob): Promise<PGlite> {
  const pglite = openPglite('memory://', snapshot);
  await pglite.waitReady;
  return pglite;
}

/** Copies the snapshot's rows into the seed schema and builds the reset statements. */
async function prepareLendable(pglite: PGlite): Promise<Lendable> {
  const tables = (
    await pglite.query<{ schema: string; name: string; columns: string[] }>(
      `select n.nspname as schema, c.relname as name,
         array_agg(a.attname::text order by a.attnum) filter (where a.attgenerated = '') as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where c.relkind in ('r', 'p') and ${APP_SCHEMAS}
       group by n.nspname, c.relname order by 1, 2`,
    )
  ).rows;
  const qualified = (t: { schema: string; name: string }) => `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
  const seedName = (t: { schema: string; name: string }) => `${quoteIdent(SEED)}.${quoteIdent(`${t.schema}.${t.name}`)}`;
  const holdingRowsSql = tables.length ? tables.map((t, i) => `select ${i} as i where exists (select from ${qualified(t)})`).join(' union all ') : '';
  const filled = holdingRowsSql ? (await pglite.query<{ i: number }>(holdingRowsSql)).rows.map((r) => tables[r.i]!) : [];
  await pglite.exec(`create schema ${SEED};\n${filled.map((t) => `create table ${seedName(t)} as table ${qualified(t)};`).join('\n')}`);
  const sequences = (
    await pglite.query<{ name: string; value: string; called: boolean }>(
      `select quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename) as name,
         coalesce(last_value, start_value)::text as value, last_value is not null as called
       from pg_sequences s join pg_namespace n on n.nspname = s.schemaname where ${APP_SCHEMAS}`,
    )
  ).rows;
  const resetSql = [
    'set session_replication_role = replica;',
    ...filled.map((t) => {
      const columns = t.columns.map(quoteIdent).join(', ');
      return `insert into ${qualified(t)} (${columns}) overriding system value select ${columns} from ${seedName(t)};`;
    }),
    'set session_replication_role = default;',
    ...sequences.map((s) => `select setval('${s.name.replace(/'/g, "''")}', ${s.value}, ${s.called});`),
  ].join('\n');
  const fingerprint = (await pglite.query<{ fingerprint: string }>(FINGERPRINT_SQL)).rows[0]!.fingerprint;
  return { pglite, tables: tables.map(qualified), holdingRowsSql, resetSql, fingerprint, holder: undefined };
}

/** Resolves `work`, or rejects after `ms` milliseconds (a reset stuck behind a lock). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Puts the instance's data and session back to the snapshot; false when it cannot be trusted. */
async function reset(lendable: Lendable): Promise<boolean> {
  try {
    return await within(
      10_000,
      (async () => {
        const { pglite } = lendable;
        if (pglite.closed) return false;
        await pglite.exec('rollback');
        await pglite.exec('discard all');
        // Only the tables holding a row are truncated: a TRUNCATE gives each table, index and
        // TOAST table a new file, and emptying all of them (about 150 tables) took 0.2 s of CPU
        // here where a file leaves a few dozen with rows. The sequences are set below either way.
        const holding = lendable.holdingRowsSql ? (await pglite.query<{ i: number }>(lendable.holdingRowsSql)).rows.map((r) => lendable.tables[r.i]!) : [];
        await pglite.exec(`${holding.length ? `truncate ${holding.join(', ')} cascade;\n` : ''}${lendable.resetSql}`);
        const now = (await pglite.query<{ fingerprint: string }>(FINGERPRINT_SQL)).rows[0]!.fingerprint;
        return now === lendable.fingerprint;
      })(),
    );
  } catch {
    return false;
  }
}

/**
 * A proxy of `pglite` for one file: its `close()` gives the instance back, and after that every
 * method throws as on a closed instance.
 */
function lend(pglite: PGlite, onClose: () => void): { proxy: PGlite; revoke(): void } {
  let revoked = false;
  const proxy = new Proxy(pglite, {
    get(target, key) {
      if (key === 'close') {
        return async () => {
          revoked = true;
          onClose();
        };
      }
      if (key === 'closed') return revoked || target.closed;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (revoked) return Promise.reject(new Error('PGlite is closed'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { proxy, revoke: () => (revoked = true) };
}

/**
 * The worker's instance, reset to the snapshot and lent to the current file, or undefined when the
 * file already holds it (the caller then loads a fresh instance).
 * @returns the proxy to hand to createDatabase and a `release` that gives the instance back
 */
export async function borrowWorkerPglite(snapshot: Blob): Promise<{ pglite: PGlite; release(): void } | undefined> {
  const file = currentFile();
  if (worker?.holder) {
    // A file that ended without closing its database gives the instance back when the next one asks.
    if (worker.holder.file === file) return undefined;
    worker.holder.proxy.revoke();
    worker.holder = undefined;
  }
  // An instance kept by the worker has been lent before (it is lent as soon as it is loaded).
  if (worker && !(await reset(worker))) {
    const stale = worker.pglite;
    worker = undefined;
    stats.discarded += 1;
    if (!stale.closed) void stale.close().catch(() => undefined);
  }
  if (worker) {
    stats.reset += 1;
  } else {
    worker = await prepareLendable(await loadPglite(snapshot));
    stats.loaded += 1;
  }
  const lendable = worker;
  const release = () => {
    if (lendable.holder === holder) lendable.holder = undefined;
    loan.revoke();
  };
  const loan = lend(lendable.pglite, release);
  const holder = { file, proxy: loan };
  lendable.holder = holder;
  return { pglite: loan.proxy, release };
}
