/**
 * `caretaker verify-backup` (docs/operations.md "Backups"): proves a backup restores.
 * - `--dump FILE` (PostgreSQL): restores a `pg_dump --format=custom` file with `pg_restore` into
 *   a scratch database on the same server (created, then dropped), compares its row counts and
 *   migrations with the live database, and hashes every file it refers to in the live file store
 *   against the SHA-256 it recorded.
 * - `--from DIR` (a `caretaker backup` folder): opens the database copy in memory, compares its
 *   row counts with the manifest and hashes every file under DIR/files against it.
 * The live database keeps changing after a dump, so differing counts are listed, not failed; a
 * restore that fails, a backup ahead of the live migrations, or a file missing or different fails.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../../../config/config.ts';
import { createDatabase, openPglite } from '../../../db/database.ts';
import { directUrl } from '../../../db/pooler.ts';
import { createFileStore, LocalFileStore } from '../../../storage/index.ts';
import { recordedFiles } from '../storage/index.ts';
import { appliedMigrations, createScratchDatabase, dropScratchDatabase, tableCounts } from './backups.repository.ts';
import { readBackup } from './restore.ts';
import { checkFiles, countLines, type FileProblem } from './snapshot.ts';

type Print = (line: string) => void;

/** Runs pg_restore into `url`; resolves with its exit code and stderr. */
function pgRestore(file: string, url: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

function reportFiles(total: number, problems: FileProblem[], where: string, out: Print, err: Print): void {
  out(`Files: ${total - problems.length} of ${total} present in ${where} with the recorded SHA-256.`);
  for (const p of problems) err(`  ${p.key}: ${p.problem}`);
}

/** `--dump FILE` on PostgreSQL. */
async function verifyDump(config: Readonly<Config>, file: string, out: Print, err: Print): Promise<number> {
  const name = `caretaker_verify_${randomBytes(6).toString('hex')}`;
  // Straight to PostgreSQL: a pooler knows no scratch database (src/db/pooler.ts).
  const direct = directUrl(config)!;
  const admin = new pg.Client({ connectionString: direct });
  await admin.connect();
  await createScratchDatabase(admin, name);
  const url = new URL(direct);
  url.pathname = `/${name}`;
  out(`Restoring ${file} into the scratch database ${name}`);
  const scratch = createDatabase({ databaseUrl: url.toString(), poolMax: 2 });
  const live = createDatabase({ databaseUrl: direct, poolMax: 2 });
  try {
    const restored = await pgRestore(file, url.toString());
    if (restored.code !== 0) {
      err(`caretaker: pg_restore failed (exit ${restored.code}): ${restored.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      return 1;
    }
    const [bm, lm] = await Promise.all([appliedMigrations(scratch.db), appliedMigrations(live.db)]);
    const ahead = bm.filter((m) => !lm.includes(m));
    out(`Migrations: backup ${bm.length}, live ${lm.length}${ahead.length ? `; the backup has ${ahead.join(', ')} the live database lacks` : ''}`);
    const counts = countLines(await tableCounts(scratch.db), await tableCounts(live.db), ['backup', 'live database']);
    for (const line of counts.lines) out(line);
    const files = await recordedFiles(scratch.db);
    const problems = await checkFiles(createFileStore(config, path.join(config.dataDir, 'files')), files);
    reportFiles(files.length, problems, 'the live file store', out, err);
    if (ahead.length > 0 || problems.length > 0) {
      err('caretaker: the backup does not verify (see above)');
      return 1;
    }
    out('Backup verified: it restores, and every file it refers to is in the file store as recorded.');
    return 0;
  } finally {
    await scratch.close();
    await live.close();
    await dropScratchDatabase(admin, name);
    await admin.end();
  }
}

/** `--from DIR`: a caretaker backup folder. */
async function verifyFolder(dir: string, out: Print, err: Print): Promise<number> {
  const backup = await readBackup(dir);
  if (typeof backup === 'string') {
    err(`caretaker: ${backup}`);
    return 1;
  }
  const copy = createDatabase({ pglite: openPglite('memory://', new Blob([backup.tarball])) });
  try {
    out(`Database copy of ${backup.manifest.created_at} opens (${(await appliedMigrations(copy.db)).length} migrations)`);
    const counts = countLines(await tableCounts(copy.db), backup.manifest.tables, ['copy', 'manifest']);
    for (const line of counts.lines) out(line);
    const problems = await checkFiles(new LocalFileStore(path.join(dir, 'files')), backup.manifest.files);
    reportFiles(backup.manifest.files.length, problems, path.join(dir, 'files'), out, err);
    if (counts.differing > 0 || problems.length > 0) {
      err('caretaker: the backup does not verify (see above)');
      return 1;
    }
    out('Backup verified.');
    return 0;
  } finally {
    await copy.close();
  }
}

/**
 * Runs the check.
 * @returns exit code: 0 verified; 1 it does not verify; 2 wrong use
 */
export async function verifyBackupCommand(config: Readonly<Config>, opts: { dump?: string; from?: string }, out: Print, err: Print): Promise<number> {
  if (opts.dump && opts.from) {
    err('caretaker: give --dump FILE (PostgreSQL) or --from DIR (caretaker backup), not both');
    return 2;
  }
  if (opts.dump) {
    if (!config.databaseUrl) {
      err('caretaker: --dump needs DATABASE_URL: the scratch database is made on that server');
      return 2;
    }
    return verifyDump(config, opts.dump, out, err);
  }
  if (opts.from) return verifyFolder(opts.from, out, err);
  err('caretaker: give --dump FILE (a pg_dump --format=custom file) or --from DIR (a caretaker backup folder)');
  return 2;
}
