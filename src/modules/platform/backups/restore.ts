/**
 * `caretaker restore --from DIR` (docs/operations.md "Restore"): puts a backup made by
 * `caretaker backup` back in place of the embedded database and its files, with the server
 * stopped, all or nothing:
 * 1. everything is read and checked before anything there is touched: the manifest, the database
 *    tarball's and every file's SHA-256, the tarball opened in memory with its row counts and its
 *    migrations (all known to this build);
 * 2. the new database and files are built in a staging folder inside CARETAKER_DATA_DIR, checked
 *    again there, and every credential of the backup is ended in it (a token revoked after the
 *    backup stays revoked);
 * 3. only then is what was there moved aside (`pglite.before-restore-<time>`, never deleted) and
 *    the staged copy renamed into place; a failure at any step puts the previous data back and
 *    says what failed and where the kept copy is.
 * The database marker (src/db/data-marker.ts) is written last.
 */
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../../config/config.ts';
import { createDatabase, openPglite } from '../../../db/database.ts';
import { migrations as knownMigrations } from '../../../db/migrations/index.ts';
import { writeDatabaseMarker } from '../../../db/data-marker.ts';
import { createFileStore, LocalFileStore } from '../../../storage/index.ts';
import { appliedMigrations, endAllCredentials, tableCounts } from './backups.repository.ts';
import { checkFiles, copyFiles, countLines, hashFile, type BackupManifest } from './snapshot.ts';

type Print = (line: string) => void;

/** An error's text, never empty (PGlite aborts with an empty message). */
function describe(e: unknown): string {
  if (e instanceof Error) return e.message || `${e.name} without a message`;
  return String(e) || 'unknown error';
}

/** Reads and checks a backup folder's manifest and database file. */
export async function readBackup(dir: string): Promise<{ manifest: BackupManifest; tarball: Buffer } | string> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch (e) {
    return `${dir} is not a backup made by caretaker backup (${describe(e)})`;
  }
  if (!manifest?.database?.file || !Array.isArray(manifest.files) || !Array.isArray(manifest.migrations) || typeof manifest.tables !== 'object') {
    return `${path.join(dir, 'manifest.json')} is not a caretaker backup manifest (database, files, migrations or tables missing)`;
  }
  const file = path.join(dir, manifest.database.file);
  const digest = await hashFile(file).catch(() => undefined);
  if (!digest) return `${file} is missing`;
  if (digest.sha256 !== manifest.database.sha256) return `${file} differs from the manifest (sha256 ${digest.sha256}, recorded ${manifest.database.sha256})`;
  return { manifest, tarball: await readFile(file) };
}

