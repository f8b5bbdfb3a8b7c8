/**
 * Whether a contractor may be assigned a job (issue "People" item 6): the contractor must belong to
 * the job's agency. The contractors module extends this with trades and certificates (an expired
 * certificate required for the trade is 409 naming the certificate).
 */
import type { DbOrTrx } from '../activity/activity.repository.ts';
import { notFound } from '../../http/errors.ts';

export interface EligibilityInput {
  contractorId: number;
  agencyId: number;
  /** Trade of the job, when known. */
  tradeId: number | null;
  /** Date of the work (certificates must be valid then). */
  at: Date;
}

/**
 * Checks that the contractor can be assigned.
 * @throws 404 'Contractor not found' when the contractor is not of the agency
 */
export async function assertContractorAssignable(db: DbOrTrx, input: EligibilityInput): Promise<void> {
  const row = await db
    .selectFrom('contractors')
    .select('id')
    .where('id', '=', input.contractorId)
    .where('agency_id', '=', input.agencyId)
    .executeTakeFirst();
  if (!row) throw notFound('Contractor');
}
