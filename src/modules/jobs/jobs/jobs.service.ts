/**
 * Job records (spec 4.16; docs/jobs.md): list with filters and sorting, read, create
 * (idempotent, first history row), edit and cancel or soft-delete. Status changes go through
 * job-rules.ts `moveJob`; visibility through jobs.repository.ts (`jobScope`, `visibleTo`).
 */
import { containsPattern } from '../../../db/text-match.ts';
import { utcDayRange } from '../../../http/date-range.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx, Trx } from '../../../db/types.ts';
import { activityInsert, recordActivity } from '../../../core/activity/index.ts';
import { emitEvent, eventInsert } from '../../../events/index.ts';
import { pipelined, pipelinedCommit } from '../../../db/pipeline.ts';
import { assertStaffMayWrite, jobDtoById, jobIds, jobRef, moveJob, partyOf, toJobDto, visibleJob, withLockedJob } from './job-rules.ts';
import { placeJob, type Placement } from './job-placement.ts';
import { findVisibleTrade } from '../../people/contractors/index.ts';
import * as repo from './jobs.repository.ts';
import { jobScope, seesInternalFields, type JobFilter } from './jobs.repository.ts';
import { jobsByIds, listJobsJson, visibleJobIds } from './jobs-list.repository.ts';
import type { CreateJobInput, JobDto, ListJobsInput, UpdateJobInput } from './jobs.schemas.ts';
import { STATUS } from './lifecycle.ts';
import { announceJobSlaStart, jobSlaWrites, newJobDates, planJobSla, recomputeJobSla, startInputsOf, startInputsQuery } from '../sla/index.ts';

export { toJobDto } from './job-rules.ts';
export { JOBS_COUNT_CAP } from './jobs-list.repository.ts';

/** Status a new job starts in. */
export const STATUS_REPORTED = STATUS.reported;
/** Job type used when none is given. */
export const DEFAULT_JOB_TYPE = 1;

/**
 * The list query as a filter; the uuids of its branch, contractor, tenant and agent are resolved
 * by the list's own statement inside the caller's agency (every agency for SysOps; unknown ones
 * match nothing).
 * @throws 400 to_date when to_date is before from_date
 */
function listFilter(auth: AuthContext, q: ListJobsInput): JobFilter {
  const { from, to } = utcDayRange(q.from_date, q.to_date);
  const byUuid = q.branch_uuid ?? q.contractor_uuid ?? q.tenant_uuid ?? q.address_uuid ?? q.agent_uuid;
  return {
    statusId: q.status_id,
    jobTypeId: q.job_type_id,
    priority: q.priority,
    branchUuid: q.branch_uuid,
    contractorUuid: q.contractor_uuid,
    tenantUuid: q.tenant_uuid,
    addressUuid: q.address_uuid,
    agentUuid: q.agent_uuid,
    refAgencyId: byUuid !== undefined && auth.agencyId !== null ? auth.agencyId : undefined,
    from,
    to,
    pattern: q.q !== undefined ? containsPattern(q.q) : undefined,
    slaState: q.sla_state,
    sort: q.sort ?? 'created_at',
    order: q.order ?? 'desc',
    limit: q.limit,
    offset: q.offset,
  };
}

/**
 * Every job the caller may see with the list's filters and order (spec 4.16; the reports' jobs
 * register, docs/insight.md "Reports"), as pages of at most `pageSize` JobDto objects: the
 * matching ids are read once in order (visibleJobIds), then the jobs by id, so each job is read
 * once however many there are. `limit` and `offset` of `q` are ignored. A job deleted during the
 * walk is left out; one created during it is not included.
 * @throws 400 to_date when to_date is before from_date (on the first page)
 */
export async function* visibleJobPages(deps: AppDeps, auth: AuthContext, q: ListJobsInput, pageSize: number): AsyncGenerator<JobDto[]> {
  const scope = jobScope(auth);
  const ids = await visibleJobIds(deps.db, scope, listFilter(auth, q));
  for (let i = 0; i < ids.length; i += pageSize) {
    const rows = await jobsByIds(deps.db, scope, ids.slice(i, i + pageSize));
    yield rows.map((r) => toJobDto(r, scope));
  }
}

