/**
 * Jobs linked to jobs (docs/tenant-reporting.md "Duplicates" and "Recalls"): merging a duplicate
 * into the job kept (the duplicate is cancelled with a note; both keep their own history, notes
 * and files), reopening a completed repair within the agency's recall window as a recall (a new
 * job linked to the original, which lowers the contractor's first-time-fix rate), and the links
 * of a job.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { formatLondonDate } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { insertSystemNote } from '../job-notes/index.ts';
import { assertStaffMayWrite, createJob, getJob, jobRef, jobScope, lockJob, moveJob, partyOf, STATUS, visibleJob, type JobDto } from '../jobs/index.ts';
import * as repo from './reporting.repository.ts';
import type { JobLinksDto } from './reporting.schemas.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/**
 * POST /api/jobs/{uuid}/merge: merges the job (a duplicate) into `into_job_uuid`: the duplicate
 * moves to Cancelled with a note naming the job kept, the job kept gets a note naming the
 * duplicate, and the merge is recorded; nothing of either history is removed.
 * @returns the job kept
 * @throws 404 either job not visible, 403 not staff or a shared branch's job, 409 the same job,
 *   jobs of different properties, a duplicate already merged or that cannot be cancelled, or a
 *   job kept that is Closed or Cancelled
 */
export async function mergeJob(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, body: { into_job_uuid: string; note?: string | undefined }): Promise<JobDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const dup = await visibleJob(deps.db, auth, uuid);
  const kept = await visibleJob(deps.db, auth, body.into_job_uuid);
  if (dup.id === kept.id) throw conflict('A job cannot be merged into itself');
  if (dup.agency_id !== kept.agency_id) throw notFound('Job');
  assertStaffMayWrite(auth, dup);
  assertStaffMayWrite(auth, kept);
  if (dup.address_uuid !== kept.address_uuid) throw conflict('Only jobs at the same property can be merged');
  const now = deps.clock.now();
  const note = body.note?.trim() || null;
  await deps.db.transaction().execute(async (trx) => {
    // Lock in id order so two merges of the same pair cannot deadlock.
    const [a, b] = dup.id < kept.id ? [dup.id, kept.id] : [kept.id, dup.id];
    const locked = { [a]: await lockJob(trx, a), [b]: await lockJob(trx, b) };
    const d = locked[dup.id]!;
    const k = locked[kept.id]!;
    if (k.status_id === STATUS.closed || k.status_id === STATUS.cancelled) throw conflict(`${kept.reference} is ${k.status_id === STATUS.closed ? 'Closed' : 'Cancelled'}: merge into an open job`);
    if (await repo.isMerged(trx, d.id)) throw conflict(`${dup.reference} was already merged`);
    await moveJob(trx, auth, actor, now, d, { to: STATUS.cancelled, via: 'transition', note: `Merged into ${kept.reference}${note ? `: ${note}` : ''}`, action: 'job.merge' });
    await repo.insertMerge(trx, { agency_id: d.agency_id, kept_job_id: k.id, merged_job_id: d.id, by_user_id: auth.userId, note, created_at: now });
    await insertSystemNote(trx, { uuid: newUuid(), jobId: k.id, at: now, body: `${dup.reference} (${dup.title}) was merged into this job as a duplicate${note ? `: ${note}` : ''}. Its history stays on ${dup.reference}.` });
    await recordActivity(trx, actor, now, { action: 'job.merge', resourceType: 'job', resourceId: k.id, agencyId: k.agency_id, details: { merged_job_id: d.id } });
    await emitEvent(trx, now, { name: 'job.merged', agencyId: k.agency_id, payload: { ...jobRef(k), merged_job_id: d.id, merged_job_uuid: d.uuid } });
  });
  return getJob(deps, auth, kept.uuid);
}

/**
 * Links a job just raised as a recall of a completed job of the agency (inside the caller's
 * transaction) and emits `job.recalled`.
 * @throws 404 'Job not found' for an unknown original
 */
export async function recallJob(
  trx: DbOrTrx,
  actor: Actor,
  now: Date,
  r: { recall: { id: number; uuid: string; reference: string; branch_id: number }; originalUuid: string; agencyId: number; reason: string; userId: number },
): Promise<void> {
  const original = await repo.jobIdByUuid(trx, r.agencyId, r.originalUuid);
  if (!original) throw notFound('Job');
  await repo.insertRecall(trx, { job_id: r.recall.id, original_job_id: original.id, agency_id: r.agencyId, reason: cutGraphemes(r.reason, 2000), by_user_id: r.userId, created_at: now });
  await insertSystemNote(trx, { uuid: newUuid(), jobId: original.id, at: now, body: `Recalled: ${r.recall.reference} was raised because the repair failed again (${cutGraphemes(r.reason, 500)}).` });
  await recordActivity(trx, actor, now, { action: 'job.recall', resourceType: 'job', resourceId: r.recall.id, agencyId: r.agencyId, details: { original_job_id: original.id } });
  await emitEvent(trx, now, { name: 'job.recalled', agencyId: r.agencyId, payload: { ...jobRef(r.recall), original_job_id: original.id, original_job_uuid: original.uuid } });
}

