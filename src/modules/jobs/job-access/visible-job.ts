/**
 * Finding one job the caller may see, for the areas that hang records off a job (case notes,
 * documents and photos). Built only on the stable jobs functions `jobScope` and `visibleTo`: a job outside the caller's scope is the same 404 "Job not found" as a missing one.
 */
import type { AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { findVisibleJobRef, jobScope, type JobScope } from '../jobs/index.ts';

/** The fields of a job that notes and files need. */
export interface VisibleJob {
  id: number;
  uuid: string;
  agencyId: number;
  reference: string;
  branchId: number;
}

/** True for staff scopes (SysOps, agency admin or API account, agent): they see internal records. */
export function isStaffScope(scope: JobScope): boolean {
  return scope.kind === 'all' || scope.kind === 'agency' || scope.kind === 'branch';
}

/**
 * The job with this uuid if the caller may see it.
 * @returns { job, scope, staff } where staff is isStaffScope(scope)
 * @throws 404 "Job not found" when it does not exist, is deleted or is outside the caller's scope
 */
export async function findVisibleJob(db: DbOrTrx, auth: AuthContext, uuid: string) {
  const scope = jobScope(auth);
  // jobs alone: the joins of jobsQuery follow required foreign keys, so they change no row, and
  // planning them cost more than this lookup.
  const row = await findVisibleJobRef(db, scope, uuid);
  if (!row) throw notFound('Job');
  const job: VisibleJob = { id: row.id, uuid: row.uuid, agencyId: row.agency_id, reference: row.reference, branchId: row.branch_id };
  return { job, scope, staff: isStaffScope(scope) };
}