/**
 * GET /api/jobs/manage: one page of the jobs the caller may see, filtered and sorted (spec
 * 4.16), written as JSON by the database (job-json.ts), for the route to wrap in the list envelope
 * without building objects. Unknown uuids in filters match nothing; to_date includes the whole day.
 * @returns { json: the page's job objects joined by commas, total, capped }
 * @throws 400 to_date when to_date is before from_date
 */
export async function listVisibleJobsJson(deps: AppDeps, auth: AuthContext, q: ListJobsInput) {
  const scope = jobScope(auth);
  const filter = listFilter(auth, q);
  // A list may lag: on the read replica when there is one (docs/operations.md "Read replicas").
  return deps.reads.mayLag(auth.userId, (db) => listJobsJson(db, scope, filter, seesInternalFields(scope)));
}

/**
 * GET /api/jobs/{uuid}: one job as the caller may see it; staff and the job's assigned contractor
 * (not landlords or tenants) also get `tenant_phone` (the tenant's mobile, else phone; null when none), so the contractor
 * can call ahead of the visit (docs/jobs.md "Who sees what").
 * @throws 404 'Job not found'
 */
export async function getJob(deps: AppDeps, auth: AuthContext, uuid: string): Promise<JobDto> {
  const row = await visibleJob(deps.db, auth, uuid);
  const scope = jobScope(auth);
  const dto = toJobDto(row, scope);
  const staff = scope.kind === 'all' || scope.kind === 'agency' || scope.kind === 'branch';
  const assignedContractor = scope.kind === 'contractor' && row.contractor_id !== null && row.contractor_id === scope.contractorId;
  if (staff || assignedContractor) {
    dto.tenant_phone = row.tenant_id === null ? null : await repo.findTenantPhone(deps.db, row.tenant_id);
  }
  return dto;
}

/**
 * Checks lookup ids of a create or edit body; the trade is resolved inside the job's agency
 * (platform trades and the agency's own), so another agency's trade answers like a missing one.
 * @param agencyId the agency of the job
 * @throws 400 naming job_type_id or trade_id when unknown or not visible
 */
export async function checkLookups(db: DbOrTrx, agencyId: number, input: { job_type_id?: number | undefined; trade_id?: number | null | undefined }) {
  if (input.job_type_id !== undefined && !(await repo.lookupExists(db, 'job_types', input.job_type_id))) throw invalidParam('job_type_id');
  if (input.trade_id != null && !(await findVisibleTrade(db, agencyId, input.trade_id))) throw invalidParam('trade_id');
}

/**
 * POST /api/jobs/manage: creates a job in status Reported, all in `trx` (the route's transaction;
 * an Idempotency-Key is claimed before, src/http/idempotency.ts): the job with
 * the agency's next reference, its first history row (null -> Reported), its activity entry, its
 * SLA clocks and the `job.created` event, and the job read back as the caller sees it.
 * The reference is the agency's counter (docs/jobs.md: no gaps), taken by the job's insert itself
 * (jobs.repository.ts): its row stays locked until commit. The two reads that need nothing of each
 * other go in one round trip and the writes in one more (src/db/pipeline.ts). With `options.last`
 * (the caller runs nothing after it in `trx`: the route), that last trip also carries the COMMIT
 * (pipelinedCommit), so the counter is locked only while PostgreSQL runs the writes, never while the
 * server waits or works; not when a new SLA clock is already at risk or breached, whose
 * announcements follow the writes.
 * @returns the job as the caller sees it
 * @throws 400 naming a bad field, 403 for contractors, 404 for a branch, address or tenant the
 *   caller cannot use
 */