/**
 * POST /api/jobs/{uuid}/recall: reopens a completed repair as a recall: a new job (Reported) at
 * the same property with the same tenant, trade, job type and priority, titled "Recall: ...",
 * linked to the original. Tenants may recall their own jobs.
 * @returns the recall job
 * @throws 404 job not visible, 403 contractors, 409 a job not yet completed, completed more than
 *   the agency's recall_days ago (report it as a new repair), or with a recall still open
 */
export async function reopenAsRecall(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, reason: string): Promise<JobDto> {
  if (partyOf(auth) === 'contractor') throw forbidden('Contractors cannot recall jobs');
  const job = await visibleJob(deps.db, auth, uuid);
  if (partyOf(auth) === 'tenant' && job.tenant_id !== auth.tenantId && job.reported_by_user_id !== auth.userId) throw forbidden('Only the job\'s tenant may recall it');
  if (partyOf(auth) === 'staff') assertStaffMayWrite(auth, job);
  if (job.completed_at === null || ![STATUS.completed, STATUS.invoiced, STATUS.closed].includes(job.status_id as 7 | 8 | 9)) {
    throw conflict('Only a completed repair can be recalled');
  }
  const { recall_days } = await repo.settingsOf(deps.db, job.agency_id);
  const now = deps.clock.now();
  const completedAt = new Date(job.completed_at);
  if (now.getTime() - completedAt.getTime() > recall_days * 86_400_000) {
    throw conflict(`${job.reference} was completed on ${formatLondonDate(completedAt)}, more than ${recall_days} days ago: report it as a new repair`);
  }
  const open = await repo.openRecallOf(deps.db, job.id);
  if (open) throw conflict(`${job.reference} already has an open recall, ${open.reference}`);
  const staff = partyOf(auth) === 'staff';
  const newUuidOf = await deps.db.transaction().execute(async (trx) => {
    const dto = await createJob(deps, trx, auth, actor, {
      title: cutGraphemes(`Recall: ${job.title}`, 200),
      priority: Math.min(job.priority, 2),
      job_type_id: job.job_type_id,
      trade_id: job.trade_id,
      description: `Recall of ${job.reference} (completed ${formatLondonDate(completedAt)}): ${reason.trim()}`,
      ...(job.address_uuid ? { address_uuid: job.address_uuid } : {}),
      ...(staff && job.tenant_uuid ? { tenant_uuid: job.tenant_uuid } : {}),
      ...(staff ? { branch_uuid: job.branch_uuid } : {}),
    });
    const row = (await repo.jobIdByUuid(trx, job.agency_id, dto.uuid))!;
    await recallJob(trx, actor, now, { recall: row, originalUuid: job.uuid, agencyId: job.agency_id, reason: reason.trim(), userId: auth.userId });
    return dto.uuid;
  });
  return getJob(deps, auth, newUuidOf);
}

/**
 * GET /api/jobs/{uuid}/links: what the job recalls or was merged into, its recalls and merged
 * duplicates; for staff also its guided reports and its survey answer.
 * @throws 404 job not visible
 */
export async function jobLinks(deps: AppDeps, auth: AuthContext, uuid: string): Promise<JobLinksDto> {
  const job = await visibleJob(deps.db, auth, uuid);
  const l = await repo.jobLinks(deps.db, job.id);
  const staff = jobScope(auth).kind !== 'tenant' && jobScope(auth).kind !== 'contractor';
  const linked = (x: { uuid: string; reference: string; title: string; status: string; created_at: Date } & ({ reason: string } | { note: string | null })) => ({
    uuid: x.uuid, reference: x.reference, title: x.title, status: x.status, note: 'reason' in x ? x.reason : x.note, at: x.created_at.toISOString(),
  });
  return {
    recall_of: l.recallOf ? linked(l.recallOf) : null,
    recalls: l.recalls.map(linked),
    merged_into: l.mergedInto ? linked(l.mergedInto) : null,
    merged: l.merged.map(linked),
    reports: staff ? l.reports.map((r) => ({ uuid: r.uuid, outcome: r.outcome, flow_name: r.flow_name, flow_version: r.flow_version, created_at: r.created_at.toISOString() })) : [],
    survey: staff && l.survey
      ? { rating: l.survey.rating, comment: l.survey.comment, answered_at: l.survey.answered_at?.toISOString() ?? null, expires_at: l.survey.expires_at.toISOString(), sent_at: l.survey.created_at.toISOString() }
      : null,
  };
}
