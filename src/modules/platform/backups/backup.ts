/**
 * `caretaker backup --out DIR` (docs/operations.md "Backups"): a consistent backup of the embedded
 * database and the files it refers to, while the server runs.
 *
 * 1. The database: the running server's GET /api/system/backup/database (PGlite `dumpDataDir`,
 *    taken between two transactions; SysOps token in CARETAKER_TOKEN), or, with `--stopped`, the
 *    data folder read directly (only when no server has it open).
 * 2. The copy is opened in memory: its migrations, its row counts and the files it refers to go
 *    into manifest.json, so a backup that does not load is known at once.
 * 3. The files that copy refers to are copied from the file store (local folder or S3) into
 *    DIR/files, each checked against the SHA-256 the database recorded. Files are written before
 *    their rows and never changed, so every one the copy refers to is there; later uploads are
 *    simply not part of this backup.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../../config/config.ts';
import { createDatabase, openPglite } from '../../../db/database.ts';
import { createFileStore, LocalFileStore } from '../../../storage/index.ts';
import { recordedFiles } from '../storage/index.ts';
import { appliedMigrations, tableCounts } from './backups.repository.ts';
import { copyFiles, hashFile, type BackupManifest } from './snapshot.ts';

export interface BackupOptions {
  /** The backup folder (created; must be empty). */
  out: string;
  /** Base URL of the running server. */
  url: string;
  /** SysOps bearer token (CARETAKER_TOKEN). */
  token: string | undefined;
  /** The server is stopped: read the data folder directly. */
  stopped: boolean;
}

type Print = (line: string) => void;

/** Gets the database tarball from the running server, or a one-line reason. */
async function fromServer(opts: BackupOptions): Promise<Buffer | string> {
  const url = `${opts.url.replace(/\/+$/, '')}/api/system/backup/database`;
  let res: Response;
  try {
    res = await fetch(url, { headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} });
  } catch (e) {
    return `no server answers at ${opts.url} (${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}); when it is stopped, run again with --stopped`;
  }
  if (res.status !== 200) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    const hint = res.status === 401 ? ' (set CARETAKER_TOKEN to a SysOps bearer token)' : '';
    return `${url} answered ${res.status}: ${body.error ?? res.statusText}${hint}`;
  }
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Runs the backup.
 * @returns exit code: 0 done; 1 the database could not be read, or a file is missing or differs
 *   from its record; 2 wrong use (PostgreSQL, a non-empty folder)
 */
export async function backupCommand(config: Readonly<Config>, opts: BackupOptions, out: Print, err: Print): Promise<number> {
  if (config.databaseUrl) {
    err('caretaker: the database is PostgreSQL: back it up with pg_dump and check the dump with `caretaker verify-backup --dump FILE` (docs/operations.md "Backups")');
    return 2;
  }
  await mkdir(opts.out, { recursive: true });
  if ((await readdir(opts.out)).length > 0) {
    err(`caretaker: ${opts.out} is not empty; give a new folder`);
    return 2;
  }
  const startedAt = new Date();
  let tarball: Buffer;
  if (opts.stopped) {
    const pglite = openPglite(config.dataDir, undefined);
    try {
      await pglite.waitReady;
      tarball = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    } finally {
      await pglite.close();
    }
  } else {
    const got = await fromServer(opts);
    if (typeof got === 'string') {
      err(`caretaker: ${got}`);
      return 1;
    }
    tarball = got;
  }
  const dbFile = path.join(opts.out, 'database.tar.gz');
  await writeFile(dbFile, tarball);
  const digest = await hashFile(dbFile);
  out(`Database: ${dbFile} (${digest.bytes} bytes, sha256 ${digest.sha256.slice(0, 16)}...)`);

  const copy = createDatabase({ pglite: openPglite('memory://', new Blob([tarball])) });
  try {
    const [migrations, tables, files] = await Promise.all([appliedMigrations(copy.db), tableCounts(copy.db), recordedFiles(copy.db)]);
    out(`The copy opens: ${migrations.length} migrations, ${Object.keys(tables).length} tables, ${Object.values(tables).reduce((a, b) => a + b, 0)} rows, ${files.length} files referred to.`);
    const store = createFileStore(config, path.join(config.dataDir, 'files'));
    const { copied, problems } = await copyFiles(store, new LocalFileStore(path.join(opts.out, 'files')), files);
    const manifest: BackupManifest = {
      format: 1,
      created_at: startedAt.toISOString(),
      engine: 'pglite',
      caretaker_version: config.version,
      database: { file: 'database.tar.gz', bytes: digest.bytes, sha256: digest.sha256 },
      migrations,
      tables,
      files: copied,
    };
    await writeFile(path.join(opts.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    out(`Files: ${copied.length} copied from ${store.driver} storage, each hash verified.`);
    for (const p of problems) err(`  ${p.key}: ${p.problem}`);
    if (problems.length > 0) {
      err(`caretaker: ${problems.length} file(s) could not be backed up as recorded (run the file-integrity scan, docs/operations.md)`);
      return 1;
    }
    out(`Backup complete: ${path.join(opts.out, 'manifest.json')}`);
    return 0;
  } finally {
    await copy.close();
  }
}
