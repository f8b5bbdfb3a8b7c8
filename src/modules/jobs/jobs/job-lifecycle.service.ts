/**
 * Lifecycle endpoints (docs/jobs.md): transitions, history, the status and type
 * catalogues, assignment to a contractor with an optional slot and date, and the contractor's
 * accept or decline. Every status change goes through `moveJob` (lifecycle.ts map).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { assertContractorAssignable } from '../../people/contractors/index.ts';
import { emitEvent } from '../../../events/index.ts';
import { assertStaffMayWrite, jobDtoById, jobRef, moveJob, partyOf, visibleJob, withLockedJob } from './job-rules.ts';
import { seesInternalFields, jobScope } from './jobs.repository.ts';
import * as repo from './jobs.repository.ts';
import type { AssignmentInput, BookingInput, JobDto, TransitionInput } from './jobs.schemas.ts';
import { movesFrom, STATUS, STATUS_NAMES } from './lifecycle.ts';
import { recomputeJobSla } from '../sla/index.ts';
import { bookTimedVisit, supersedeTimedVisit } from './visits.service.ts';

/**
 * POST /api/jobs/{uuid}/transitions: moves the job to `to_status_id` (lifecycle.ts), sets the
 * move's date field, writes history and activity in one transaction under a row lock.
 * @returns the job after the move
 * @throws 400 unknown status, 403 party or shared branch, 404 job, 409 illegal move (naming both
 *   statuses), a concurrent move that got there first, Invoiced without an issued invoice or
 *   Closed with a draft one
 */
export async function transitionJob(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: TransitionInput): Promise<JobDto> {
  if (!STATUS_NAMES[input.to_status_id]) throw invalidParam('to_status_id');
  const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    // After the move's own checks (party, legal move), so those answer first; the transaction
    // rolls the move back when the invoices do not allow it.
    const from = job.status_id;
    const moved = await moveJob(trx, auth, actor, now, job, { to: input.to_status_id, via: 'transition', note: input.note });
    await assertInvoicesAllow(trx, job.id, from, input.to_status_id);
    return moved;
  });
  return jobDtoById(deps.db, auth, id);
}

/**
 * The money rule of the last two moves (docs/jobs.md "Invoiced and Closed"): a Completed job
 * becomes Invoiced only with an issued invoice (issuing one moves it there by itself; resuming an
 * Invoiced job from On hold is not checked again), and no job is Closed while one of its invoices
 * is still a draft.
 * @throws 409 naming what to do first
 */
async function assertInvoicesAllow(trx: Parameters<typeof repo.invoiceStateOfJob>[0], jobId: number, from: number, to: number): Promise<void> {
  const checksIssued = to === STATUS.invoiced && from === STATUS.completed;
  if (!checksIssued && to !== STATUS.closed) return;
  const { drafts, issued } = await repo.invoiceStateOfJob(trx, jobId);
  if (checksIssued && issued === 0) throw conflict('A job becomes Invoiced when its invoice is issued: issue the invoice first');
  if (to === STATUS.closed && drafts > 0) throw conflict('Cannot close a job while its invoice is a draft: issue or void the invoice first');
}

/**
 * GET /api/jobs/{uuid}/history: the job's status moves, oldest first. Tenants get neither the
 * author nor the note of a move.
 * @throws 404 'Job not found'
 */
export async function jobHistory(deps: AppDeps, auth: AuthContext, uuid: string, page: { limit: number; offset: number }) {
  const job = await visibleJob(deps.db, auth, uuid);
  const internal = seesInternalFields(jobScope(auth));
  const { rows, total } = await repo.listHistory(deps.db, job.id, page);
  return {
    rows: rows.map((r) => ({
      ID: r.id,
      from_status_id: r.from_status_id,
      from_status: r.from_status,
      to_status_id: r.to_status_id,
      to_status: r.to_status,
      by_user_uuid: internal ? r.by_user_uuid : null,
      by_user_name: internal ? r.by_user_name : null,
      note: internal ? r.note : null,
      created_at: new Date(r.created_at).toISOString(),
    })),
    total,
  };
}

/** GET /api/jobs/statuses: every status with its allowed next statuses (lifecycle.ts). */
export async function listStatuses(deps: AppDeps) {
  const rows = await repo.listStatuses(deps.db);
  return rows.map((s) => ({
    ID: s.id,
    code: s.code,
    name: s.name,
    is_open: s.is_open,
    allowed_next: movesFrom(s.id).map((mv) => ({ status_id: mv.to, name: STATUS_NAMES[mv.to] ?? String(mv.to), parties: [...mv.parties], via: mv.via, sets: mv.sets })),
  }));
}

