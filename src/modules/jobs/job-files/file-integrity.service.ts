/**
 * The file-integrity scan (docs/security.md promise 16: "SHA-256 recorded and re-verified by the
 * file-integrity scan"): re-reads stored documents and photos, compares their SHA-256 with the
 * one recorded at upload, and records the outcome on each file (integrity, verified_at).
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import type { PeriodicTask } from '../../../events/index.ts';
import { FileMissingError, hashStream } from '../../../storage/file-store.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './job-files.repository.ts';
import type { ScanInput, ScanReportDto } from './job-files.schemas.ts';

export interface VerifyResult {
  status: 'ok' | 'mismatch' | 'missing';
  expected: string;
  /** SHA-256 of what is stored now; null when the bytes are missing. */
  actual: string | null;
}

/**
 * Re-reads one stored file (streamed, on either backend) and compares its SHA-256 with the
 * recorded one; records the outcome.
 * @param fileId job_files.id
 * @returns the outcome, or undefined when no such record exists
 * @throws 503 (StorageUnavailableError) when the store is down: nothing is recorded
 */
export async function verifyStoredFile(deps: AppDeps, fileId: number): Promise<VerifyResult | undefined> {
  const row = await repo.findStoredFile(deps.db, fileId);
  if (!row) return undefined;
  const expected = row.sha256.trim();
  let actual: string | null = null;
  try {
    actual = (await hashStream(await deps.files.open(row.storage_key))).sha256;
  } catch (err) {
    if (!(err instanceof FileMissingError)) throw err;
    actual = null;
  }
  const status = actual === null ? 'missing' : actual === expected ? 'ok' : 'mismatch';
  await repo.markIntegrity(deps.db, row.id, status, deps.clock.now());
  return { status, expected, actual };
}

const BATCH = 200;

/**
 * POST /api/security/file-integrity/scan: verifies every stored file in the caller's scope
 * (SysOps: all agencies; an agency admin: the agency's), or one page of them when `limit` is
 * given, and writes one activity entry with the counts.
 * @returns the report: counts, the problems found and the offset of the next page
 */
export async function scanFiles(deps: AppDeps, auth: AuthContext, actor: Actor, input: ScanInput): Promise<ScanReportDto> {
  const agencyId = isSysOps(auth) ? null : (auth.agencyId ?? -1);
  const report = await scanScope(deps, agencyId, input);
  await recordScan(deps, actor, agencyId, report);
  return report;
}

/**
 * Periodic task `storage.file_integrity_scan` (daily, 03:30 UTC, once per cluster through the
 * scheduler): verifies every stored job file on the configured backend and writes one activity
 * entry (user "system") with the counts. Idempotent: a re-run re-verifies and records again.
 */
export const fileIntegrityScanTask: PeriodicTask = {
  name: 'storage.file_integrity_scan',
  cron: '30 3 * * *',
  async run(deps) {
    const report = await scanScope(deps, null, {});
    await recordScan(deps, { auth: null, ip: '127.0.0.1' }, null, report, 'system');
  },
};

async function scanScope(deps: AppDeps, agencyId: number | null, input: ScanInput): Promise<ScanReportDto> {
  const onePage = input.limit !== undefined;
  let offset = input.offset ?? 0;
  const report: ScanReportDto = {
    total: 0, scanned: 0, ok: 0, mismatched: 0, missing: 0, next_offset: null, problems: [], scanned_at: deps.clock.now().toISOString(),
  };
  for (;;) {
    const limit = onePage ? input.limit! : BATCH;
    const { rows, total } = await repo.filesForScan(deps.db, agencyId, { limit, offset });
    report.total = total;
    for (const row of rows) {
      const result = await verifyStoredFile(deps, row.id);
      if (!result) continue;
      report.scanned += 1;
      if (result.status === 'ok') {
        report.ok += 1;
        continue;
      }
      if (result.status === 'mismatch') report.mismatched += 1;
      else report.missing += 1;
      report.problems.push({
        file_uuid: row.uuid, job_uuid: row.job_uuid, kind: row.kind, status: result.status, expected_sha256: result.expected, actual_sha256: result.actual,
      });
    }
    offset += rows.length;
    if (onePage) {
      report.next_offset = offset < total && rows.length > 0 ? offset : null;
      break;
    }
    if (rows.length < limit) break;
  }
  return report;
}

async function recordScan(deps: AppDeps, actor: Actor, agencyId: number | null, report: ScanReportDto, userName?: string): Promise<void> {
  await recordActivity(deps.db, actor, deps.clock.now(), {
    action: 'file_integrity.scan',
    resourceType: 'job_file',
    agencyId,
    ...(userName ? { userName } : {}),
    details: {
      scanned: report.scanned, ok: report.ok, mismatched: report.mismatched, missing: report.missing,
      problems: report.problems.slice(0, 50).map((p) => p.file_uuid),
    },
  });
}
