/**
 * Quotes (docs/money.md "Quotes"; Fixflo-style job award): a contractor, or staff on its behalf,
 * quotes for a job with lines; staff approve (within the job type's approval limit unless they hold
 * api.quotes.approve.above-limit) or reject. Approval sets the job's agreed cost to the quote's
 * gross, rejects the job's other open quotes and moves a Reported or Awaiting approval job to
 * Approved through the job lifecycle.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { emitEvent } from '../../../events/index.ts';
import { recordActivity, type DbOrTrx } from '../../../core/activity/index.ts';
import { assertStaffMayWrite, jobRef, moveJob, partyOf, visibleJob, withLockedJob } from '../../jobs/jobs/index.ts';
import { STATUS, STATUS_NAMES } from '../../jobs/jobs/index.ts';
import { moneyScope } from './access.ts';
import { computeLines } from './lines.ts';
import * as lrepo from './lines.repository.ts';
import type { QuoteDto, SubmitQuoteInput } from './money.schemas.ts';
import * as prepo from './pricing.repository.ts';
import * as repo from './quotes.repository.ts';
import { formatPounds, isoDate } from './vat.ts';

/** Statuses in which a job takes quotes (before the work is done). */
const QUOTABLE: readonly number[] = [STATUS.reported, STATUS.awaitingApproval, STATUS.approved, STATUS.assigned, STATUS.scheduled, STATUS.inProgress, STATUS.onHold];

/**
 * Wire shapes of quote rows with their lines. The decision's reason is the agency's internal note
 * ("within landlord limit for a tap repair", docs/money.md "Quotes"): a contractor gets null.
 */
async function toDtos(db: DbOrTrx, auth: AuthContext, rows: repo.QuoteRow[]): Promise<QuoteDto[]> {
  const internal = partyOf(auth) === 'staff';
  const lines = await lrepo.linesOf(db, 'quote_id', rows.map((r) => r.id));
  return rows.map((r) => ({
    uuid: r.uuid, job_uuid: r.job_uuid, job_reference: r.job_reference, contractor_uuid: r.contractor_uuid, contractor_name: r.contractor_name,
    status: r.status, vat_registered: r.vat_registered, net_pence: r.net_pence, vat_pence: r.vat_pence, gross_pence: r.gross_pence, notes: r.notes,
    decided_at: toIsoOrNull(r.decided_at), decision_reason: internal ? r.decision_reason : null, lines: lines.get(r.id) ?? [], created_at: toIso(r.created_at),
  }));
}

/** The quote as the caller sees it. @throws 404 'Quote not found' */
async function quoteDto(db: DbOrTrx, auth: AuthContext, uuid: string, jobId?: number): Promise<QuoteDto> {
  const row = await repo.findQuote(db, moneyScope(auth), uuid, jobId);
  if (!row) throw notFound('Quote');
  return (await toDtos(db, auth, [row]))[0]!;
}

/**
 * GET /api/jobs/{uuid}/quotes: a page of the job's quotes (contractors: their own), oldest first.
 * @throws 404 'Job not found'
 */
export async function listQuotes(deps: AppDeps, auth: AuthContext, jobUuid: string, page: { limit: number; offset: number }) {
  const job = await visibleJob(deps.db, auth, jobUuid);
  const { rows, total } = await repo.listQuotes(deps.db, moneyScope(auth), job.id, page);
  return { rows: await toDtos(deps.db, auth, rows), total };
}

/** GET /api/jobs/{uuid}/quotes/{quote_uuid}. @throws 404 'Job not found' / 'Quote not found' */
export async function getQuote(deps: AppDeps, auth: AuthContext, jobUuid: string, quoteUuid: string): Promise<QuoteDto> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  return quoteDto(deps.db, auth, quoteUuid, job.id);
}

/**
 * POST /api/jobs/{uuid}/quotes: submits a quote. Amounts are computed by the server (VAT per line
 * at today's rates; none when the contractor is not VAT registered).
 * @returns the quote (status submitted)
 * @throws 400 bad lines, contractor_uuid missing (staff, job without contractor), 403 shared
 *   branch or a contractor naming another, 404 job or contractor, 409 job past the work
 */
export async function submitQuote(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: SubmitQuoteInput): Promise<QuoteDto> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  const facts = await repo.jobFacts(deps.db, job.id);
  let contractorId: number;
  if (partyOf(auth) === 'contractor') {
    contractorId = auth.contractorId!;
    if (input.contractor_uuid && input.contractor_uuid !== job.contractor_uuid) throw forbidden('Contractors quote as themselves');
  } else {
    assertStaffMayWrite(auth, facts);
    if (input.contractor_uuid) {
      const c = await prepo.findContractor(deps.db, facts.agency_id, input.contractor_uuid);
      if (!c || !c.active) throw notFound('Contractor');
      contractorId = c.id;
    } else if (facts.contractor_id !== null) {
      contractorId = facts.contractor_id;
    } else {
      throw invalidParam('contractor_uuid');
    }
  }
  const { uuid } = await deps.db.transaction().execute((trx) => insertQuoteFor(trx, deps.clock.now(), actor, facts.id, contractorId, auth.userId, input));
  return quoteDto(deps.db, auth, uuid);
}

/**
 * Writes a submitted quote of `contractorId` for the job inside the caller's transaction: lines
 * priced at today's VAT rates (none when the contractor is not VAT registered), the event
 * `quote.submitted` (a landlord approval may follow, docs/landlords.md) and the activity entry.
 * The caller has decided that the contractor may quote (its own job, or an invitation to quote,
 * docs/works-orders.md).
 * @returns the new quote's id, uuid and gross pence
 * @throws 400 bad lines, 409 a job past the work
 */
