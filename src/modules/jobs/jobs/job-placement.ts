/**
 * Where a new job belongs (spec 4.16; docs/jobs.md): agency, branch, address and tenant from
 * the caller and the body. Tenants report at their own addresses only and may not set branch,
 * tenant or costs; contractors cannot report jobs.
 */
import type { AuthContext } from '../../../core/auth-context.ts';
import { forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { jobScope } from './jobs.repository.ts';
import * as repo from './jobs.repository.ts';
import type { CreateJobInput } from './jobs.schemas.ts';

export interface Placement {
  agencyId: number;
  branchId: number;
  addressId: number | null;
  tenantId: number | null;
}

const TENANT_FORBIDDEN_FIELDS = ['branch_uuid', 'tenant_uuid', 'estimated_cost_pence', 'agreed_cost_pence'] as const;

/** The references of the body a placement read resolves (null where the body names none). */
function namedIn(input: CreateJobInput) {
  return {
    branchUuid: input.branch_uuid || null,
    addressUuid: input.address_uuid || null,
    tenantUuid: input.tenant_uuid || null,
    jobTypeId: input.job_type_id ?? null,
    tradeId: input.trade_id ?? null,
  };
}

/** Which references a placement read resolves: those the body names. */
function shapeOf(agencyFrom: repo.PlacementShape['agencyFrom'], named: ReturnType<typeof namedIn>): repo.PlacementShape {
  return {
    agencyFrom,
    named: { branch: named.branchUuid !== null, address: named.addressUuid !== null, tenant: named.tenantUuid !== null, jobType: named.jobTypeId !== null, trade: named.tradeId !== null },
  };
}

/**
 * The job type and trade of the body against the facts read: a trade of another agency answers
 * like a missing one.
 * @throws 400 naming job_type_id or trade_id
 */
function checkNamedLookups(input: CreateJobInput, facts: repo.PlacementFacts): void {
  if (input.job_type_id !== undefined && !facts.job_type_found) throw invalidParam('job_type_id');
  if (input.trade_id != null && !facts.trade_found) throw invalidParam('trade_id');
}

async function placeForTenant(db: DbOrTrx, tenantId: number, input: CreateJobInput): Promise<Placement> {
  for (const f of TENANT_FORBIDDEN_FIELDS) if (input[f] !== undefined) throw invalidParam(f);
  const named = namedIn(input);
  const facts = await repo.placementFacts(db, shapeOf('tenant', named), { ...named, agencyId: null, tenantId });
  if (facts.agency_id === null) throw notFound('Tenant');
  let address: { id: number; branchId: number | null };
  if (input.address_uuid) {
    if (facts.address_id === null || !facts.own_address_ids.includes(facts.address_id)) throw notFound('Address');
    address = { id: facts.address_id, branchId: facts.address_branch_id };
  } else if (facts.own_address_ids.length === 1) {
    address = { id: facts.own_address_ids[0]!, branchId: facts.own_address_branch_ids[0] ?? null };
  } else {
    throw invalidParam('address_uuid');
  }
  const branchId = address.branchId ?? facts.open_branch_ids[0];
  if (branchId === undefined) throw notFound('Branch');
  checkNamedLookups(input, facts);
  return { agencyId: facts.agency_id, branchId, addressId: address.id, tenantId };
}

/**
 * Decides agency, branch, address and tenant of a new job, and checks its job type and trade,
 * from one read of the database (`placementFacts`). Without `branch_uuid` the branch is the
 * caller's own (branch staff), else the property's branch when it is open, else the agency's only
 * open branch. A tenant reports at one of its own addresses (the only one when it names none).
 * @throws 400 naming branch_uuid when it cannot be chosen, a field a tenant may not set, or an
 *   unknown job_type_id or trade_id; 403 for contractors and landlords; 404 for a branch, address
 *   or tenant the caller cannot use
 */
export async function placeJob(db: DbOrTrx, auth: AuthContext, input: CreateJobInput): Promise<Placement> {
  if (auth.contractorId !== null) throw forbidden('Contractors cannot create jobs');
  if (auth.landlordId !== null) throw forbidden('Landlords read their properties\' jobs; the agency creates them');
  if (auth.tenantId !== null) return placeForTenant(db, auth.tenantId, input);

  const scope = jobScope(auth);
  // Without a branch named, only branch and agency staff have an agency to choose in.
  if (!input.branch_uuid && scope.kind !== 'branch' && scope.kind !== 'agency') throw invalidParam('branch_uuid');
  // The agency the references are resolved in: the caller's, or for SysOps the named branch's.
  const agencyId = scope.kind === 'all' ? null : auth.agencyId;
  const named = namedIn(input);
  const facts = await repo.placementFacts(db, shapeOf(agencyId === null ? 'branch' : 'caller', named), { ...named, agencyId, tenantId: null });
  let branchId: number;
  if (input.branch_uuid) {
    if (facts.branch_id === null || facts.branch_closed) throw notFound('Branch');
    if (scope.kind === 'branch' && facts.branch_id !== scope.branchId) throw notFound('Branch');
    branchId = facts.branch_id;
  } else if (scope.kind === 'branch') {
    branchId = scope.branchId;
  } else {
    const propertyBranch = facts.address_branch_id;
    if (propertyBranch !== null && facts.open_branch_ids.includes(propertyBranch)) branchId = propertyBranch;
    else if (facts.open_branch_ids.length === 1) branchId = facts.open_branch_ids[0]!;
    else throw invalidParam('branch_uuid');
  }
  if (facts.agency_id === null) throw notFound('Branch');
  if (input.address_uuid && facts.address_id === null) throw notFound('Address');
  if (input.tenant_uuid && facts.tenant_id === null) throw notFound('Tenant');
  checkNamedLookups(input, facts);
  return { agencyId: facts.agency_id, branchId, addressId: facts.address_id, tenantId: facts.tenant_id };
}
