/**
 * `caretaker storage migrate --from local --to s3` (docs/operations.md "Moving files to S3"):
 * copies every file the database refers to from one backend to the other under the same key,
 * streaming, then re-reads the copy and checks its SHA-256 against the recorded one. Safe to
 * re-run: a copy already present with the right hash is skipped, a wrong one is copied again.
 * The source is never changed.
 */
import type { Db } from '../../../db/database.ts';
import { FileMissingError, hashStream, type FileStore } from '../../../storage/file-store.ts';
import { recordedFiles } from './storage.repository.ts';

export interface MigrateReport {
  total: number;
  copied: number;
  /** Already in the target with the recorded hash. */
  skipped: number;
  /** Keys that could not be copied and verified, with the reason. */
  failed: Array<{ key: string; reason: string }>;
}

async function hashOf(store: FileStore, key: string): Promise<string | undefined> {
  try {
    return (await hashStream(await store.open(key))).sha256;
  } catch (err) {
    if (err instanceof FileMissingError) return undefined;
    throw err;
  }
}

function progressLine(done: number, total: number, key: string, outcome: string): string {
  const width = 20;
  const share = total === 0 ? 1 : done / total;
  const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
  return `[${bar}] ${String(done).padStart(String(total).length)}/${total} ${String(Math.round(share * 100)).padStart(3)}% ${key} ${outcome}`;
}

/**
 * Copies and verifies every recorded file.
 * @param log receives one progress line per file
 * @returns the counts and the failures (the caller exits non-zero when there are any)
 * @throws StorageUnavailableError when either store cannot be reached at all
 */
export async function migrateFiles(db: Db, from: FileStore, to: FileStore, log: (line: string) => void): Promise<MigrateReport> {
  const entries = await recordedFiles(db);
  const report: MigrateReport = { total: entries.length, copied: 0, skipped: 0, failed: [] };
  log(`Copying ${entries.length} file(s) from ${from.driver} to ${to.driver}.`);
  let done = 0;
  for (const { key, sha256 } of entries) {
    done += 1;
    let outcome: string;
    try {
      const present = await hashOf(to, key);
      const expected = sha256 ?? (await hashOf(from, key));
      if (expected === undefined) {
        outcome = 'FAILED: missing in the source';
        report.failed.push({ key, reason: 'missing in the source' });
      } else if (present === expected) {
        outcome = 'already copied';
        report.skipped += 1;
      } else {
        const written = await to.putAt(key, await from.open(key));
        const copy = await hashOf(to, key);
        if (written.sha256 !== expected || copy !== expected) {
          outcome = 'FAILED: hash differs from the recorded one';
          report.failed.push({ key, reason: `hash ${copy ?? 'missing'} differs from the recorded ${expected}` });
        } else {
          outcome = 'copied, hash verified';
          report.copied += 1;
        }
      }
    } catch (err) {
      if (err instanceof FileMissingError) {
        outcome = 'FAILED: missing in the source';
        report.failed.push({ key, reason: 'missing in the source' });
      } else {
        outcome = `FAILED: ${(err as Error).message}`;
        report.failed.push({ key, reason: (err as Error).message });
      }
    }
    log(progressLine(done, entries.length, key, outcome));
  }
  log(`Done: ${report.copied} copied, ${report.skipped} already there, ${report.failed.length} failed.`);
  return report;
}
