/**
 * Runs the Kysely migrations listed in src/db/migrations/index.ts (frozen once released: they use
 * Kysely<any> and never import application code). Called at start and by `caretaker migrate`.
 *
 * The pending migrations run in one transaction. On PostgreSQL with older instances serving
 * (docs/operations.md "Upgrades"), that transaction first takes every existing table's lock in one
 * `LOCK TABLE` statement that may wait at most LOCK_WAIT_MS per table and LOCK_STATEMENT_MS in all,
 * and tries again after a pause when it could not. Once it holds them, its DDL never waits, so it
 * can never be one side of a deadlock with a serving request: requests wait behind it instead
 * (Kysely's own run, which locks each table as a migration reaches it, deadlocked with an old
 * instance's job creation that held `jobs` and wanted a table the migration had altered). The
 * partial locks of a failed try are held for at most LOCK_STATEMENT_MS, below PostgreSQL's
 * deadlock_timeout (1 s), so a request that waited behind them is never the deadlock victim.
 *
 * Two instances starting together migrate once: the transaction's first statement takes an
 * advisory lock (`pg_advisory_xact_lock`), so the second instance waits there, holding no table
 * lock, then finds nothing pending (test/production/upgrade.test.ts). PGlite has one
 * connection, which the migrator holds for the run. A database migrated by a newer release
 * (migrations this build does not know, none of its own pending) is left alone, so an older
 * instance still starts during a rolling upgrade or a rollback (docs/operations.md "Upgrades").
 */
import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';
import { MIGRATION_PHASES, type MigrationClass } from './migrations/phases.ts';

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * The migrations, each keeping the first error it throws: inside a transaction Kysely's
 * migrator then fails to release its advisory lock ("current transaction is aborted") and
 * reports that instead of the migration's own error.
 */
class RecordingProvider implements MigrationProvider {
  failure: { migration: string; error: unknown } | undefined;

  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [
        name,
        {
          ...m,
          up: async (trx) => {
            try {
              await m.up(trx);
            } catch (error) {
              this.failure ??= { migration: name, error };
              throw error;
            }
          },
        } satisfies Migration,
      ]),
    );
  }
}

/** A pending migration and its class (src/db/migrations/phases.ts). */
export interface PendingMigration extends MigrationClass {
  name: string;
}

/** Where a database stands against this build's migrations. */
export interface MigrationStatus {
  /** Applied migrations this build knows, in Kysely's (name) order. */
  applied: string[];
  /** Not yet applied, in the order they would run, with their class. */
  pending: PendingMigration[];
  /** Applied by a newer release: recorded in the database, unknown to this build. */
  newer: string[];
}

/** The class of a migration; a migration missing from phases.ts counts as `contract` (the safe assumption). */
export function migrationClass(name: string): MigrationClass {
  return MIGRATION_PHASES[name] ?? { phase: 'contract', summary: '(not classified in src/db/migrations/phases.ts)' };
}

/** Reads which migrations are applied, pending and unknown (newer), changing nothing. */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const known = Object.keys(migrations).sort();
  const exists = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db);
  const recorded = exists.rows[0]?.t
    ? (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name)
    : [];
  const done = new Set(recorded);
  return {
    applied: known.filter((n) => done.has(n)),
    pending: known.filter((n) => !done.has(n)).map((name) => ({ name, ...migrationClass(name) })),
    newer: recorded.filter((n) => !(n in migrations)),
  };
}