export async function createJob(deps: AppDeps, trx: Trx, auth: AuthContext, actor: Actor, input: CreateJobInput, options: { last?: boolean } = {}): Promise<JobDto> {
  const place = await placeJob(trx, auth, input);
  const by = { reportedBy: auth.userId, agentUserId: auth.roleCode === 'agent' ? auth.userId : null };
  const { id, row, slaMoved } = await insertNewJob(deps, trx, actor, place, input, by, options);
  return slaMoved ? jobDtoById(trx, auth, id) : toJobDto(row, jobScope(auth));
}

/**
 * The writes of a new job once its place is decided and its lookups checked, in `trx` (see
 * createJob): reference, first history row, activity entry, `job.created`, SLA clocks, and the
 * row as written. Shared by createJob and the system's raiseSystemJob (job-system.service.ts).
 * @param by the reporting user (null: the system) and the owning agent
 * @param options.last nothing runs in `trx` after this (and, when slaMoved, the caller's read of
 *   the job): the writes' trip then carries the COMMIT unless an SLA clock must be announced
 * @returns the job's id, its row, and whether an SLA clock was already at risk or breached
 */
export async function insertNewJob(
  deps: AppDeps, trx: Trx, actor: Actor, place: Placement, input: CreateJobInput, by: { reportedBy: number | null; agentUserId: number | null },
  options: { last?: boolean } = {},
): Promise<{ id: number; row: repo.JobRow; slaMoved: boolean }> {
  const now = deps.clock.now();
  // Two reads that need nothing of each other, in one round trip (src/db/pipeline.ts).
  const [ids, slaInputs] = await pipelined(trx, [repo.nextJobIdQuery(trx), startInputsQuery(trx, place.branchId, place.agencyId)]);
  const id = ids.rows[0]!.id;
  const job = {
    id,
    uuid: newUuid(),
    agency_id: place.agencyId,
    branch_id: place.branchId,
    title: input.title.trim() || input.title,
    description: input.description ?? '',
    priority: input.priority,
    status_id: STATUS_REPORTED,
    job_type_id: input.job_type_id ?? DEFAULT_JOB_TYPE,
    trade_id: input.trade_id ?? null,
    address_id: place.addressId,
    tenant_id: place.tenantId,
    agent_user_id: by.agentUserId,
    reported_by_user_id: by.reportedBy,
    estimated_cost_pence: input.estimated_cost_pence ?? null,
    agreed_cost_pence: input.agreed_cost_pence ?? null,
    created_at: now,
    updated_at: now,
  };
  const sla = planJobSla({ ...job, dates: newJobDates(now) }, await startInputsOf(trx, slaInputs.rows[0], place.branchId), now);
  const slaMoved = sla.breachedNow || sla.atRiskNow;
  // The insert takes the reference; the event reads it from the row written just before it.
  const created = { ...jobIds(job), status_id: STATUS_REPORTED, priority: job.priority, tenant_id: job.tenant_id };
  const [, , , , ...rest] = await (options.last && !slaMoved ? pipelinedCommit : pipelined)(trx, [
    repo.jobInsert(trx, job),
    repo.historyInsert(trx, { jobId: id, from: null, to: STATUS_REPORTED, byUserId: by.reportedBy, note: null, at: now }),
    activityInsert(trx, actor, now, { action: 'job.create', resourceType: 'job', resourceId: id, agencyId: job.agency_id }),
    eventInsert(trx, now, { name: 'job.created', agencyId: job.agency_id, payload: created }, { table: 'jobs', id, columns: ['reference'] }).insert,
    ...jobSlaWrites(trx, sla, now),
    repo.JOB_BY_ID.statement(trx, 'any', { id }),
  ]);
  if (slaMoved) await announceJobSlaStart(trx, sla, now);
  const [row] = rest.at(-1)!.rows as repo.JobRow[];
  return { id, row: row!, slaMoved };
}

const CLOSED = new Set<number>([STATUS.closed, STATUS.cancelled]);

/**
 * PUT /api/jobs/{uuid}: changes the given fields (partial update) of an open job.
 * @returns the job after the change
 * @throws 400 empty body or bad field, 403 not staff or shared branch, 404 job, address or
 *   tenant, 409 when the job is Closed or Cancelled
 */
