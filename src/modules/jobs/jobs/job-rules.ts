/**
 * Shared rules of the job services (docs/jobs.md): who the caller is as a party, the
 * visible job by uuid (else 404), who may write (sharing gives read only), the wire shape with
 * field-level hiding for tenants, and `moveJob`, the one function that changes a job's status
 * (checked against lifecycle.ts, compare-and-set, history row and activity entry in the caller's
 * transaction).
 */
import type { Updateable } from 'kysely';
import type { AppDeps } from '../../../app-deps.ts';
import type { JobTable } from '../../../db/schema.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, notFound } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { jobScope, seesInternalFields, type JobScope } from './jobs.repository.ts';
import * as repo from './jobs.repository.ts';
import type { JobDto } from './jobs.schemas.ts';
import { findMove, illegalMoveMessage, STATUS, STATUS_NAMES, type Party, type Via } from './lifecycle.ts';
import { emitEvent } from '../../../events/index.ts';
import { jobObject } from './job-json.ts';
import { recomputeJobSla } from '../sla/index.ts';

/** The caller's party in the lifecycle map: contractor and tenant accounts, everyone else staff. */
export function partyOf(auth: AuthContext): Party {
  if (auth.contractorId !== null) return 'contractor';
  if (auth.tenantId !== null) return 'tenant';
  // A landlord login reads its properties' jobs and makes no move (docs/landlords.md "Landlord logins").
  if (auth.landlordId !== null) return 'landlord';
  return 'staff';
}


/** Wire shape of a job row (job-json.ts); costs, owning agent and hold origin left out for tenants. */
export function toJobDto(row: repo.JobRow, scope: JobScope): JobDto {
  return jobObject(row, seesInternalFields(scope));
}

/**
 * The job with this uuid as the caller may see it.
 * @throws 404 'Job not found' when missing, deleted or outside the caller's scope
 */
export async function visibleJob(db: DbOrTrx, auth: AuthContext, uuid: string): Promise<repo.JobRow> {
  const row = await repo.findJobByUuid(db, jobScope(auth), uuid);
  if (!row) throw notFound('Job');
  return row;
}

/**
 * The job as the caller sees it, as JobDto (after a write; the read is a prepared statement).
 * @throws 404 'Job not found' when missing or deleted
 */
export async function jobDtoById(db: DbOrTrx, auth: AuthContext, id: number): Promise<JobDto> {
  const scope = jobScope(auth);
  const row = await repo.findAnyJobById(db, id);
  if (!row) throw notFound('Job');
  return toJobDto(row, scope);
}

/**
 * Staff write rule (docs/jobs.md): SysOps any job, admins and API accounts their agency's, an
 * agent only its own branch's; a job of another branch seen through sharing is read only.
 * @throws 403 for a shared branch's job or for a non-staff caller
 */
export function assertStaffMayWrite(auth: AuthContext, job: { branch_id: number; agency_id: number }): void {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const scope = jobScope(auth);
  if (scope.kind === 'all') return;
  if (scope.kind === 'agency' && scope.agencyId === job.agency_id) return;
  if (scope.kind === 'branch' && scope.branchId === job.branch_id) return;
  throw forbidden('Jobs of a shared branch are read-only for you');
}

export interface MoveRequest {
  to: number;
  via: Via;
  note?: string | null | undefined;
  /** Extra columns to set with the move (assignment fields, for example). */
  set?: Updateable<JobTable>;
  /** Activity action, default `job.transition`. */
  action?: string;
  /** Same-status moves (reassignment) write no history row. */
}

/**
 * Moves a locked job to `req.to` inside the caller's transaction: checks the map (409 naming both
 * statuses), the endpoint (`via`), the caller's party (403) and write rights, sets status, the
 * move's date field, updated_at and hold origin with compare-and-set on the status, then writes a
 * history row (when the status changes) and the activity entry.
 * `auth` null is the system (SYSTEM_MOVER: a periodic task carrying out the agency's standing
 * instructions, docs/compliance.md "Planned maintenance"): it moves as staff of the job's own
 * agency, and the history row names no user.
 * @throws 409 illegal move or lost race, 403 party not allowed
 */
