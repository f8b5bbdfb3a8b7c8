/**
 * The migrated embedded database prepared at install (docs/onboarding.md, "First start"): `npm
 * install` (the `prepare` script, scripts/database-prepare.js) creates a PGlite cluster in memory,
 * applies every migration, installs the queue's schema with every queue, subscription and schedule
 * (pg-boss, src/events/worker.ts `installQueues`) and writes its data folder as a gzipped tarball
 * with a manifest (the PGlite version and the migrations it holds) under `prepared/`. A first start on an empty
 * CARETAKER_DATA_DIR loads that copy instead of running initdb and every migration, and then
 * applies only the migrations added since. A copy made by another PGlite version, or holding a
 * migration this build does not know, is not used (the start creates the database as before).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openPglite } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { loadConfig } from '../config.ts';
import { createBoss } from '../events/queue.ts';
import { installQueues } from '../events/worker.ts';
import { backgroundHandlers, periodicTasks } from '../background.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Folder of the prepared copy (not committed; made by `npm install`). */
export const PREPARED_DIR = path.join(ROOT, 'prepared');
const TARBALL = 'pglite-migrated.tar.gz';
const MANIFEST = 'pglite-migrated.json';

interface Manifest {
  pglite: string;
  migrations: string[];
  created_at: string;
}

/** The installed PGlite version (a copy only loads into the version that made it). */
function pgliteVersion(): string {
  const file = path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : 'unknown';
}

/**
 * The prepared copy, when there is one this build can use.
 * @param dir the folder holding it (default PREPARED_DIR)
 * @returns the tarball as a Blob and the number of migrations it holds, or undefined
 */
export function preparedDatabase(dir = PREPARED_DIR): { blob: Blob; migrations: number } | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    if (manifest.pglite !== pgliteVersion()) return undefined;
    if (!manifest.migrations.every((name) => name in migrations)) return undefined;
    return { blob: new Blob([readFileSync(path.join(dir, TARBALL))]), migrations: manifest.migrations.length };
  } catch {
    return undefined;
  }
}

/**
 * Makes the prepared copy: a PGlite cluster in memory, every migration, its data folder dumped.
 * @param dir where to write it (default PREPARED_DIR)
 * @returns the tarball's path and size in bytes
 */
export async function prepareDatabase(dir = PREPARED_DIR): Promise<{ file: string; bytes: number; migrations: number }> {
  const pglite = openPglite('memory://', undefined);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    const applied = await migrateToLatest(db);
    // The queue's tables and queues with the default settings (a start with other settings updates
    // the queues it finds different): a first start then only checks them.
    const boss = createBoss(loadConfig({}), { db, engine: 'pglite', pglite });
    await boss.start();
    await installQueues(boss, loadConfig({}), backgroundHandlers(), periodicTasks());
    await boss.stop({ graceful: false, close: false });
    const tarball = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, TARBALL);
    writeFileSync(file, tarball);
    const manifest: Manifest = { pglite: pgliteVersion(), migrations: applied, created_at: new Date().toISOString() };
    writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return { file, bytes: tarball.length, migrations: applied.length };
  } finally {
    await db.destroy();
  }
}