export async function updateJob(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, fields: UpdateJobInput): Promise<JobDto> {
  const names = Object.keys(fields) as Array<keyof typeof fields>;
  if (names.length === 0) throw invalidParam('body');
  const current = await visibleJob(deps.db, auth, uuid);
  assertStaffMayWrite(auth, current);
  await checkLookups(deps.db, current.agency_id, fields);
  let addressId: number | null | undefined;
  let tenantId: number | null | undefined;
  if (fields.address_uuid !== undefined) {
    addressId = fields.address_uuid === null ? null : (await repo.findAddress(deps.db, fields.address_uuid, current.agency_id))?.id;
    if (addressId === undefined) throw notFound('Address');
  }
  if (fields.tenant_uuid !== undefined) {
    tenantId = fields.tenant_uuid === null ? null : (await repo.findTenant(deps.db, fields.tenant_uuid, current.agency_id))?.id;
    if (tenantId === undefined) throw notFound('Tenant');
  }
  const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    if (CLOSED.has(job.status_id)) throw conflict(`A ${job.status_id === STATUS.closed ? 'Closed' : 'Cancelled'} job cannot be edited`);
    await repo.updateJobFields(trx, job.id, {
      ...(fields.title !== undefined ? { title: fields.title.trim() || fields.title } : {}),
      ...(fields.priority !== undefined ? { priority: fields.priority } : {}),
      ...(fields.description !== undefined ? { description: fields.description } : {}),
      ...(fields.job_type_id !== undefined ? { job_type_id: fields.job_type_id } : {}),
      ...(fields.trade_id !== undefined ? { trade_id: fields.trade_id } : {}),
      ...(addressId !== undefined ? { address_id: addressId } : {}),
      ...(tenantId !== undefined ? { tenant_id: tenantId } : {}),
      ...(fields.estimated_cost_pence !== undefined ? { estimated_cost_pence: fields.estimated_cost_pence } : {}),
      ...(fields.agreed_cost_pence !== undefined ? { agreed_cost_pence: fields.agreed_cost_pence } : {}),
      updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'job.update', resourceType: 'job', resourceId: job.id, agencyId: job.agency_id, details: { fields: names } });
    await emitEvent(trx, now, { name: 'job.updated', agencyId: job.agency_id, payload: { ...jobRef(job), fields: names } });
    await recomputeJobSla(trx, job.id, now);
  });
  return jobDtoById(deps.db, auth, id);
}

/**
 * DELETE /api/jobs/{uuid}: cancels the job through the lifecycle (sets cancelled_at, history
 * row); with soft_delete=true (key api.jobs.delete.manage) hides a Closed or Cancelled job for
 * good (deleted_at).
 * @returns the job's final state
 * @throws 403 move not allowed for the caller or missing delete key, 404, 409 illegal move or
 *   soft delete of an open job
 */
export async function deleteJob(
  deps: AppDeps,
  auth: AuthContext,
  actor: Actor,
  uuid: string,
  opts: { softDelete: boolean; note?: string | undefined },
): Promise<JobDto> {
  if (!opts.softDelete) {
    const { id } = await withLockedJob(deps, auth, uuid, (trx, job, now) =>
      moveJob(trx, auth, actor, now, job, { to: STATUS.cancelled, via: 'transition', note: opts.note, action: 'job.cancel' }),
    );
    return jobDtoById(deps.db, auth, id);
  }
  if (!auth.permissions.has('api.jobs.delete.manage') || partyOf(auth) !== 'staff') throw forbidden();
  const { result } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    assertStaffMayWrite(auth, job);
    if (!CLOSED.has(job.status_id)) throw conflict('Only a Closed or Cancelled job can be deleted; cancel it first');
    const dto = await jobDtoById(trx, auth, job.id);
    await repo.updateJobFields(trx, job.id, { deleted_at: now, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'job.delete', resourceType: 'job', resourceId: job.id, agencyId: job.agency_id });
    return dto;
  });
  return result;
}