/**
 * Applies every pending migration, in one transaction (see the file's comment for the locks).
 * @param options.lockTablesFirst lock every table before migrating, trying again until it can
 * @returns the names of the migrations applied by this call (empty when none was pending, also
 *   when a newer release has migrated further)
 * @throws Error naming the migration that failed, or when this build has pending migrations on a
 *   database that a newer release has already migrated (the order would break), or when the
 *   tables stayed locked by other transactions for LOCK_GIVE_UP_MS
 */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const status = options.status ?? (await migrationStatus(db));
  if (status.pending.length === 0) return [];
  if (status.newer.length > 0) {
    throw new Error(
      `This build would apply ${status.pending.map((p) => p.name).join(', ')} to a database a newer release has migrated ` +
        `(${status.newer.join(', ')}): start the newer release instead`,
    );
  }
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        // One migrating instance at a time, before any table lock (a second one waits here, holding none).
        await sql`select pg_advisory_xact_lock(hashtext('caretaker migrations'))`.execute(trx);
        if (options.lockTablesFirst) await lockEveryTable(trx);
        // Given a transaction, Kysely's migrator runs inside it.
        const provider = new RecordingProvider();
        const { error, results } = await new Migrator({ db: trx, provider }).migrateToLatest();
        if (error) {
          const failed = provider.failure ?? { migration: results?.find((r) => r.status === 'Error')?.migrationName ?? '(unknown)', error };
          throw new MigrationFailed(failed.migration, failed.error);
        }
        return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
      });
    } catch (err) {
      if (err instanceof MigrationFailed) throw new Error(`Migration ${err.migration} failed: ${err.message}`);
      if (!isLockWait(err)) throw err;
      if (Date.now() - started > LOCK_GIVE_UP_MS) {
        throw new Error(
          `Migrations could not lock the tables in ${Math.round(LOCK_GIVE_UP_MS / 1000)} s (${attempt} tries): ` +
            'a transaction holds one of them; look for it in pg_stat_activity (state, xact_start)',
        );
      }
      options.onLockWait?.(attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 50 * attempt) + Math.random() * 100));
    }
  }
}

/** How long the table-lock statement may wait for one table, in milliseconds. */
export const LOCK_WAIT_MS = 100;
/** How long the table-lock statement may run in all, in milliseconds (below deadlock_timeout, 1 s). */
export const LOCK_STATEMENT_MS = 400;
/** After how long (milliseconds) migrations stop trying to lock the tables and fail. */
const LOCK_GIVE_UP_MS = 120_000;

/** Options of migrateToLatest (start passes them on PostgreSQL; tests and the prepared copy do not). */
export interface MigrateOptions {
  /** Take every table's lock before the first migration (other instances may be serving). */
  lockTablesFirst?: boolean;
  /** Called when a try could not lock the tables and another follows (attempt counts from 1). */
  onLockWait?: (attempt: number) => void;
  /**
   * What migrationStatus has just read, when the caller has it (start reads it to say what it
   * will do), so it is not read twice. Another instance migrating meanwhile changes nothing: the
   * migrator reads the applied ones again under the lock.
   */
  status?: MigrationStatus;
}

/** A migration's own error, carried out of the transaction so that it rolls back. */
class MigrationFailed extends Error {
  readonly migration: string;
  constructor(migration: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.migration = migration;
  }
}

/** True for lock_not_available (55P03, lock_timeout) and query_canceled (57014, statement_timeout). */
function isLockWait(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
  return code === '55P03' || code === '57014';
}

/**
 * Locks every table of the schema (but Kysely's own) in ACCESS EXCLUSIVE mode, in one statement
 * bounded by LOCK_WAIT_MS per table and LOCK_STATEMENT_MS in all; the timeouts are the
 * transaction's (`set_config(..., true)`) and are lifted once the locks are held.
 * @throws the database's 55P03 or 57014 error when a lock was not granted in time
 */
async function lockEveryTable(trx: Db): Promise<void> {
  const tables = await sql<{ name: string }>`
    select quote_ident(tablename) as name from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely\_%' order by tablename`.execute(trx);
  if (tables.rows.length === 0) return;
  await sql`select set_config('lock_timeout', ${`${LOCK_WAIT_MS}ms`}, true), set_config('statement_timeout', ${`${LOCK_STATEMENT_MS}ms`}, true)`.execute(trx);
  await sql.raw(`lock table ${tables.rows.map((t) => t.name).join(', ')} in access exclusive mode`).execute(trx);
  await sql`select set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`.execute(trx);
}

/**
 * Applies the migrations up to and including `name` (tests build a database as an older release
 * left it this way).
 * @throws Error when a migration fails
 */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** How many migrations are not yet applied (all of them on a new database). */
export async function pendingMigrationCount(db: Db): Promise<number> {
  return (await migrationStatus(db)).pending.length;
}

/** The unfinished backfills with their progress, by name (the table exists from migration 2026_11_26_0800_backfills). */
export function unfinishedBackfills(db: Db): Promise<Array<{ name: string; done: number; total: number | null }>> {
  return db.selectFrom('data_backfills').select(['name', 'done', 'total']).where('finished_at', 'is', null).orderBy('name').execute();
}