export async function moveJob(
  trx: DbOrTrx,
  auth: AuthContext | null,
  actor: Actor,
  now: Date,
  job: repo.LockedJob,
  req: MoveRequest,
): Promise<void> {
  const from = job.status_id;
  const move = findMove(from, req.to, req.via);
  if (!move) throw conflict(illegalMoveMessage(from, req.to));
  const viaOk = move.via === req.via || (req.via === 'transition' && move.via === 'resume');
  if (!viaOk) {
    const hint = move.via === 'assignment' ? 'POST /api/jobs/{uuid}/assignment' : move.via === 'booking' ? 'POST /api/jobs/{uuid}/assignment/booking'
      : move.via === 'missed' ? 'POST /api/jobs/{uuid}/visit/missed' : 'POST /api/jobs/{uuid}/assignment/decline';
    throw conflict(`${illegalMoveMessage(from, req.to)} here: use ${hint}`);
  }
  if (move.via === 'resume' && job.on_hold_from_status_id !== req.to) {
    const back = job.on_hold_from_status_id;
    throw conflict(`${illegalMoveMessage(from, req.to)}: it resumes to ${back === null ? 'its earlier status' : STATUS_NAMES[back]}`);
  }
  const party = auth === null ? 'staff' : partyOf(auth);
  if (!move.parties.includes(party)) throw forbidden(`You may not move this job from ${STATUS_NAMES[from]} to ${STATUS_NAMES[req.to]}`);
  if (auth !== null) {
    if (party === 'staff') assertStaffMayWrite(auth, job);
    if (party === 'contractor' && job.contractor_id !== auth.contractorId) throw forbidden();
    if (party === 'tenant' && job.tenant_id !== auth.tenantId && job.reported_by_user_id !== auth.userId) {
      throw forbidden('Only the tenant who reported the job may cancel it');
    }
  }
  const set: Updateable<JobTable> = {
    ...req.set,
    status_id: req.to,
    updated_at: now,
    on_hold_from_status_id: req.to === STATUS.onHold ? from : null,
  };
  if (move.sets) set[move.sets] = now;
  if (!(await repo.updateJobIfStatus(trx, job.id, from, set))) throw conflict(illegalMoveMessage(from, req.to));
  if (from !== req.to) {
    await repo.insertHistory(trx, { jobId: job.id, from, to: req.to, byUserId: auth?.userId ?? null, note: req.note ?? null, at: now });
  }
  if (from !== req.to) {
    await emitEvent(trx, now, { name: 'job.status_changed', agencyId: job.agency_id, payload: { ...jobRef(job), from_status_id: from, to_status_id: req.to } });
  }
  await recordActivity(trx, actor, now, {
    action: req.action ?? 'job.transition',
    resourceType: 'job',
    resourceId: job.id,
    agencyId: job.agency_id,
    details: { from_status_id: from, to_status_id: req.to },
  });
  await recomputeJobSla(trx, job.id, now);
}

/**
 * The fields every job event carries but its reference: for the `job.created` insert, which reads
 * the reference from the job's row (PayloadFill, src/events/outbox.repository.ts).
 */
export function jobIds(job: { id: number; uuid: string; branch_id: number }) {
  return { job_id: job.id, job_uuid: job.uuid, branch_id: job.branch_id };
}

/** The fields every job event carries (src/events/catalogue.ts). */
export function jobRef(job: { id: number; uuid: string; reference: string; branch_id: number }) {
  return { ...jobIds(job), reference: job.reference };
}

/**
 * Runs `fn` on the visible job locked in a transaction.
 * @throws 404 when the job is not visible; whatever fn throws (the transaction rolls back)
 */
export async function withLockedJob<T>(
  deps: AppDeps,
  auth: AuthContext,
  uuid: string,
  fn: (trx: DbOrTrx, job: repo.LockedJob, now: Date) => Promise<T>,
): Promise<{ id: number; result: T }> {
  const visible = await visibleJob(deps.db, auth, uuid);
  const now = deps.clock.now();
  const result = await deps.db.transaction().execute(async (trx) => {
    const job = await repo.lockJob(trx, visible.id);
    if (job.deleted_at !== null) throw notFound('Job');
    return fn(trx, job, now);
  });
  return { id: visible.id, result };
}
