/**
 * What the process-tier tests give the child processes they start (`caretaker serve`, the worker
 * fixtures), so that each child does not pay again for work that says nothing about the test:
 * - a shared Node compile cache (COMPILE_CACHE_ENV);
 * - a PGlite data folder that already holds the migrated database (migratedDataFolder).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { pgliteSnapshot } from './database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * NODE_COMPILE_CACHE for every child the suite starts: Node keeps the V8 code cache (and, for the
 * TypeScript sources, the type-stripped text) of each module it loads in this folder, so later
 * children skip most of the parsing and compiling of their 1,100 to 3,000 modules (Node API docs,
 * "Module compile cache"; an entry is checked against its source, so a stale one is only a miss).
 * Test-only: the product never sets it.
 */
export const COMPILE_CACHE_ENV = { NODE_COMPILE_CACHE: path.join(ROOT, 'node_modules/.cache/node-compile-cache') };

/**
 * PGlite: writes the suite's migrated snapshot into `<dataDir>/pglite`, so a child started on
 * that folder opens a migrated database instead of running initdb and every migration (several
 * seconds each time). Only the first-start test (test/production/startup.test.ts) needs an empty folder.
 */
export async function migratedDataFolder(dataDir: string): Promise<void> {
  const snapshot = await pgliteSnapshot();
  const handle = createDatabase({ dataDir, ...(snapshot ? { loadDataDir: snapshot } : {}) });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}
