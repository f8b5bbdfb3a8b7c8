/**
 * Runs the Kysely migrations listed in src/db/migrations/index.ts (frozen once released: they use
 * Kysely<any> and never import application code). Called at start and by `caretaker migrate`.
 *
 * Two instances starting together migrate once: on PostgreSQL Kysely's migrator holds a
 * session-level advisory lock (`pg_advisory_lock`, PostgresAdapter) on one connection around each
 * step; the second instance waits for the lock, then finds nothing pending
 * (test/production/upgrade.test.ts). PGlite has one connection, which the migrator holds.
 *
 * Online with older instances serving (docs/operations.md "Upgrades"): each migration is its own
 * step and its own transaction (Kysely would run them all in one, holding every table's lock to
 * the end), and it waits at most MIGRATION_LOCK_TIMEOUT_MS for a table lock. That is shorter
 * than PostgreSQL's deadlock_timeout (1 s), so when a migration and a serving request wait for
 * each other, the migration gives up first and the request completes; the migration is retried
 * after a pause, and no request waits long behind a queued ALTER TABLE (test/db/migrate-locks.test.ts). A database migrated by a newer release
 * (migrations this build does not know, none of its own pending) is left alone, so an older
 * instance still starts during a rolling upgrade or a rollback (docs/operations.md "Upgrades").
 */
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';
import { MIGRATION_PHASES, type MigrationClass } from './migrations/phases.ts';

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** How long one migration waits for a table lock, in milliseconds (below deadlock_timeout, 1 s). */
export const MIGRATION_LOCK_TIMEOUT_MS = 500;
/** How many times a migration that timed out on a lock is tried again (about two minutes in all). */
const MIGRATION_LOCK_ATTEMPTS = 80;

/** Options of migrateToLatest (the defaults are what start and `caretaker migrate` use). */
export interface MigrateOptions {
  /** The migrations to apply (default: this build's, src/db/migrations/index.ts). */
  migrations?: Record<string, Migration>;
  /** Lock wait per migration, milliseconds (default MIGRATION_LOCK_TIMEOUT_MS). */
  lockTimeoutMs?: number;
  /** Called when a migration timed out on a lock and will be tried again (attempt counts from 1). */
  onLockWait?: (migration: string, attempt: number) => void;
}

/** The migrations, each setting `lock_timeout` for its own transaction before it runs. */
class LockTimeoutProvider implements MigrationProvider {
  private readonly source: Record<string, Migration>;
  private readonly lockTimeoutMs: number;

  constructor(source: Record<string, Migration>, lockTimeoutMs: number) {
    this.source = source;
    this.lockTimeoutMs = lockTimeoutMs;
  }

  async getMigrations(): Promise<Record<string, Migration>> {
    const timeout = sql.raw(`'${Math.max(1, Math.floor(this.lockTimeoutMs))}ms'`);
    return Object.fromEntries(
      Object.entries(this.source).map(([name, m]) => [
        name,
        {
          ...m,
          up: async (trx: Kysely<any>) => {
            await sql`set local lock_timeout = ${timeout}`.execute(trx);
            await m.up(trx);
          },
        },
      ]),
    );
  }
}

/** True for PostgreSQL's lock_not_available (SQLSTATE 55P03), raised when lock_timeout passes. */
function isLockTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '55P03';
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

/** Reads which migrations (default: this build's) are applied, pending and unknown (newer), changing nothing. */
export async function migrationStatus(db: Db, list: Record<string, Migration> = migrations): Promise<MigrationStatus> {
  const known = Object.keys(list).sort();
  const exists = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db);
  const recorded = exists.rows[0]?.t
    ? (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name)
    : [];
  const done = new Set(recorded);
  return {
    applied: known.filter((n) => done.has(n)),
    pending: known.filter((n) => !done.has(n)).map((name) => ({ name, ...migrationClass(name) })),
    newer: recorded.filter((n) => !(n in list)),
  };
}

/**
 * Applies every pending migration, one transaction each, a migration that timed out on a table
 * lock tried again after a pause (up to about two minutes).
 * @returns the names of the migrations applied by this call (empty when none was pending, also
 *   when a newer release has migrated further)
 * @throws Error naming the migration that failed, or when this build has pending migrations on a
 *   database that a newer release has already migrated (the order would break)
 */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const status = await migrationStatus(db, options.migrations);
  if (status.pending.length === 0) return [];
  if (status.newer.length > 0) {
    throw new Error(
      `This build would apply ${status.pending.map((p) => p.name).join(', ')} to a database a newer release has migrated ` +
        `(${status.newer.join(', ')}): start the newer release instead`,
    );
  }
  const lockTimeoutMs = options.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS;
  const migrator = new Migrator({ db, provider: new LockTimeoutProvider(options.migrations ?? migrations, lockTimeoutMs) });
  const applied: string[] = [];
  let waits = 0;
  for (;;) {
    const { error, results } = await migrator.migrateUp();
    const failed = results?.find((r) => r.status === 'Error');
    if (error) {
      if (isLockTimeout(error) && waits < MIGRATION_LOCK_ATTEMPTS) {
        waits++;
        options.onLockWait?.(failed?.migrationName ?? '(unknown)', waits);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * waits) + Math.random() * 100));
        continue;
      }
      const reason = error instanceof Error ? error.message : String(error);
      const hint = isLockTimeout(error) ? ` (a table it alters stayed locked through ${waits + 1} tries: look for a long transaction in pg_stat_activity)` : '';
      throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}${hint}`);
    }
    const done = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (done.length === 0) return applied;
    applied.push(...done);
  }
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
