/**
 * Job rules of the first cut (spec 4.16; API.md "jobs"): listing what the caller may see, and
 * creating a job in status Reported with an agency-unique reference, written with its activity
 * entry in one transaction.
 */
import type { AppDeps } from '../../app-deps.ts';
import type { Actor, AuthContext } from '../../http/auth-context.ts';
import { forbidden, invalidParam, notFound } from '../../http/errors.ts';
import { newUuid } from '../../lib/crypto.ts';
import { recordActivity } from '../activity/activity.repository.ts';
import { jobScope, seesInternalFields, type JobScope } from './job-visibility.ts';
import * as repo from './jobs.repository.ts';
import type { CreateJobInput, JobDto } from './jobs.schemas.ts';

/** Status a new job starts in. */
export const STATUS_REPORTED = 1;
/** Job type used when none is given. */
export const DEFAULT_JOB_TYPE = 1;

type JobRow = NonNullable<Awaited<ReturnType<typeof repo.findJobById>>>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Wire shape of a job row; costs left out for tenants. */
export function toJobDto(row: JobRow, scope: JobScope): JobDto {
  const dto: JobDto = {
    uuid: row.uuid,
    reference: row.reference,
    title: row.title,
    description: row.description,
    priority: row.priority,
    status_id: row.status_id,
    status: row.status,
    job_type_id: row.job_type_id,
    job_type: row.job_type,
    branch_uuid: row.branch_uuid,
    branch_name: row.branch_name,
    address_uuid: row.address_uuid,
    postcode: row.postcode,
    tenant_uuid: row.tenant_uuid,
    contractor_uuid: row.contractor_uuid,
    currency: row.currency,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    scheduled_for: iso(row.scheduled_for),
    completed_at: iso(row.completed_at),
  };
  if (seesInternalFields(scope)) {
    dto.estimated_cost_pence = row.estimated_cost_pence;
    dto.agreed_cost_pence = row.agreed_cost_pence;
  }
  return dto;
}

/** Formats a reference number: 123 -> JOB-000123. */
export function formatReference(n: number): string {
  return `JOB-${String(n).padStart(6, '0')}`;
}

/**
 * GET /api/jobs/manage: one page of the jobs the caller may see, newest first.
 * @returns { rows: JobDto[], total }
 */
export async function listVisibleJobs(deps: AppDeps, auth: AuthContext, page: { limit: number; offset: number }) {
  const scope = jobScope(auth);
  const { rows, total } = await repo.listJobs(deps.db, scope, page);
  return { rows: rows.map((r) => toJobDto(r, scope)), total };
}

interface Placement {
  agencyId: number;
  branchId: number;
  addressId: number | null;
  tenantId: number | null;
}

/** Decides agency, branch, address and tenant of a new job from the caller and the body. */
async function placeJob(deps: AppDeps, auth: AuthContext, input: CreateJobInput): Promise<Placement> {
  const db = deps.db;
  if (auth.contractorId !== null) throw forbidden('Contractors cannot create jobs');
  if (auth.tenantId !== null) {
    const tenant = await repo.tenantAgency(db, auth.tenantId);
    if (!tenant) throw notFound('Tenant');
    const own = await repo.tenantAddressIds(db, auth.tenantId);
    let address: { id: number; branch_id: number | null } | undefined;
    if (input.address_uuid) {
      address = await repo.findAddress(db, input.address_uuid, tenant.agency_id);
      if (!address || !own.includes(address.id)) throw notFound('Address');
    } else if (own.length === 1) {
      address = await db.selectFrom('addresses').select(['id', 'branch_id']).where('id', '=', own[0]!).executeTakeFirst();
    } else {
      throw invalidParam('address_uuid');
    }
    let branchId = address?.branch_id ?? null;
    if (branchId === null) {
      const branches = await repo.openBranches(db, tenant.agency_id);
      if (!branches[0]) throw notFound('Branch');
      branchId = branches[0].id;
    }
    return { agencyId: tenant.agency_id, branchId, addressId: address?.id ?? null, tenantId: auth.tenantId };
  }

  const scope = jobScope(auth);
  let agencyId: number;
  let branchId: number;
  if (input.branch_uuid) {
    const branch = await repo.findBranch(db, input.branch_uuid, scope.kind === 'all' ? null : auth.agencyId);
    if (!branch || branch.closed_at !== null) throw notFound('Branch');
    if (scope.kind === 'branch' && branch.id !== scope.branchId) throw notFound('Branch');
    agencyId = branch.agency_id;
    branchId = branch.id;
  } else if (scope.kind === 'branch') {
    agencyId = scope.agencyId;
    branchId = scope.branchId;
  } else if (scope.kind === 'agency') {
    const branches = await repo.openBranches(db, scope.agencyId);
    if (branches.length !== 1 || !branches[0]) throw invalidParam('branch_uuid');
    agencyId = scope.agencyId;
    branchId = branches[0].id;
  } else {
    throw invalidParam('branch_uuid');
  }
  let addressId: number | null = null;
  let tenantId: number | null = null;
  if (input.address_uuid) {
    const address = await repo.findAddress(db, input.address_uuid, agencyId);
    if (!address) throw notFound('Address');
    addressId = address.id;
  }
  if (input.tenant_uuid) {
    const tenant = await repo.findTenant(db, input.tenant_uuid, agencyId);
    if (!tenant) throw notFound('Tenant');
    tenantId = tenant.id;
  }
  return { agencyId, branchId, addressId, tenantId };
}

/**
 * POST /api/jobs/manage: creates a job in status Reported.
 * @returns the created job as JobDto
 * @throws 400 naming a bad field, 403 for contractors, 404 for a branch, address or tenant the
 *   caller cannot use
 */
export async function createJob(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateJobInput): Promise<JobDto> {
  const jobTypeId = input.job_type_id ?? DEFAULT_JOB_TYPE;
  if (!(await repo.jobTypeExists(deps.db, jobTypeId))) throw invalidParam('job_type_id');
  const place = await placeJob(deps, auth, input);
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const number = await repo.nextCounter(trx, place.agencyId, 'job_reference');
    const jobId = await repo.insertJob(trx, {
      uuid: newUuid(),
      agency_id: place.agencyId,
      branch_id: place.branchId,
      reference: formatReference(number),
      title: input.title.trim() || input.title,
      description: input.description ?? '',
      priority: input.priority,
      status_id: STATUS_REPORTED,
      job_type_id: jobTypeId,
      address_id: place.addressId,
      tenant_id: place.tenantId,
      reported_by_user_id: auth.userId,
      created_at: now,
      updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'job.create', resourceType: 'job', resourceId: jobId, agencyId: place.agencyId });
    return jobId;
  });
  const scope = jobScope(auth);
  const row = await repo.findJobById(deps.db, { kind: 'all' }, id);
  if (!row) throw notFound('Job');
  return toJobDto(row, scope);
}
