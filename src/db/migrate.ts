/**
 * Runs the Kysely migrations listed in src/db/migrations/index.ts (frozen once released: they use
 * Kysely<any> and never import application code). Called at start and by `caretaker migrate`.
 */
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * Applies every pending migration.
 * @returns the names of the migrations applied by this call
 * @throws Error naming the migration that failed
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** How many migrations are not yet applied (all of them on a new database). */
export async function pendingMigrationCount(db: Db): Promise<number> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
}
