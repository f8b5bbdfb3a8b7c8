/**
 * Keeping SLA clocks current (docs/sla.md): `recomputeJobSla` in the transaction of every job
 * change, `recomputeOpenJobs` in batches after a rule or agency setting changes, and
 * `announceFlagged` writing the `sla.at_risk` / `sla.breached` event and activity entry of each
 * clock that moved.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import type { Actor } from '../../../core/auth-context.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { planClocks, type AgencySettings, type ClockPlan, type JobInput } from './clock-engine.ts';
import * as clocks from './clocks.repository.ts';

/** The actor of entries written by the service itself (scan, recompute). */
export const SYSTEM_ACTOR: Actor = { auth: null, ip: '127.0.0.1' };

/** An agency's settings when its row is missing (never, in practice). */
const DEFAULT_SETTINGS: AgencySettings = { region: 'england-and-wales', atRiskPercent: 75 };

/** Jobs recomputed per transaction by recomputeOpenJobs. */
export const RECOMPUTE_BATCH = 500;

/**
 * Writes the `sla.<state>` event and `sla.<state>` activity entry of each clock that just moved.
 * @param state 'at_risk' or 'breached'
 */
export async function announceFlagged(trx: DbOrTrx, now: Date, state: 'at_risk' | 'breached', flagged: readonly clocks.FlaggedClock[]): Promise<void> {
  if (flagged.length === 0) return;
  const refs = await clocks.refsOf(trx, flagged);
  for (const c of flagged) {
    const job = refs.jobs.get(c.job_id);
    if (!job) continue;
    const payload = {
      job_id: job.id,
      job_uuid: job.uuid,
      reference: job.reference,
      branch_id: job.branch_id,
      clock_id: c.id,
      rule_uuid: refs.rules.get(c.rule_id) ?? '',
      due_at: new Date(c.due_at).toISOString(),
    };
    await emitEvent(trx, now, { name: state === 'at_risk' ? 'sla.at_risk' : 'sla.breached', agencyId: c.agency_id, payload });
    await recordActivity(trx, SYSTEM_ACTOR, now, {
      action: `sla.${state}`,
      resourceType: 'job',
      resourceId: job.id,
      agencyId: c.agency_id,
      userId: null,
      userName: 'system',
      details: { clock_id: c.id, rule_uuid: payload.rule_uuid, due_at: payload.due_at },
    });
  }
}

/**
 * Recomputes the clocks of some jobs inside the caller's transaction (locks the job rows), then
 * flags those of them that are at risk or breached, with their events.
 * @param jobIds job ids (deleted or unknown ids are skipped)
 * @param now the change's instant (UTC)
 * @param opts.announce false to flag without events and activity entries (loading history, such
 *   as the demo data, whose outcomes nobody needs to be told about); default true
 */
export async function recomputeJobs(trx: DbOrTrx, jobIds: readonly number[], now: Date, opts: { announce?: boolean } = {}): Promise<void> {
  const jobs = await clocks.loadJobs(trx, jobIds);
  if (jobs.length === 0) return;
  const ids = jobs.map((j) => j.id);
  const [history, rules, settings, existing] = await Promise.all([
    clocks.loadHistory(trx, ids),
    clocks.loadRules(trx, [...new Set(jobs.map((j) => j.branch_id))]),
    clocks.loadAgencySettings(trx, [...new Set(jobs.map((j) => j.agency_id))]),
    clocks.loadClocks(trx, ids),
  ]);
  const upserts: Array<ClockPlan & { job_id: number; agency_id: number; branch_id: number }> = [];
  const deletes: number[] = [];
  for (const job of jobs) {
    const agency = settings.get(job.agency_id) ?? DEFAULT_SETTINGS;
    const plan = planClocks(job, history.get(job.id) ?? [], rules.get(job.branch_id) ?? [], existing.get(job.id) ?? [], agency, now);
    for (const u of plan.upserts) upserts.push({ ...u, job_id: job.id, agency_id: job.agency_id, branch_id: job.branch_id });
    deletes.push(...plan.deleteIds);
  }
  await clocks.deleteClocks(trx, deletes);
  await clocks.upsertClocks(trx, upserts, now);
  const breached = await clocks.flagBreached(trx, now, 100_000, ids);
  const atRisk = await clocks.flagAtRisk(trx, now, 100_000, ids);
  if (opts.announce === false) return;
  await announceFlagged(trx, now, 'breached', breached);
  await announceFlagged(trx, now, 'at_risk', atRisk);
}

/**
 * Recomputes the SLA clocks of one job in the caller's transaction (docs/sla.md). The jobs module
 * calls it at every job change (create, edit, status move, assignment).
 * @param trx the job change's transaction
 * @param jobId the changed job
 * @param now the change's instant (UTC)
 */
