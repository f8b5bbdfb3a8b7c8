/**
 * Agents area (spec 4.11; docs/agents.md): the sharing flag of a branch, the
 * agents of branches, and the owning agent of a job.
 *
 * - Sharing: when a branch shares, agents of the agency's other branches see (not edit) its jobs
 *   (the rule itself is in jobs/jobs.repository.ts, `jobScope`). The target is the caller's own branch; a
 *   caller holding api.admin.branches.manage may name any branch of its agency (SysOps: any).
 * - Agents of a branch: accounts attached to it whose role is Agent or a custom role, not
 *   contractor or tenant accounts.
 * - Job assignment: the caller must see the job and may edit it (an agent: a job of its own
 *   branch; a job visible only through sharing is read-only, 403). The new owner must be an
 *   active agent of the job's branch, or of another branch of the same agency when the job's
 *   branch shares.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findBranchById, updateBranch, type BranchRow } from '../../people/admin/index.ts';
import { readAgency as agencyScope } from '../../../core/agency-scope.ts';
import { visibleBranch } from '../../people/admin/index.ts';
import { jobScope } from '../jobs/index.ts';
import * as repo from './branch-agents.repository.ts';

/** The branch whose sharing flag the caller reads or sets. */
async function sharingBranch(deps: AppDeps, auth: AuthContext, branchUuid: string | undefined): Promise<BranchRow> {
  if (branchUuid !== undefined) {
    const branch = await visibleBranch(deps, auth, branchUuid);
    const anyBranch = isSysOps(auth) || auth.permissions.has('api.admin.branches.manage');
    if (!anyBranch && branch.id !== auth.branchId) throw notFound('Branch');
    return branch;
  }
  if (auth.branchId === null) throw invalidParam('branch_uuid');
  const own = await findBranchById(deps.db, auth.branchId);
  if (!own) throw notFound('Branch');
  return own;
}

/**
 * GET /api/agents/branch-sharing: the sharing flag of the caller's branch (or `branch_uuid`).
 * @throws 400 branch_uuid when the caller has no branch and names none, 404 branch
 */
export async function getSharing(deps: AppDeps, auth: AuthContext, branchUuid: string | undefined) {
  const b = await sharingBranch(deps, auth, branchUuid);
  return { branch_uuid: b.uuid, branch_name: b.name, enabled: b.sharing_enabled };
}

/**
 * POST /api/agents/branch-sharing (spec 4.11): turns sharing on or off.
 * @returns the confirmation message
 * @throws 400 branch_uuid, 404 branch, 409 closed branch
 */
export async function setSharing(deps: AppDeps, auth: AuthContext, actor: Actor, enabled: boolean, branchUuid: string | undefined): Promise<string> {
  const b = await sharingBranch(deps, auth, branchUuid);
  if (b.closed_at !== null) throw conflict('Branch is closed');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await updateBranch(trx, b.id, { sharing_enabled: enabled, now });
    await recordActivity(trx, actor, now, {
      action: 'branch.sharing_set',
      resourceType: 'branch',
      resourceId: b.id,
      agencyId: b.agency_id,
      details: { enabled, previous: b.sharing_enabled },
    });
  });
  return `Branch sharing ${enabled ? 'enabled' : 'disabled'} for ${b.name}`;
}

/**
 * GET /api/agents: agents of the caller's agency (SysOps: all), optionally of one branch.
 * @returns { rows, total } in the Agent wire shape
 * @throws 404 branch of another agency
 */
export async function listAgents(deps: AppDeps, auth: AuthContext, q: { branch_uuid?: string | undefined; q?: string | undefined; limit: number; offset: number }) {
  const branchId = q.branch_uuid ? (await visibleBranch(deps, auth, q.branch_uuid)).id : undefined;
  const { rows, total } = await repo.listAgents(deps.db, { agencyId: agencyScope(auth), branchId, q: q.q, limit: q.limit, offset: q.offset });
  return {
    rows: rows.map((r) => ({ uuid: r.uuid, name: r.name, email: r.email, role: r.role, status: r.status, branch: { uuid: r.branch_uuid, name: r.branch_name } })),
    total,
  };
}

/**
 * POST /api/agents/job-assignment: gives a job an owning agent (or none with agent_uuid null).
 * @returns { job_uuid, reference, agent: { uuid, name, branch_uuid } | null }
 * @throws 403 job read-only for the caller (logged), 404 job or agent, 409 job not open, agent
 *   disabled, or agent outside the job's branch while that branch does not share
 */
export async function assignAgent(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, agentUuid: string | null) {
  const scope = jobScope(auth);
  const job = await repo.findVisibleJob(deps.db, scope, jobUuid);
  if (!job) throw notFound('Job');
  const editable = scope.kind === 'all' || scope.kind === 'agency' || (scope.kind === 'branch' && job.branch_id === scope.branchId);
  if (!editable) {
    await recordActivity(deps.db, actor, deps.clock.now(), {
      action: 'authorization.deny',
      resourceType: 'job',
      resourceId: job.id,
      details: { operation: 'job.agent_assign', reason: 'job of a shared branch is read-only' },
    });
    throw forbidden("Jobs of another branch are read-only for you; ask an agent of the job's branch");
  }
  if (!job.is_open) throw conflict('The job is closed or cancelled');
  let agent: Awaited<ReturnType<typeof repo.findAgent>> | null = null;
  if (agentUuid !== null) {
    agent = (await repo.findAgent(deps.db, agentUuid, job.agency_id)) ?? null;
    if (!agent) throw notFound('Agent');
    if (agent.status !== 'active') throw conflict('The agent account is disabled');
    if (agent.branch_id !== job.branch_id && !job.sharing_enabled) {
      throw conflict("The agent is not in the job's branch, and that branch does not share its jobs");
    }
  }
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.setJobAgent(trx, job.id, agent?.id ?? null, now);
    await recordActivity(trx, actor, now, {
      action: agent ? 'job.agent_assign' : 'job.agent_unassign',
      resourceType: 'job',
      resourceId: job.id,
      agencyId: job.agency_id,
      details: { agent_user_id: agent?.id ?? null, previous_agent_user_id: job.agent_user_id },
    });
  });
  return {
    job_uuid: job.uuid,
    reference: job.reference,
    agent: agent ? { uuid: agent.uuid, name: agent.name, branch_uuid: agent.branch_uuid } : null,
  };
}