/** True when something answers the liveness probe at `url`. */
async function serverAnswers(url: string): Promise<boolean> {
  try {
    await fetch(`${url.replace(/\/+$/, '')}/livez`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** Whether `dir` exists and holds anything. */
async function holdsAnything(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [])).length > 0;
}

/**
 * Opens a database tarball (in memory, or into `dir`), and checks its migrations and row counts.
 * @returns the problem, or undefined when it opens and matches
 */
async function openAndCheck(
  tarball: Buffer,
  manifest: BackupManifest,
  dir: string,
  atOpen?: (db: ReturnType<typeof createDatabase>['db']) => Promise<void>,
): Promise<{ problem: string; lines?: string[] } | undefined> {
  let handle: ReturnType<typeof createDatabase> | undefined;
  try {
    handle = createDatabase({ pglite: openPglite(dir, new Blob([tarball])) });
    const applied = await appliedMigrations(handle.db);
    const unknown = applied.filter((m) => !(m in knownMigrations));
    if (unknown.length > 0) return { problem: `the backup was made by a newer release: its migrations ${unknown.join(', ')} are unknown to this build (install that release, then restore)` };
    const counts = countLines(await tableCounts(handle.db), manifest.tables, ['copy', 'manifest']);
    if (counts.differing > 0) return { problem: 'the database copy\'s row counts differ from the manifest', lines: counts.lines };
    await atOpen?.(handle.db);
    return undefined;
  } catch (e) {
    return { problem: `the database copy ${manifest.database.file} cannot be opened (${describe(e)})` };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Runs the restore.
 * @param opts.url the server's base URL: the restore refuses while something answers there
 * @returns exit code: 0 restored and checked; 1 a bad backup, a running server, or a failure while
 *   putting it in place (the previous data is then back where it was); 2 wrong use (PostgreSQL)
 */
export async function restoreCommand(config: Readonly<Config>, opts: { from: string; url: string }, out: Print, err: Print): Promise<number> {
  if (config.databaseUrl) {
    err('caretaker restore: the database is PostgreSQL: restore it with pg_restore (docs/operations.md "Restore")');
    return 2;
  }
  const untouched = 'nothing was changed';
  const dbDir = path.join(config.dataDir, 'pglite');
  const filesDir = path.join(config.dataDir, 'files');

  // A running server refuses the restore at once, before the backup is read and opened (seconds
  // of work on a large backup); it is asked again below, just before anything is touched.
  const running = `caretaker restore: a server answers at ${opts.url}: stop it first (the embedded database has one owner); ${untouched}`;
  if (await serverAnswers(opts.url)) {
    err(running);
    return 1;
  }

  // 1. Read and check everything; nothing there is touched yet.
  const backup = await readBackup(opts.from);
  if (typeof backup === 'string') {
    err(`caretaker restore: ${backup}; ${untouched}`);
    return 1;
  }
  const { manifest, tarball } = backup;
  const backupFiles = new LocalFileStore(path.join(opts.from, 'files'));
  const fileProblems = await checkFiles(backupFiles, manifest.files);
  if (fileProblems.length > 0) {
    for (const p of fileProblems) err(`  ${p.key}: ${p.problem}`);
    err(`caretaker restore: ${fileProblems.length} of the backup's ${manifest.files.length} files in ${path.join(opts.from, 'files')} are missing or differ from the manifest (above); ${untouched}`);
    return 1;
  }
  const inMemory = await openAndCheck(tarball, manifest, 'memory://');
  if (inMemory) {
    for (const line of inMemory.lines ?? []) err(line);
    err(`caretaker restore: ${inMemory.problem}; ${untouched}`);
    return 1;
  }
  out(`Backup of ${manifest.created_at} checked: the database copy opens (${manifest.migrations.length} migrations, row counts as recorded), ${manifest.files.length} files with their SHA-256.`);
  if (await serverAnswers(opts.url)) {
    err(running);
    return 1;
  }

  // 2. Build the new database and files in a staging folder beside the current ones.
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const staging = path.join(config.dataDir, `restoring-${stamp}`);
  const stagedFiles = path.join(staging, 'files');
  const store = createFileStore(config, filesDir);
  const local = store.driver === 'local';
  const fail = async (what: string, extra: string[] = []): Promise<number> => {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    for (const line of extra) err(line);
    err(`caretaker restore: ${what}`);
    return 1;
  };
  let ended = { tokens: 0, links: 0 };
  try {
    await mkdir(staging, { recursive: true });
    const staged = await openAndCheck(tarball, manifest, staging, async (db) => {
      // Every credential of the backup ends: a token revoked after it must not work again.
      ended = await endAllCredentials(db, new Date());
    });
    if (staged) return await fail(`${staged.problem} (staged in ${staging}); ${untouched}`, staged.lines);
    // Local storage: staged too. S3: the backup's objects are written to the bucket now; a stored
    // file's key is never reused for other content, so this adds objects and changes none.
    // The staged folder exists even when the backup holds no file: step 3 moves it into place.
    if (local) await mkdir(stagedFiles, { recursive: true });
    const target = local ? new LocalFileStore(stagedFiles) : store;
    const { problems } = await copyFiles(backupFiles, target, manifest.files);
    if (problems.length > 0) return await fail(`${problems.length} file(s) could not be written to ${target.driver} storage as recorded; ${untouched}`, problems.map((p) => `  ${p.key}: ${p.problem}`));
  } catch (e) {
    return fail(`staging the restore in ${staging} failed (${describe(e)}); ${untouched}`);
  }

  // 3. Move what is there aside and the staged copy into place; undo on any failure.
  const moves: Array<{ from: string; to: string }> = [];
  const move = async (from: string, to: string) => {
    await rename(from, to);
    moves.push({ from, to });
  };
  try {
    const asideDb = `${dbDir}.before-restore-${stamp}`;
    if (await holdsAnything(dbDir)) await move(dbDir, asideDb);
    else await rm(dbDir, { recursive: true, force: true });
    if (local) {
      const asideFiles = `${filesDir}.before-restore-${stamp}`;
      if (await holdsAnything(filesDir)) await move(filesDir, asideFiles);
      else await rm(filesDir, { recursive: true, force: true });
    }
    await move(path.join(staging, 'pglite'), dbDir);
    if (local) await move(stagedFiles, filesDir);
    writeDatabaseMarker(config.dataDir, { at: new Date().toISOString(), how: 'restored', from: path.resolve(opts.from) });
  } catch (e) {
    const undone: string[] = [];
    const stuck: string[] = [];
    for (const m of moves.reverse()) {
      try {
        await rename(m.to, m.from);
        undone.push(m.from);
      } catch {
        stuck.push(`${m.from} is at ${m.to}`);
      }
    }
    const where = stuck.length === 0 ? 'the previous data is back in place' : `the previous data could not all be moved back: ${stuck.join('; ')}; move it back by hand`;
    return fail(`putting the restored copy in place failed (${describe(e)}); ${where}`);
  }
  await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  for (const m of moves) if (m.to.includes('.before-restore-')) out(`The previous ${m.from === dbDir ? 'database' : 'files'} kept at ${m.to}`);
  out(`Database restored from ${manifest.created_at} (${manifest.migrations.length} migrations) into ${dbDir}`);
  out(`Files: ${manifest.files.length} restored to ${store.driver} storage, each hash verified.`);
  out(`Credentials of the backup ended: ${ended.tokens} bearer token(s) and session(s), ${ended.links} unused invitation or reset link(s); everyone signs in again.`);
  out('Restore complete. Start the server.');
  return 0;
}
