/**
 * Branches (docs/administration.md): an agency's administrators manage its branches,
 * SysOps any. Branches are never deleted, only closed (refused while they have open jobs) and
 * reopened. A branch of another agency is 404; a name already used in the agency is 409.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency as agencyScope } from '../../../core/agency-scope.ts';
import { conflictOnUnique } from '../../../core/errors.ts';
import * as repo from './branches.repository.ts';
import type { BranchDto, CreateBranchInput, ListBranchesInput, UpdateBranchInput } from './branches.schemas.ts';
import { toIso } from '../../../lib/clock.ts';


/** Wire shape of a branch row. */
export function toBranchDto(row: repo.BranchRow): BranchDto {
  return {
    uuid: row.uuid,
    name: row.name,
    agency: { uuid: row.agency_uuid, name: row.agency_name },
    sharing_enabled: row.sharing_enabled,
    closed_at: row.closed_at === null ? null : toIso(row.closed_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/**
 * A branch visible to the caller, or 404 "Branch not found".
 * @param uuid branch uuid
 */
export async function visibleBranch(deps: AppDeps, auth: AuthContext, uuid: string): Promise<repo.BranchRow> {
  const branch = await repo.findBranch(deps.db, uuid, agencyScope(auth));
  if (!branch) throw notFound('Branch');
  return branch;
}

/**
 * GET /api/admin/branches: one page of the caller's agency's branches (SysOps: all, or of
 * `agency_uuid`), open ones unless include_closed, sorted by `sort` (BRANCH_SORTS, default agency)
 * in `order` (default asc), the id breaking ties (docs/api.md).
 * @returns { rows: BranchDto[], total }
 */
export async function listBranches(deps: AppDeps, auth: AuthContext, q: ListBranchesInput) {
  let agencyId = agencyScope(auth);
  if (q.agency_uuid) {
    const agency = await repo.findAgency(deps.db, q.agency_uuid);
    if (!agency || (agencyId !== null && agency.id !== agencyId)) throw notFound('Agency');
    agencyId = agency.id;
  }
  const { rows, total } = await repo.listBranches(deps.db, {
    agencyId, q: q.q, includeClosed: q.include_closed ?? false, sort: q.sort ?? 'agency', order: q.order ?? 'asc', limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map(toBranchDto), total };
}

/**
 * POST /api/admin/branches: creates a branch in the caller's agency (SysOps: in `agency_uuid`).
 * @throws 400 blank name or SysOps without agency_uuid, 404 agency, 409 name taken
 */
export async function createBranch(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateBranchInput): Promise<BranchDto> {
  const name = input.name.trim();
  if (!name) throw invalidParam('name');
  let agencyId: number;
  if (input.agency_uuid) {
    const agency = await repo.findAgency(deps.db, input.agency_uuid);
    if (!agency || (!isSysOps(auth) && agency.id !== auth.agencyId)) throw notFound('Agency');
    agencyId = agency.id;
  } else {
    if (isSysOps(auth) || auth.agencyId === null) throw invalidParam('agency_uuid');
    agencyId = auth.agencyId;
  }
  if (await repo.branchNameTaken(deps.db, agencyId, name)) throw conflict(`A branch named ${name} already exists in this agency`);
  const now = deps.clock.now();
  const uuid = newUuid();
  await deps.db
    .transaction()
    .execute(async (trx) => {
      const id = await repo.insertBranch(trx, { uuid, agencyId, name, sharing: input.sharing_enabled ?? false, now });
      await recordActivity(trx, actor, now, { action: 'branch.create', resourceType: 'branch', resourceId: id, agencyId, details: { name } });
    })
    .catch(conflictOnUnique(`A branch named ${name} already exists in this agency`));
  return toBranchDto((await repo.findBranch(deps.db, uuid, null))!);
}

/**
 * PUT /api/admin/branches/{uuid}: renames a branch or turns its sharing on or off.
 * @throws 400 nothing to change or blank name, 404, 409 name taken
 */
export async function updateBranch(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateBranchInput): Promise<BranchDto> {
  const name = input.name?.trim();
  if (name === '' || (name === undefined && input.sharing_enabled === undefined)) throw invalidParam('name');
  const branch = await visibleBranch(deps, auth, uuid);
  if (name !== undefined && (await repo.branchNameTaken(deps.db, branch.agency_id, name, branch.id))) {
    throw conflict(`A branch named ${name} already exists in this agency`);
  }
  const now = deps.clock.now();
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await repo.updateBranch(trx, branch.id, { ...(name !== undefined ? { name } : {}), ...(input.sharing_enabled !== undefined ? { sharing_enabled: input.sharing_enabled } : {}), now });
      await recordActivity(trx, actor, now, {
        action: 'branch.update',
        resourceType: 'branch',
        resourceId: branch.id,
        agencyId: branch.agency_id,
        details: { name, sharing_enabled: input.sharing_enabled },
      });
    })
    .catch(conflictOnUnique(`A branch named ${name ?? branch.name} already exists in this agency`));
  return toBranchDto((await repo.findBranch(deps.db, uuid, null))!);
}

/**
 * POST /api/admin/branches/{uuid}/close and /reopen.
 * @param close true to close, false to reopen
 * @throws 404, 409 already in that state or (closing) the branch still has open jobs
 */
export async function setBranchClosed(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, close: boolean): Promise<BranchDto> {
  const branch = await visibleBranch(deps, auth, uuid);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.lockBranch(trx, branch.id);
    const current = await repo.findBranch(trx, uuid, null);
    if (close && current?.closed_at !== null) throw conflict('Branch is already closed');
    if (!close && current?.closed_at === null) throw conflict('Branch is not closed');
    if (close) {
      const open = await repo.openJobCount(trx, branch.id);
      if (open > 0) throw conflict(`Branch has ${open} open job(s); close, cancel or move them first`);
    }
    await repo.updateBranch(trx, branch.id, { closed_at: close ? now : null, now });
    await recordActivity(trx, actor, now, { action: close ? 'branch.close' : 'branch.reopen', resourceType: 'branch', resourceId: branch.id, agencyId: branch.agency_id });
  });
  return toBranchDto((await repo.findBranch(deps.db, uuid, null))!);
}
