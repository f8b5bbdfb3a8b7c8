/**
 * The retention schedule (docs/gdpr.md "Retention"): GET/PUT /api/gdpr/retention read and set the
 * agency's period of each record kind (RETENTION_KINDS: a statutory minimum cannot be shortened),
 * and the periodic task `gdpr.retention` (daily) applies them: it releases the records erasures
 * kept once their retention ends, deletes the message log and ended sessions older than their
 * periods, and deletes the photos and documents of jobs closed longer ago than the repair period.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { AppError } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { PeriodicTask } from '../../../events/index.ts';
import { addMonths, londonDate, londonToUtc } from '../../../lib/london-time.ts';
import { releaseVatParticulars } from '../../money/landlords/index.ts';
import * as repo from './retention.repository.ts';
import { RETENTION_KINDS, retentionKind } from './retention.ts';

/** One kind of the agency's schedule, as GET /api/gdpr/retention answers. */
export interface RetentionEntry {
  record_kind: string;
  title: string;
  /** The agency's period in months. */
  months: number;
  default_months: number;
  /** True when the law sets the default (the period may be lengthened, never shortened). */
  statutory: boolean;
  source: string;
  applies_to: string;
  /** False while the default applies. */
  set_by_agency: boolean;
}

/** The agency's period of one kind in months (its own, else the default). */
export async function retentionMonths(db: DbOrTrx, agencyId: number, kind: string): Promise<number> {
  const own = (await repo.periodsOf(db, agencyId)).find((p) => p.record_kind === kind);
  return own?.months ?? retentionKind(kind)!.months;
}

async function scheduleOf(db: DbOrTrx, agencyId: number): Promise<RetentionEntry[]> {
  const own = new Map((await repo.periodsOf(db, agencyId)).map((p) => [p.record_kind, p.months]));
  return RETENTION_KINDS.map((k) => ({
    record_kind: k.key, title: k.title, months: own.get(k.key) ?? k.months, default_months: k.months, statutory: k.statutory,
    source: k.source, applies_to: k.applies_to, set_by_agency: own.has(k.key),
  }));
}

/**
 * GET /api/gdpr/retention: the caller's agency's schedule, every kind with its period and source.
 * @throws 403 for callers without an agency (SysOps)
 */
export async function getRetention(deps: AppDeps, auth: AuthContext): Promise<RetentionEntry[]> {
  return scheduleOf(deps.db, writeAgency(auth));
}

/**
 * PUT /api/gdpr/retention: sets periods (months, 0-1200) of some kinds; logged as `gdpr.retention_update`.
 * @param periods { record_kind, months }[]
 * @returns the whole schedule afterwards
 * @throws 400 unknown kind, a kind twice, or a statutory kind below its minimum; 403 without an agency
 */
export async function setRetention(deps: AppDeps, auth: AuthContext, actor: Actor, periods: Array<{ record_kind: string; months: number }>): Promise<RetentionEntry[]> {
  const agencyId = writeAgency(auth);
  const seen = new Set<string>();
  for (const p of periods) {
    const kind = retentionKind(p.record_kind);
    if (!kind) throw new AppError('bad_request', `record_kind must be one of ${RETENTION_KINDS.map((k) => k.key).join(', ')}`);
    if (seen.has(p.record_kind)) throw new AppError('bad_request', `${p.record_kind} is given twice`);
    seen.add(p.record_kind);
    if (kind.statutory && p.months < kind.months) {
      throw new AppError('bad_request', `${p.record_kind} must be kept at least ${kind.months} months (${kind.source})`);
    }
  }
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    for (const p of periods) await repo.upsertPeriod(trx, { agency_id: agencyId, record_kind: p.record_kind, months: p.months, updated_by_user_id: auth.userId, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'gdpr.retention_update', resourceType: 'agency', resourceId: agencyId, agencyId, details: { periods } });
  });
  return scheduleOf(deps.db, agencyId);
}

/** The instant `months` before the start of London day `today`. */
function cutoff(today: string, months: number): Date {
  return londonToUtc(addMonths(today, -months));
}

/** What one run of the task did (counts only). */
export interface RetentionRun {
  released: number;
  message_log_deleted: number;
  sessions_deleted: number;
  files_deleted: number;
}

/**
 * Applies every agency's schedule once (the `gdpr.retention` task): safe to run again.
 * @returns counts of what was released and deleted
 */
export async function applyRetention(deps: AppDeps): Promise<RetentionRun> {
  const now = deps.clock.now();
  const today = londonDate(now);
  const run: RetentionRun = { released: 0, message_log_deleted: 0, sessions_deleted: 0, files_deleted: 0 };
  await deps.db.transaction().execute(async (trx) => {
    for (const r of await repo.dueRetained(trx, today)) {
      if (r.table_name === 'job_hazards') await repo.releaseHazardSummary(trx, r.record_id);
      if (r.table_name === 'landlord_restricted_particulars') await releaseVatParticulars(trx, r.record_id);
      await repo.markReleased(trx, r.id, now);
      run.released += 1;
    }
  });
  for (const agencyId of await repo.agencyIds(deps.db)) {
    const months = new Map((await scheduleOf(deps.db, agencyId)).map((e) => [e.record_kind, e.months]));
    run.message_log_deleted += await repo.deleteMessageLog(deps.db, agencyId, cutoff(today, months.get('message_log')!));
    run.sessions_deleted += await repo.deleteEndedSessions(deps.db, agencyId, cutoff(today, months.get('sessions')!));
    const files = await repo.filesOfOldJobs(deps.db, agencyId, cutoff(today, months.get('repair_records')!), 500);
    for (const f of files) await deps.files.delete(f.storage_key);
    await repo.markFilesDeleted(deps.db, files.map((f) => f.id), now);
    run.files_deleted += files.length;
  }
  return run;
}

/** The daily task applying the retention schedule (docs/gdpr.md "Retention"). */
export const retentionTask: PeriodicTask = {
  name: 'gdpr.retention',
  cron: '40 2 * * *',
  run: async (deps, log) => {
    const run = await applyRetention(deps);
    log?.info({ ...run }, 'retention applied');
  },
};