/** GET /api/jobs/types: the seeded job types. */
export async function listJobTypes(deps: AppDeps) {
  return (await repo.listJobTypes(deps.db)).map((t) => ({ ID: t.id, code: t.code, name: t.name }));
}

/**
 * POST /api/jobs/{uuid}/assignment: gives the job to a contractor (eligibility checked by
 * contractors/eligibility.ts) and moves it to Assigned, or Scheduled when a date is given; sets
 * assigned_at, scheduled_for and time_range_id and resets the contractor's acceptance.
 * Allowed from Approved, Assigned (reassign) and Scheduled (reassign or reschedule).
 * @returns the job after the assignment
 * @throws 400 time_range_id, 403 not staff or shared branch, 404 job or contractor, 409 illegal
 *   move or an ineligible contractor
 */
export async function assignJob(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: AssignmentInput): Promise<JobDto> {
  const current = await visibleJob(deps.db, auth, uuid);
  assertStaffMayWrite(auth, current);
  const contractor = await repo.findContractor(deps.db, input.contractor_uuid, current.agency_id);
  if (!contractor) throw notFound('Contractor');
  if (input.time_range_id !== undefined && !(await repo.findTimeRange(deps.db, input.time_range_id, current.agency_id))) throw invalidParam('time_range_id');
  const scheduledFor = input.scheduled_for ? new Date(`${input.scheduled_for}T00:00:00Z`) : null;
  const { id } = await withLockedJob(deps, auth, uuid, (trx, job, now) =>
    assignLockedJob(trx, auth, actor, now, job, { contractorId: contractor.id, scheduledFor, timeRangeId: input.time_range_id ?? null }),
  );
  return jobDtoById(deps.db, auth, id);
}

/**
 * Gives a locked job to a contractor in the caller's transaction: eligibility first (nothing is
 * written when it fails), then the move to Assigned (Scheduled with a date) and `job.assigned`.
 * Shared by assignJob and the system's raiseSystemJob (auth null, job-system.service.ts).
 * @throws 404 contractor, 409 ineligible contractor or illegal move, 403 party
 */
export async function assignLockedJob(
  trx: DbOrTrx, auth: AuthContext | null, actor: Actor, now: Date, job: repo.LockedJob,
  a: { contractorId: number; scheduledFor: Date | null; timeRangeId: number | null },
): Promise<void> {
  await assertContractorAssignable(trx, { contractorId: a.contractorId, agencyId: job.agency_id, tradeId: job.trade_id, at: a.scheduledFor ?? now });
  await moveJob(trx, auth, actor, now, job, {
    to: a.scheduledFor ? STATUS.scheduled : STATUS.assigned,
    via: 'assignment',
    action: 'job.assign',
    set: { contractor_id: a.contractorId, scheduled_for: a.scheduledFor, time_range_id: a.timeRangeId, contractor_accepted_at: null },
  });
  await supersedeTimedVisit(trx, job.id, now);
  await emitEvent(trx, now, {
    name: 'job.assigned',
    agencyId: job.agency_id,
    payload: { ...jobRef(job), contractor_id: a.contractorId, time_range_id: a.timeRangeId, scheduled_for: a.scheduledFor?.toISOString() ?? null },
  });
}

const AWAITING_WORK = new Set<number>([STATUS.assigned, STATUS.scheduled]);

/**
 * POST /api/jobs/{uuid}/assignment/accept: the assigned contractor accepts (sets
 * contractor_accepted_at; status unchanged).
 * @throws 403 not the job's contractor, 404, 409 not Assigned or Scheduled, or already accepted
 */
export async function acceptAssignment(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<JobDto> {
  if (partyOf(auth) !== 'contractor') throw forbidden();
  const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    if (job.contractor_id !== auth.contractorId) throw notFound('Job');
    if (!AWAITING_WORK.has(job.status_id)) throw conflict(`Only an Assigned or Scheduled job can be accepted; this one is ${STATUS_NAMES[job.status_id]}`);
    if (job.contractor_accepted_at !== null) throw conflict('The assignment is already accepted');
    await repo.updateJobFields(trx, job.id, { contractor_accepted_at: now, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'job.assignment_accept', resourceType: 'job', resourceId: job.id, agencyId: job.agency_id });
    await emitEvent(trx, now, { name: 'job.assignment_accepted', agencyId: job.agency_id, payload: { ...jobRef(job), contractor_id: job.contractor_id! } });
    await recomputeJobSla(trx, job.id, now);
  });
  return jobDtoById(deps.db, auth, id);
}

