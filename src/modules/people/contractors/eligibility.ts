/**
 * Whether a contractor may be assigned a job (docs/contractors.md), called by the jobs area when it
 * assigns: the contractor must belong to the job's agency and be active, and hold a valid
 * certificate of a type the job's trade requires (REQUIRED_CERTIFICATES in certification-types.ts) on
 * the day of the work. Offering the trade is scored by matching, not enforced here.
 */
import type { DbOrTrx } from '../../../db/types.ts';
import { conflict, notFound } from '../../../core/errors.ts';
import { certificateVerdict, isoDay } from './certification-types.ts';
import { certificationsOf, contractorActive } from './contractors.repository.ts';
import { findTrade } from './trades.repository.ts';

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
 * @throws 409 'Contractor is inactive', or naming the certificate: "Contractor's Gas Safe
 *   certificate expired on 2026-10-31" / "Contractor has no NICEIC or NAPIT certificate"
 */
export async function assertContractorAssignable(db: DbOrTrx, input: EligibilityInput): Promise<void> {
  const row = await contractorActive(db, input.agencyId, input.contractorId);
  if (!row) throw notFound('Contractor');
  if (!row.active) throw conflict('Contractor is inactive');
  if (input.tradeId === null) return;
  const trade = await findTrade(db, input.tradeId);
  if (!trade) return;
  const certs = await certificationsOf(db, [row.id]);
  const verdict = certificateVerdict(certs, trade.code, isoDay(input.at));
  if (!verdict.ok) throw conflict(verdict.reason);
}
