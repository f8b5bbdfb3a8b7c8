/**
 * What the backup commands share (docs/operations.md "Backups"): the manifest written beside a
 * backup, and copying stored files from one file store to another with their SHA-256 checked
 * against the database's record (the SQL is in backups.repository.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileStore } from '../../../storage/index.ts';

/** manifest.json of a backup folder. */
export interface BackupManifest {
  format: 1;
  /** ISO instant the database copy was taken. */
  created_at: string;
  engine: 'pglite';
  caretaker_version: string;
  database: { file: 'database.tar.gz'; bytes: number; sha256: string };
  /** Migrations applied in the copy, in order. */
  migrations: string[];
  /** Rows per table in the copy. */
  tables: Record<string, number>;
  /** Every stored file the copy refers to, with its size and SHA-256 (copied under files/). */
  files: Array<{ key: string; size: number; sha256: string }>;
}

/** SHA-256 (hex) and size of a file on disk. */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** One file that could not be copied as recorded. */
export interface FileProblem {
  key: string;
  problem: 'missing' | 'hash differs';
}

/**
 * Copies `files` from `from` to `to` (same keys), checking each copy's SHA-256 against the
 * expected one (when recorded).
 * @returns what was copied and what was missing or differed
 */
export async function copyFiles(
  from: FileStore,
  to: FileStore,
  files: ReadonlyArray<{ key: string; sha256: string | null }>,
): Promise<{ copied: Array<{ key: string; size: number; sha256: string }>; problems: FileProblem[] }> {
  const copied: Array<{ key: string; size: number; sha256: string }> = [];
  const problems: FileProblem[] = [];
  for (const f of files) {
    if ((await from.stat(f.key)) === undefined) {
      problems.push({ key: f.key, problem: 'missing' });
      continue;
    }
    const written = await to.putAt(f.key, await from.open(f.key));
    if (f.sha256 !== null && written.sha256 !== f.sha256) problems.push({ key: f.key, problem: 'hash differs' });
    else copied.push({ key: f.key, size: written.size, sha256: written.sha256 });
  }
  return { copied, problems };
}

/**
 * Hashes `files` in `store` and compares each with its expected SHA-256.
 * @returns the files missing or different
 */
export async function checkFiles(store: FileStore, files: ReadonlyArray<{ key: string; sha256: string | null }>): Promise<FileProblem[]> {
  const problems: FileProblem[] = [];
  for (const f of files) {
    if ((await store.stat(f.key)) === undefined) {
      problems.push({ key: f.key, problem: 'missing' });
      continue;
    }
    const hash = createHash('sha256');
    for await (const chunk of await store.open(f.key)) hash.update(chunk as Buffer);
    if (f.sha256 !== null && hash.digest('hex') !== f.sha256) problems.push({ key: f.key, problem: 'hash differs' });
  }
  return problems;
}

/**
 * Lines comparing row counts, one per table where they differ, plus a summary line.
 * @param left the backup's counts
 * @param right the other side's (the live database, or the manifest)
 */
export function countLines(left: Record<string, number>, right: Record<string, number>, names: [string, string]): { lines: string[]; differing: number } {
  const lines: string[] = [];
  const tables = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  let differing = 0;
  for (const t of tables) {
    if (left[t] === right[t]) continue;
    differing++;
    lines.push(`  ${t}: ${names[0]} ${left[t] ?? '(no table)'}, ${names[1]} ${right[t] ?? '(no table)'}`);
  }
  const rows = Object.values(left).reduce((a, b) => a + b, 0);
  lines.unshift(`Tables: ${tables.length}, rows in the ${names[0]}: ${rows}; ${differing === 0 ? `every count equals the ${names[1]}'s` : `${differing} differ from the ${names[1]}:`}`);
  return { lines, differing };
}