/**
 * POST /api/jobs/{uuid}/assignment/decline: the assigned contractor declines; the contractor,
 * slot, date and assigned_at are cleared and the job goes back to Approved, with the reason in
 * the history row.
 * @returns { uuid, status_id, status } (the contractor no longer sees the job)
 * @throws 403 not the job's contractor, 404, 409 not Assigned or Scheduled
 */
export async function declineAssignment(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, reason: string | undefined) {
  if (partyOf(auth) !== 'contractor') throw forbidden();
  await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    if (job.contractor_id !== auth.contractorId) throw notFound('Job');
    await moveJob(trx, auth, actor, now, job, {
      to: STATUS.approved,
      via: 'decline',
      note: reason ? `Declined by the contractor: ${reason}` : 'Declined by the contractor',
      action: 'job.assignment_decline',
      set: { contractor_id: null, assigned_at: null, scheduled_for: null, time_range_id: null, contractor_accepted_at: null },
    });
    await supersedeTimedVisit(trx, job.id, now);
    await emitEvent(trx, now, { name: 'job.assignment_declined', agencyId: job.agency_id, payload: { ...jobRef(job), contractor_id: job.contractor_id!, reason: reason ?? null } });
  });
  return { uuid, status_id: STATUS.approved, status: STATUS_NAMES[STATUS.approved]! };
}

/**
 * POST /api/jobs/{uuid}/assignment/booking: the assigned contractor books (or moves) its visit:
 * the job becomes Scheduled through the lifecycle's `booking` move (history row when it was
 * Assigned, activity, SLA), and the event `job.visit_booked` tells the tenant (docs/messaging.md).
 * Either a date (`scheduled_for`, YYYY-MM-DD) with an optional slot, or a timed visit
 * (`starts_at` and `ends_at`, ISO 8601 instants) inside the tenant's windows when it gave any and
 * clear of the contractor's other bookings (visits.service.ts, docs/tenant-reporting.md "Booking
 * the visit"). Used by the portal and by works-order links (docs/works-orders.md).
 * @returns the job after the booking
 * @throws 400 time_range_id, a date in the past, neither a date nor both times, or a slot rule
 *   (outside the windows, too short or long, past, beyond 60 days), 403 not a contractor, 404 not
 *   its job, 409 not Assigned or Scheduled, or the slot overlaps another booking of the contractor
 */
export async function bookVisit(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: BookingInput): Promise<JobDto> {
  if (partyOf(auth) !== 'contractor') throw forbidden();
  const timed = input.starts_at !== undefined || input.ends_at !== undefined;
  if (timed) {
    if (input.starts_at === undefined) throw invalidParam('starts_at');
    if (input.ends_at === undefined) throw invalidParam('ends_at');
    if (input.scheduled_for !== undefined || input.time_range_id !== undefined) throw invalidParam('scheduled_for');
    const slot = { starts_at: input.starts_at, ends_at: input.ends_at };
    const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
      if (job.contractor_id !== auth.contractorId) throw notFound('Job');
      await bookTimedVisit(trx, auth, actor, now, job, slot, 'contractor');
    });
    return jobDtoById(deps.db, auth, id);
  }
  if (input.scheduled_for === undefined) throw invalidParam('scheduled_for');
  const day = input.scheduled_for;
  const scheduledFor = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(scheduledFor.getTime())) throw invalidParam('scheduled_for');
  const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    if (job.contractor_id !== auth.contractorId) throw notFound('Job');
    if (!AWAITING_WORK.has(job.status_id)) throw conflict(`Only an Assigned or Scheduled job can be booked; this one is ${STATUS_NAMES[job.status_id]}`);
    if (day < now.toISOString().slice(0, 10)) throw invalidParam('scheduled_for');
    if (input.time_range_id !== undefined && !(await repo.findTimeRange(trx, input.time_range_id, job.agency_id))) throw invalidParam('time_range_id');
    await moveJob(trx, auth, actor, now, job, {
      to: STATUS.scheduled,
      via: 'booking',
      action: 'job.visit_book',
      note: `Visit booked by the contractor for ${day}`,
      set: { scheduled_for: scheduledFor, time_range_id: input.time_range_id ?? null },
    });
    await supersedeTimedVisit(trx, job.id, now);
    await emitEvent(trx, now, {
      name: 'job.visit_booked',
      agencyId: job.agency_id,
      payload: { ...jobRef(job), contractor_id: job.contractor_id!, time_range_id: input.time_range_id ?? null, scheduled_for: scheduledFor.toISOString() },
    });
  });
  return jobDtoById(deps.db, auth, id);
}