export function recomputeJobSla(trx: DbOrTrx, jobId: number, now: Date): Promise<void> {
  return recomputeJobs(trx, [jobId], now);
}

/** The SLA clocks a new job starts with, planned before the job is written (planJobSla). */
export interface JobSlaStart {
  jobId: number;
  rows: clocks.ClockRow[];
  /** A clock is due already (a rule of zero days): flag and announce it after the writes. */
  breachedNow: boolean;
  /** A clock is at risk already. */
  atRiskNow: boolean;
}

/**
 * Plans the SLA clocks of a job about to be created: from the branch's rules and the agency's
 * settings (`inputs`, read with clocks.startInputsQuery), computes what recomputeJobSla would write
 * for the job's one history row at creation, without reading the job back.
 * @param job the new job as the engine reads it (its id already taken; every date but created_at null)
 * @param now the creation instant (UTC), also the first history row's time
 */
export function planJobSla(job: JobInput, inputs: clocks.StartInputs, now: Date): JobSlaStart {
  const { rules, settings } = inputs;
  if (rules.length === 0) return { jobId: job.id, rows: [], breachedNow: false, atRiskNow: false };
  const plan = planClocks(job, [{ to_status_id: job.status_id, created_at: now }], rules, [], settings ?? DEFAULT_SETTINGS, now);
  const t = now.getTime();
  return {
    jobId: job.id,
    rows: plan.upserts.map((u) => ({ ...u, job_id: job.id, agency_id: job.agency_id, branch_id: job.branch_id })),
    // The flags' own conditions (clocks.flagBreached, clocks.flagAtRisk), checked on the plan first.
    breachedNow: plan.upserts.some((u) => (u.state === 'running' || u.state === 'at_risk') && u.due_at.getTime() <= t),
    atRiskNow: plan.upserts.some((u) => u.state === 'running' && u.at_risk_at.getTime() <= t && u.due_at.getTime() > t),
  };
}

/** The statements writing the planned clocks (none without rules), to run after the job's insert. */
export function jobSlaWrites(trx: DbOrTrx, start: JobSlaStart, now: Date) {
  const out = [];
  for (let i = 0; i < start.rows.length; i += 500) out.push(clocks.upsertClocksQuery(trx, start.rows.slice(i, i + 500), now));
  return out;
}

/**
 * After the writes: flags and announces the new job's clocks that are already breached or at
 * risk (a rule of zero days), as recomputeJobSla does; nothing otherwise.
 */
export async function announceJobSlaStart(trx: DbOrTrx, start: JobSlaStart, now: Date): Promise<void> {
  if (start.breachedNow) await announceFlagged(trx, now, 'breached', await clocks.flagBreached(trx, now, 100_000, [start.jobId]));
  if (start.atRiskNow) await announceFlagged(trx, now, 'at_risk', await clocks.flagAtRisk(trx, now, 100_000, [start.jobId]));
}

/**
 * Recomputes the clocks of every open job of a branch or an agency, RECOMPUTE_BATCH jobs per
 * transaction (after a rule or an agency setting changed).
 * @returns the number of jobs recomputed
 */
export async function recomputeOpenJobs(deps: AppDeps, where: { branchId?: number; agencyId?: number }, batch = RECOMPUTE_BATCH): Promise<number> {
  let after = 0;
  let total = 0;
  for (;;) {
    const ids = await clocks.openJobIds(deps.db, where, after, batch);
    if (ids.length === 0) return total;
    await deps.db.transaction().execute((trx) => recomputeJobs(trx, ids, deps.clock.now()));
    total += ids.length;
    after = ids[ids.length - 1]!;
    if (ids.length < batch) return total;
  }
}

/**
 * One batch of the `sla.clocks` backfill (src/modules/platform/backfills): recomputes the clocks of up to
 * `batch` open jobs with an id above `afterId`, in one transaction, flagging clocks already at
 * risk or breached without announcing them (their moment passed before the upgrade; they show in
 * the breaches report).
 * @returns how many jobs were done and the last id (0 jobs: the backfill is complete)
 */
export async function backfillClocksBatch(deps: AppDeps, afterId: number, batch = RECOMPUTE_BATCH): Promise<{ count: number; lastId: number }> {
  const ids = await clocks.openJobIds(deps.db, {}, afterId, batch);
  if (ids.length === 0) return { count: 0, lastId: afterId };
  await deps.db.transaction().execute((trx) => recomputeJobs(trx, ids, deps.clock.now(), { announce: false }));
  return { count: ids.length, lastId: ids[ids.length - 1]! };
}

/** How many open jobs there are (not deleted, not closed or cancelled), over every agency. */
export async function countOpenJobs(deps: AppDeps): Promise<number> {
  return clocks.countOpenJobs(deps.db);
}
