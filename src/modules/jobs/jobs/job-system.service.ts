/**
 * Jobs the system raises without a user (docs/compliance.md "Planned maintenance"): a periodic
 * task of another module carrying out the agency's standing instructions (a maintenance schedule)
 * creates the job, approves it (the schedule is the approval) and assigns it to the contractor
 * named in the instruction. The same writes as the staff endpoints (insertNewJob, moveJob,
 * assignLockedJob) with the system as the actor: history rows name no user, activity entries
 * name "system".
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Trx } from '../../../db/types.ts';
import type { Actor } from '../../../core/auth-context.ts';
import { AppError, conflict, notFound } from '../../../core/errors.ts';
import { assertContractorAssignable } from '../../people/contractors/index.ts';
import { assignLockedJob } from './job-lifecycle.service.ts';
import { moveJob } from './job-rules.ts';
import * as repo from './jobs.repository.ts';
import { checkLookups, insertNewJob } from './jobs.service.ts';
import { STATUS } from './lifecycle.ts';

/** The actor of the system's writes (activity entries read "system"). */
export const SYSTEM_ACTOR: Actor = { auth: null, ip: 'system' };

/** What the system raises. */
export interface SystemJobInput {
  agencyId: number;
  /** the property (of the agency) */
  addressId: number;
  title: string;
  description: string;
  /** 1 emergency to 5 planned */
  priority: number;
  jobTypeId: number;
  tradeId: number | null;
  /** the contractor to assign, or null to leave the job Approved for an agent */
  contractorId: number | null;
  /** the note of the approval's history row (why the system approved it) */
  approvalNote: string;
}

/** The raised job. */
export interface SystemJob {
  id: number;
  uuid: string;
  reference: string;
  branch_id: number;
  /** Approved, or Assigned when the contractor was assigned */
  status_id: number;
  /** why the named contractor was not assigned (inactive, certificate lapsed for the trade), else null */
  assign_error: string | null;
}

/**
 * Raises a job as the system, in the caller's transaction: placed at the property's branch (the
 * agency's first open branch when the property's is closed or unset), with the property's tenant
 * when it has exactly one; Reported, then Approved with `approvalNote`, then Assigned to
 * `contractorId` when that contractor may take the job (contractors/eligibility.ts). A contractor
 * who may not is not assigned and the job stays Approved (`assign_error` says why); the job is
 * raised all the same.
 * @throws 404 "Property not found" (not the agency's); 409 the agency has no open branch; 400 a
 *   job type or trade that does not exist
 */
export async function raiseSystemJob(deps: AppDeps, trx: Trx, input: SystemJobInput): Promise<SystemJob> {
  const address = await repo.findAgencyAddress(trx, input.agencyId, input.addressId);
  if (!address) throw notFound('Property');
  const branches = await repo.openBranches(trx, input.agencyId);
  const branch = branches.find((b) => b.id === address.branch_id) ?? branches[0];
  if (!branch) throw conflict('The agency has no open branch to raise the job in');
  const tenants = await repo.addressTenantIds(trx, address.id);
  const fields = { title: input.title, description: input.description, priority: input.priority, job_type_id: input.jobTypeId, trade_id: input.tradeId };
  await checkLookups(trx, input.agencyId, fields);
  const place = { agencyId: input.agencyId, branchId: branch.id, addressId: address.id, tenantId: tenants.length === 1 ? tenants[0]! : null };
  const { id, row } = await insertNewJob(deps, trx, SYSTEM_ACTOR, place, fields, { reportedBy: null, agentUserId: null });
  const now = deps.clock.now();
  await moveJob(trx, null, SYSTEM_ACTOR, now, await repo.lockJob(trx, id), { to: STATUS.approved, via: 'transition', note: input.approvalNote });
  let status: number = STATUS.approved;
  let assignError: string | null = null;
  if (input.contractorId !== null) {
    const job = await repo.lockJob(trx, id);
    try {
      // Checked before any write, so a refusal leaves the transaction as it was.
      await assertContractorAssignable(trx, { contractorId: input.contractorId, agencyId: input.agencyId, tradeId: job.trade_id, at: now });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      assignError = err.publicMessage;
    }
    if (assignError === null) {
      await assignLockedJob(trx, null, SYSTEM_ACTOR, now, job, { contractorId: input.contractorId, scheduledFor: null, timeRangeId: null });
      status = STATUS.assigned;
    }
  }
  return { id, uuid: row.uuid, reference: row.reference, branch_id: branch.id, status_id: status, assign_error: assignError };
}
