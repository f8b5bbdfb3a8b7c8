/**
 * `caretaker restore --from DIR` (docs/operations.md "Restore"): puts a backup made by
 * `caretaker backup` back in place of the embedded database and its files, with the server
 * stopped. What was there is moved aside (`pglite.before-restore-<time>`), never deleted. The
 * restored database's row counts and every file's SHA-256 are checked against the manifest.
 */
import { readFile, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../../config/config.ts';
import { createDatabase, openPglite } from '../../../db/database.ts';
import { createFileStore, LocalFileStore } from '../../../storage/index.ts';
import { tableCounts } from './backups.repository.ts';
import { copyFiles, countLines, hashFile, type BackupManifest } from './snapshot.ts';

type Print = (line: string) => void;

/** Reads and checks a backup folder's manifest and database file. */
export async function readBackup(dir: string): Promise<{ manifest: BackupManifest; tarball: Buffer } | string> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch (e) {
    return `${dir} is not a backup made by caretaker backup (${(e as Error).message})`;
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

/** Moves `dir` aside when it exists and holds anything; returns where it went. */
async function moveAside(dir: string, stamp: string): Promise<string | undefined> {
  const entries = await readdir(dir).catch(() => []);
  if (entries.length === 0) return undefined;
  const aside = `${dir}.before-restore-${stamp}`;
  await rename(dir, aside);
  return aside;
}

/**
 * Runs the restore.
 * @param opts.url the server's base URL: the restore refuses while something answers there
 * @returns exit code: 0 restored and checked; 1 a bad backup, a running server, or a count or
 *   file that differs after the restore; 2 wrong use (PostgreSQL)
 */
export async function restoreCommand(config: Readonly<Config>, opts: { from: string; url: string }, out: Print, err: Print): Promise<number> {
  if (config.databaseUrl) {
    err('caretaker: the database is PostgreSQL: restore it with pg_restore (docs/operations.md "Restore")');
    return 2;
  }
  const backup = await readBackup(opts.from);
  if (typeof backup === 'string') {
    err(`caretaker: ${backup}`);
    return 1;
  }
  if (await serverAnswers(opts.url)) {
    err(`caretaker: a server answers at ${opts.url}: stop it first (the embedded database has one owner)`);
    return 1;
  }
  const { manifest, tarball } = backup;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dbDir = path.join(config.dataDir, 'pglite');
  const movedDb = await moveAside(dbDir, stamp);
  if (movedDb) out(`The current database moved to ${movedDb}`);
  const store = createFileStore(config, path.join(config.dataDir, 'files'));
  if (store.driver === 'local') {
    const movedFiles = await moveAside(path.join(config.dataDir, 'files'), stamp);
    if (movedFiles) out(`The current files moved to ${movedFiles}`);
  }

  const restored = createDatabase({ pglite: openPglite(config.dataDir, new Blob([tarball])) });
  let differing: number;
  try {
    const counts = countLines(await tableCounts(restored.db), manifest.tables, ['restore', 'backup']);
    differing = counts.differing;
    out(`Database restored from ${manifest.created_at} (${manifest.migrations.length} migrations) into ${dbDir}`);
    for (const line of counts.lines) (counts.differing > 0 ? err : out)(line);
  } finally {
    await restored.close();
  }
  const target = createFileStore(config, path.join(config.dataDir, 'files'));
  const { copied, problems } = await copyFiles(new LocalFileStore(path.join(opts.from, 'files')), target, manifest.files);
  out(`Files: ${copied.length} of ${manifest.files.length} restored to ${target.driver} storage, each hash verified.`);
  for (const p of problems) err(`  ${p.key}: ${p.problem}`);
  if (differing > 0 || problems.length > 0) {
    err('caretaker: the restore differs from the backup (see above)');
    return 1;
  }
  out('Restore complete. Start the server.');
  return 0;
}