export async function insertQuoteFor(trx: DbOrTrx, now: Date, actor: Actor, jobId: number, contractorId: number, userId: number | null, input: SubmitQuoteInput) {
  const facts = await repo.jobFacts(trx, jobId);
  if (!QUOTABLE.includes(facts.status_id)) throw conflict(`A job in status ${STATUS_NAMES[facts.status_id]} takes no quotes`);
  const vat = await lrepo.contractorVat(trx, contractorId);
  const { lines, totals } = await computeLines(trx, facts.agency_id, isoDate(now), vat.registered, input.lines);
  const uuid = newUuid();
  const id = await repo.insertQuote(trx, {
    uuid, agency_id: facts.agency_id, job_id: facts.id, contractor_id: contractorId, status: 'submitted', vat_registered: vat.registered, ...totals,
    notes: input.notes ?? null, submitted_by_user_id: userId, decided_by_user_id: null, decided_at: null, decision_reason: null, created_at: now, updated_at: now,
  });
  await lrepo.replaceLines(trx, { quoteId: id }, lines);
  await emitEvent(trx, now, { name: 'quote.submitted', agencyId: facts.agency_id, payload: { ...jobRef(facts), quote_id: id, quote_uuid: uuid, contractor_id: contractorId, gross_pence: totals.gross_pence } });
  await recordActivity(trx, actor, now, { action: 'quote.submit', resourceType: 'quote', resourceId: id, agencyId: facts.agency_id, details: { job_id: facts.id, gross_pence: totals.gross_pence } });
  return { id, uuid, gross_pence: totals.gross_pence };
}

/**
 * POST /api/jobs/{uuid}/quotes/{quote_uuid}/approve or /reject.
 * @returns the quote after the decision
 * @throws 403 staff without write rights on the job, or a quote above the approval limit without
 *   api.quotes.approve.above-limit; 404 job or quote; 409 quote already decided, or (approve) the
 *   job already has an approved quote
 */
export async function decideQuote(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, quoteUuid: string, decision: 'approve' | 'reject', reason: string | null): Promise<QuoteDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const visible = await visibleJob(deps.db, auth, jobUuid);
  const found = await repo.findQuote(deps.db, moneyScope(auth), quoteUuid, visible.id);
  if (!found) throw notFound('Quote');
  await withLockedJob(deps, auth, jobUuid, async (trx, job, now) => {
    assertStaffMayWrite(auth, job);
    const quote = await repo.lockQuote(trx, found.id);
    if (quote.status !== 'submitted') throw conflict(`The quote is already ${quote.status}`);
    const ref = { ...jobRef(job), quote_id: quote.id, quote_uuid: quote.uuid, contractor_id: quote.contractor_id, gross_pence: quote.gross_pence };
    const decided = { decided_by_user_id: auth.userId, decided_at: now, updated_at: now };
    if (decision === 'reject') {
      await repo.updateQuote(trx, quote.id, { status: 'rejected', decision_reason: reason, ...decided });
      await emitEvent(trx, now, { name: 'quote.rejected', agencyId: job.agency_id, payload: { ...ref, reason } });
      await recordActivity(trx, actor, now, { action: 'quote.reject', resourceType: 'quote', resourceId: quote.id, agencyId: job.agency_id });
      return;
    }
    if (await repo.hasApproved(trx, job.id)) throw conflict('The job already has an approved quote');
    const facts = await repo.jobFacts(trx, job.id);
    const limit = await prepo.approvalLimit(trx, job.agency_id, facts.job_type_id);
    if (limit !== null && quote.gross_pence > limit && !auth.permissions.has('api.quotes.approve.above-limit')) {
      throw forbidden(`The quote of ${formatPounds(quote.gross_pence)} is above the approval limit of ${formatPounds(limit)} for this job type`);
    }
    await repo.updateQuote(trx, quote.id, { status: 'approved', decision_reason: reason, ...decided });
    for (const other of await repo.otherSubmitted(trx, job.id, quote.id)) {
      const why = 'Another quote was approved';
      await repo.updateQuote(trx, other.id, { status: 'rejected', decision_reason: why, ...decided });
      await emitEvent(trx, now, { name: 'quote.rejected', agencyId: job.agency_id, payload: { ...jobRef(job), quote_id: other.id, quote_uuid: other.uuid, contractor_id: other.contractor_id, gross_pence: other.gross_pence, reason: why } });
      await recordActivity(trx, actor, now, { action: 'quote.reject', resourceType: 'quote', resourceId: other.id, agencyId: job.agency_id, details: { reason: why } });
    }
    await repo.setAgreedCost(trx, job.id, quote.gross_pence, now);
    if (job.status_id === STATUS.reported || job.status_id === STATUS.awaitingApproval) {
      await moveJob(trx, auth, actor, now, job, { to: STATUS.approved, via: 'transition', note: 'Quote approved' });
    }
    await emitEvent(trx, now, { name: 'quote.approved', agencyId: job.agency_id, payload: ref });
    await recordActivity(trx, actor, now, { action: 'quote.approve', resourceType: 'quote', resourceId: quote.id, agencyId: job.agency_id, details: { gross_pence: quote.gross_pence } });
  });
  return quoteDto(deps.db, auth, quoteUuid);
}
