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

async function placeForTenant(db: DbOrTrx, tenantId: number, input: CreateJobInput): Promise<Placement> {
  for (const f of TENANT_FORBIDDEN_FIELDS) if (input[f] !== undefined) throw invalidParam(f);
  const tenant = await repo.tenantAgency(db, tenantId);
  if (!tenant) throw notFound('Tenant');
  const own = await repo.tenantAddressIds(db, tenantId);
  let address: { id: number; branch_id: number | null } | undefined;
  if (input.address_uuid) {
    address = await repo.findAddress(db, input.address_uuid, tenant.agency_id);
    if (!address || !own.includes(address.id)) throw notFound('Address');
  } else if (own.length === 1) {
    address = await repo.findAddressBranch(db, own[0]!);
  } else {
    throw invalidParam('address_uuid');
  }
  let branchId = address?.branch_id ?? null;
  if (branchId === null) {
    const branches = await repo.openBranches(db, tenant.agency_id);
    if (!branches[0]) throw notFound('Branch');
    branchId = branches[0].id;
  }
  return { agencyId: tenant.agency_id, branchId, addressId: address?.id ?? null, tenantId };
}

/**
 * Decides agency, branch, address and tenant of a new job. Without `branch_uuid` the branch is
 * the caller's own (branch staff), else the property's branch when it is open, else the agency's
 * only open branch.
 * @throws 400 branch_uuid when it cannot be chosen, 403 for contractors, 404 for a branch,
 *   address or tenant the caller cannot use
 */
export async function placeJob(db: DbOrTrx, auth: AuthContext, input: CreateJobInput): Promise<Placement> {
  if (auth.contractorId !== null) throw forbidden('Contractors cannot create jobs');
  if (auth.landlordId !== null) throw forbidden('Landlords read their properties\' jobs; the agency creates them');
  if (auth.tenantId !== null) return placeForTenant(db, auth.tenantId, input);

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
    const propertyBranch = input.address_uuid ? (await repo.findAddress(db, input.address_uuid, scope.agencyId))?.branch_id ?? null : null;
    const fromProperty = branches.find((b) => b.id === propertyBranch);
    if (fromProperty) branchId = fromProperty.id;
    else if (branches.length === 1 && branches[0]) branchId = branches[0].id;
    else throw invalidParam('branch_uuid');
    agencyId = scope.agencyId;
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
