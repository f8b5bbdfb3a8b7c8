/**
 * Runs the Kysely migrations listed in src/db/migrations/index.ts (frozen once released: they use
 * Kysely<any> and never import application code). Called at start and by `caretaker migrate`.
 *
 * Two instances starting together migrate once: on PostgreSQL Kysely's migrator holds a
 * session-level advisory lock (`pg_advisory_lock`, PostgresAdapter) on one connection around the
 * whole run, and the pending migrations run in one transaction inside it (Kysely's migrator); the second instance waits
 * for the lock, then finds nothing pending (test/production/upgrade.test.ts). PGlite has one
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
 * Applies every pending migration.
 * @returns the names of the migrations applied by this call (empty when none was pending, also
 *   when a newer release has migrated further)
 * @throws Error naming the migration that failed, or when this build has pending migrations on a
 *   database that a newer release has already migrated (the order would break)
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const status = await migrationStatus(db);
  if (status.pending.length === 0) return [];
  if (status.newer.length > 0) {
    throw new Error(
      `This build would apply ${status.pending.map((p) => p.name).join(', ')} to a database a newer release has migrated ` +
        `(${status.newer.join(', ')}): start the newer release instead`,
    );
  }
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
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
