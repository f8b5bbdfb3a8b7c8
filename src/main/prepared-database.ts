/**
 * The migrated embedded database prepared at install (docs/onboarding.md, "First start"): `npm
 * install` (the `prepare` script, scripts/database-prepare.js) creates a PGlite cluster in a temporary folder,
 * applies every migration, installs the queue's schema with every queue, subscription and schedule
 * (pg-boss, src/events/worker.ts `installQueues`), stops it and writes its data folder as a gzipped tarball
 * with a manifest (the PGlite version and the migrations it holds) under `prepared/`. A first start on an empty
 * CARETAKER_DATA_DIR loads that copy instead of running initdb and every migration, and then
 * applies only the migrations added since. A copy made by another PGlite version, or holding a
 * migration this build does not know, is not used (the start creates the database as before).
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openPglite } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { migrations } from '../db/migrations/index.ts';
import type { Database } from '../db/schema.ts';
import { loadConfig } from '../config/config.ts';
import { createBoss } from '../events/queue.ts';
import { installQueues } from '../events/worker.ts';
import { backgroundHandlers, periodicTasks } from './background.ts';

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
 * @returns the tarball's path, the tarball as a Blob (read when asked for) and the number of
 *   migrations it holds, or undefined (another PGlite, or migrations that are not this build's
 *   first ones)
 */
export function preparedDatabase(dir = PREPARED_DIR): { file: string; readonly blob: Blob; migrations: number } | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    if (manifest.pglite !== pgliteVersion()) return undefined;
    // Usable only when its migrations are the first of this build's, in order: the rest then apply
    // after them (a copy that lacks one sorting before its last would be refused by the migrator).
    const known = Object.keys(migrations).sort();
    if (![...manifest.migrations].sort().every((name, i) => known[i] === name)) return undefined;
    const file = path.join(dir, TARBALL);
    if (!existsSync(file)) return undefined;
    return {
      file,
      get blob() {
        return new Blob([readFileSync(file)]);
      },
      migrations: manifest.migrations.length,
    };
  } catch {
    return undefined;
  }
}

/**
 * Unpacks the prepared copy into a new PGlite data folder, which PGlite then opens as it opens an
 * existing database: about as fast as a restart, where loading the tarball through PGlite
 * (`loadDataDir`) copied it through the WebAssembly heap and kept about 100 MiB more resident.
 * The files go to `<folder>.unpacking` first and that folder is renamed into place at the end, so
 * an interrupted first start leaves no half database behind.
 * Each entry is written synchronously as the tarball yields it, and gunzip works in 1 MiB chunks:
 * the copy is about 2,000 files (49 MiB), and an asynchronous mkdir, open, write and close per file
 * through libuv's thread pool, behind 16 KiB chunks, took 2-4 s of CPU here where this takes
 * 0.4 s (bench/README.md, "Starting"). Nothing else runs during a first start's database phase.
 * @param file the gzipped tarball (preparedDatabase().file)
 * @param pgliteDir the data folder to create (missing or empty)
 * @throws when the tarball cannot be read or the folder written (the caller falls back to loadDataDir)
 */
export async function unpackPreparedDatabase(file: string, pgliteDir: string): Promise<void> {
  const partial = `${pgliteDir}.unpacking`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true, mode: 0o700 });
  const folders = new Set([partial]);
  const makeFolder = (folder: string, mode: number): void => {
    if (folders.has(folder)) return;
    mkdirSync(folder, { recursive: true, mode });
    folders.add(folder);
  };
  const entries = extract();
  entries.on('entry', (header, stream, next) => {
    const target = path.join(partial, path.normalize(`/${header.name}`));
    const chunks: Buffer[] = [];
    stream.on('data', (c) => chunks.push(c as Buffer));
    stream.on('end', () => {
      try {
        if (header.type === 'directory') makeFolder(target, header.mode ?? 0o700);
        else if (header.type === 'file') {
          makeFolder(path.dirname(target), 0o700);
          writeFileSync(target, Buffer.concat(chunks), { mode: header.mode ?? 0o600 });
        }
        next();
      } catch (error) {
        next(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
  await pipeline(createReadStream(file), createGunzip({ chunkSize: 1 << 20 }), entries);
  if (existsSync(pgliteDir)) {
    if (readdirSync(pgliteDir).length > 0) throw new Error(`${pgliteDir} is not empty`);
    rmdirSync(pgliteDir);
  }
  renameSync(partial, pgliteDir);
}

/**
 * Writes the PGlite data folder `folder` as a gzipped tarball at `file`, in the layout PGlite's
 * `dumpDataDir` writes and its `loadDataDir` reads (each entry named `/<path inside the folder>`,
 * directories before what they hold), so unpackPreparedDatabase and PGlite's own loader both read it.
 */
async function packDataFolder(folder: string, file: string): Promise<void> {
  const tarball = pack();
  const written = pipeline(tarball, createGzip(), createWriteStream(file));
  const add = (rel: string): void => {
    for (const entry of readdirSync(path.join(folder, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const name = `${rel}/${entry.name}`;
      // Owner-only, as PostgreSQL keeps its data folder.
      if (entry.isDirectory()) {
        tarball.entry({ name, type: 'directory', mode: 0o700 });
        add(name);
      } else if (entry.isFile()) {
        tarball.entry({ name, type: 'file', mode: 0o600 }, readFileSync(path.join(folder, name)));
      }
    }
  };
  add('');
  tarball.finalize();
  await written;
}

/**
 * Makes the prepared copy: a PGlite cluster in a temporary folder beside the copy, every migration
 * and the queue's schema, closed (a clean shutdown), its data folder written as the tarball.
 * Closed before it is written, the copy opens as a restart does. Written from the running cluster
 * (`dumpDataDir`), it was a database that had not been shut down: every first start replayed the
 * migrations' write-ahead log (about 8 MiB) and wrote a checkpoint before its first query
 * (bench/README.md, "Starting, 2026-12-07").
 * @param dir where to write it (default PREPARED_DIR)
 * @returns the tarball's path and size in bytes
 */
export async function prepareDatabase(dir = PREPARED_DIR): Promise<{ file: string; bytes: number; migrations: number }> {
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(path.join(dir, '.preparing-'));
  try {
    // Nothing waits for the disk while the copy is made (`fsync=off`: a crash leaves no copy, the
    // folder is removed below); PostgreSQL still writes every page at the shutdown checkpoint.
    const pglite = openPglite(work, undefined, { fsync: 'off' });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    let applied: string[];
    try {
      applied = await migrateToLatest(db);
      // The queue's tables and queues with the default settings (a start with other settings updates
      // the queues it finds different): a first start then only checks them.
      const boss = await createBoss(loadConfig({}), { db, engine: 'pglite', pglite });
      await boss.start();
      await installQueues(boss, loadConfig({}), backgroundHandlers(), periodicTasks());
      await boss.stop({ graceful: false, close: false });
    } finally {
      // Closes PGlite: PostgreSQL's shutdown checkpoint, the data folder left as a stopped server's.
      await db.destroy();
    }
    const file = path.join(dir, TARBALL);
    await packDataFolder(path.join(work, 'pglite'), `${file}.partial`);
    renameSync(`${file}.partial`, file);
    const manifest: Manifest = { pglite: pgliteVersion(), migrations: applied, created_at: new Date().toISOString() };
    writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return { file, bytes: statSync(file).size, migrations: applied.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
