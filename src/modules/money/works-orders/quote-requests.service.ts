/**
 * Competing quotes (docs/works-orders.md "Competing quotes"): the agent asks several contractors
 * (2 to 10) to quote for a job by a deadline; each is e-mailed a signed quote link (the works-order
 * link mechanism, purpose `quote`, single-use, expiring at the deadline) and a contractor with a
 * portal login can also answer in the portal. The agent compares the quotes side by side and
 * awards one: the quote is approved through the money module's own rule (`decideQuote`: agreed
 * cost, the job's other open quotes rejected, the job moved to Approved), the request is closed and
 * the winner and the others are told (`quote_request.awarded`). A quote approved the ordinary way
 * (POST /api/jobs/{uuid}/quotes/{quote_uuid}/approve) awards the request the same way.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { SECONDS, addSeconds, toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { STATUS, assertStaffMayWrite, jobRef, lockJob, partyOf, visibleJob } from '../../jobs/jobs/index.ts';
import { decideQuote, insertQuoteFor } from '../money/index.ts';
import { checkWorksOrderLink, worksOrderKey, type LinkRefusal } from './links.ts';
import * as repo from './works-orders.repository.ts';
import type { AwardInput, CreateQuoteRequestInput, LinkActionInput, LinkViewDto, PortalQuoteInput, QuoteRequestDto } from './works-orders.schemas.ts';
import { formLine, linkAuth, viewOf } from './works-orders.service.ts';

/** Statuses in which a job can be sent out for quotes (before the work is given). */
const ASKABLE: readonly number[] = [STATUS.reported, STATUS.awaitingApproval, STATUS.approved, STATUS.onHold];

/** The side-by-side view of a request: quotes received cheapest first (ranked), then the rest. */
export function toRequestDto(r: repo.QuoteRequestRow, invitations: repo.InvitationRow[], now: Date): QuoteRequestDto {
  const quoted = invitations.filter((i) => i.gross_pence !== null && i.quote_uuid !== null).sort((a, b) => a.gross_pence! - b.gross_pence! || a.id - b.id);
  const rest = invitations.filter((i) => !quoted.includes(i));
  const awarded = invitations.find((i) => i.quote_id !== null && i.quote_id === r.awarded_quote_id);
  return {
    uuid: r.uuid, job_uuid: r.job_uuid, job_reference: r.job_reference, job_title: r.job_title, status: r.status, deadline_at: toIso(r.deadline_at),
    past_deadline: new Date(r.deadline_at) <= now, notes: r.notes, awarded_quote_uuid: awarded?.quote_uuid ?? null, awarded_at: toIsoOrNull(r.awarded_at), created_at: toIso(r.created_at),
    entries: [...quoted, ...rest].map((i) => ({
      contractor_uuid: i.contractor_uuid, contractor_name: i.company_name, status: i.status, responded_at: toIsoOrNull(i.responded_at), quote_uuid: i.quote_uuid ?? null,
      quote_status: i.quote_status ?? null, net_pence: i.net_pence ?? null, vat_pence: i.vat_pence ?? null, gross_pence: i.gross_pence ?? null, notes: i.quote_notes ?? null,
      rank: quoted.includes(i) ? quoted.indexOf(i) + 1 : null,
    })),
  };
}

async function requestDto(db: DbOrTrx, id: number, now: Date): Promise<QuoteRequestDto> {
  const r = await repo.quoteRequestById(db, id);
  return toRequestDto(r, await repo.invitationsOf(db, [r.id]), now);
}

/**
 * POST /api/jobs/{uuid}/quote-requests: asks 2 to 10 active contractors of the agency for quotes
 * by `deadline_at`; each gets a signed quote link by e-mail (after commit).
 * @returns the request (every entry `invited`)
 * @throws 400 deadline in the past or more than 60 days ahead, 403 not staff or a shared branch,
 *   404 job or a contractor outside the agency, 409 a job past approval, another open request
 *   of the job, or a contractor without an e-mail address
 */
export async function createQuoteRequest(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: CreateQuoteRequestInput): Promise<QuoteRequestDto> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  assertStaffMayWrite(auth, job);
  const now = deps.clock.now();
  const deadline = new Date(input.deadline_at);
  if (!(deadline > now) || deadline > addSeconds(now, 60 * SECONDS.day)) throw invalidParam('deadline_at');
  const contractors = await repo.contractorsByUuid(deps.db, job.agency_id, input.contractor_uuids);
  if (contractors.length !== input.contractor_uuids.length || contractors.some((c) => !c.active)) throw notFound('Contractor');
  const noMail = contractors.find((c) => !c.email);
  if (noMail) throw conflict(`${noMail.company_name} has no e-mail address to ask for a quote`);
  const id = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockJob(trx, job.id);
    if (!ASKABLE.includes(locked.status_id)) throw conflict('Quotes are asked for before the job is given to a contractor (Reported, Awaiting approval, Approved or On hold)');
    if (await repo.lockOpenRequestOfJob(trx, job.id)) throw conflict('The job already has an open quote request');
    const uuid = newUuid();
    const requestId = await repo.insertQuoteRequest(trx, {
      uuid, agency_id: locked.agency_id, job_id: job.id, deadline_at: deadline, notes: input.notes?.trim() || null, status: 'open', awarded_quote_id: null, awarded_at: null,
      created_by_user_id: auth.userId, created_at: now, updated_at: now,
    });
    for (const c of contractors) {
      await repo.insertInvitation(trx, requestId, c.id, now);
      await repo.insertLink(trx, {
        uuid: newUuid(), agency_id: locked.agency_id, job_id: job.id, contractor_id: c.id, purpose: 'quote', quote_request_id: requestId, expires_at: deadline,
        created_by_user_id: auth.userId, created_at: now, last_used_at: null, used_at: null, used_action: null, revoked_at: null, revoked_by_user_id: null,
      });
    }
    await emitEvent(trx, now, { name: 'quote_request.sent', agencyId: locked.agency_id, payload: { ...jobRef(locked), quote_request_id: requestId, quote_request_uuid: uuid } });
    await recordActivity(trx, actor, now, { action: 'quote_request.create', resourceType: 'job', resourceId: job.id, agencyId: locked.agency_id, details: { contractors: contractors.length, deadline_at: deadline.toISOString() } });
    return requestId;
  });
  return requestDto(deps.db, id, now);
}

/** The request in the caller's scope (staff: the job visible). @throws 404 */
async function visibleRequest(deps: AppDeps, auth: AuthContext, uuid: string) {
  const r = await repo.findQuoteRequest(deps.db, uuid);
  if (!r) throw notFound('Quote request');
  await visibleJob(deps.db, auth, r.job_uuid).catch(() => {
    throw notFound('Quote request');
  });
  return r;
}

/** GET /api/jobs/{uuid}/quote-requests: the job's requests, newest first, each side by side. @throws 403 non-staff, 404 */
export async function listQuoteRequests(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<QuoteRequestDto[]> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const job = await visibleJob(deps.db, auth, jobUuid);
  const rows = await repo.requestsOfJob(deps.db, job.id);
  const inv = await repo.invitationsOf(deps.db, rows.map((r) => r.id));
  const now = deps.clock.now();
  return rows.map((r) => toRequestDto(r, inv.filter((i) => i.quote_request_id === r.id), now));
}

/** GET /api/quote-requests/{uuid}: one request with its quotes side by side. @throws 403 non-staff, 404 */
export async function getQuoteRequest(deps: AppDeps, auth: AuthContext, uuid: string): Promise<QuoteRequestDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const r = await visibleRequest(deps, auth, uuid);
  return requestDto(deps.db, r.id, deps.clock.now());
}

/**
 * POST /api/quote-requests/{uuid}/award: awards the request to one of its quotes (before or after
 * the deadline): the money module approves it (its approval-limit rule applies), the request is
 * closed, the live quote links are withdrawn and everyone asked is told.
 * @throws 403 (approval limit, shared branch), 404 request or a quote not of this request, 409 the
 *   request is not open or the quote is not submitted
 */
export async function awardQuoteRequest(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: AwardInput): Promise<QuoteRequestDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const r = await visibleRequest(deps, auth, uuid);
  if (r.status !== 'open') throw conflict(`The quote request is already ${r.status}`);
  const quote = await repo.quoteByUuid(deps.db, r.job_id, input.quote_uuid);
  const inv = quote ? await repo.requestOfQuote(deps.db, quote.id) : undefined;
  if (!quote || !inv || inv.id !== r.id) throw notFound('Quote');
  await decideQuote(deps, auth, actor, r.job_uuid, quote.uuid, 'approve', input.reason?.trim() || null);
  await deps.db.transaction().execute((trx) => awardFromQuote(trx, deps.clock.now(), quote.id, actor));
  return requestDto(deps.db, r.id, deps.clock.now());
}

/**
 * Closes the open request a just-approved quote answers (idempotent: a request already closed is
 * left alone), marks the winner and the others, withdraws the live quote links and emits
 * `quote_request.awarded`. Runs after the award, and from the handler of `quote.approved`.
 */
export async function awardFromQuote(trx: DbOrTrx, now: Date, quoteId: number, actor: Actor | null): Promise<void> {
  const inv = await repo.requestOfQuote(trx, quoteId);
  const q = await repo.quoteOf(trx, quoteId);
  if (!inv || !q || q.status !== 'approved' || inv.status !== 'open') return;
  if (!(await repo.updateRequestIfOpen(trx, inv.id, { status: 'awarded', awarded_quote_id: quoteId, awarded_at: now, updated_at: now }))) return;
  await repo.settleInvitations(trx, inv.id, q.contractor_id);
  await repo.revokeLiveLinks(trx, q.job_id, 'quote', now, null);
  const r = await repo.quoteRequestById(trx, inv.id);
  await emitEvent(trx, now, {
    name: 'quote_request.awarded', agencyId: r.agency_id,
    payload: { ...jobRef({ id: r.job_id, uuid: r.job_uuid, reference: r.job_reference, branch_id: r.branch_id }), quote_request_id: r.id, quote_request_uuid: r.uuid, quote_id: q.id, quote_uuid: q.uuid, contractor_id: q.contractor_id, gross_pence: q.gross_pence },
  });
  await recordActivity(trx, actor ?? { auth: null, ip: '127.0.0.1' }, now, {
    action: 'quote_request.award', resourceType: 'job', resourceId: r.job_id, agencyId: r.agency_id, details: { quote_request_uuid: r.uuid, quote_id: q.id }, ...(actor ? {} : { userName: 'Caretaker' }),
  });
}

/**
 * Answers an invitation (inside the caller's transaction): a quote through the money module's own
 * writer (VAT per line, `quote.submitted`, activity) or "cannot quote".
 * @throws 409 when the request is closed, past its deadline, or already answered by this contractor
 */
async function answer(trx: DbOrTrx, now: Date, actor: Actor, requestId: number, contractorId: number, userId: number | null, a: { lines?: PortalQuoteInput['lines']; notes?: string | null; decline: boolean }) {
  const r = await repo.quoteRequestById(trx, requestId);
  if (r.status !== 'open') throw conflict(`The quote request is ${r.status}`);
  if (new Date(r.deadline_at) <= now) throw conflict('The deadline for quotes has passed');
  const inv = await repo.lockInvitation(trx, requestId, contractorId);
  if (!inv) throw notFound('Quote request');
  if (inv.status !== 'invited') throw conflict('You have already answered this request');
  if (a.decline) {
    await repo.answerInvitation(trx, inv.id, 'declined', null, now);
    await recordActivity(trx, actor, now, { action: 'quote_request.decline', resourceType: 'job', resourceId: r.job_id, agencyId: r.agency_id, details: { quote_request_uuid: r.uuid } });
    return;
  }
  if (!a.lines) throw invalidParam('lines');
  const q = await insertQuoteFor(trx, now, actor, r.job_id, contractorId, userId, { lines: a.lines, notes: a.notes ?? null });
  await repo.answerInvitation(trx, inv.id, 'quoted', q.id, now);
}

/** GET /api/quote-requests/invitations: the open requests the calling contractor is asked to answer. @throws 403 non-contractor */
export async function myInvitations(deps: AppDeps, auth: AuthContext) {
  if (partyOf(auth) !== 'contractor') throw forbidden('Invitations to quote are for contractors');
  const rows = await repo.openInvitationsOfContractor(deps.db, auth.contractorId!);
  return rows.map((r) => ({
    quote_request_uuid: r.uuid, job_uuid: r.job_uuid, job_reference: r.job_reference, job_title: r.job_title, job_description: r.job_description,
    address: r.line1 ? [r.line1, r.town, r.postcode].filter(Boolean).join(', ') : null, deadline_at: toIso(r.deadline_at), notes: r.notes, status: r.invitation_status,
  }));
}

/**
 * POST /api/quote-requests/{uuid}/answer: a contractor answers in the portal: a quote (lines) or
 * `decline: true`. The quote link of the same invitation is used up with it.
 * @returns the contractor's invitations after the answer
 * @throws 400 no lines, 403 non-contractor, 404 not invited, 409 closed, past deadline or answered
 */
export async function answerInPortal(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: PortalQuoteInput) {
  if (partyOf(auth) !== 'contractor') throw forbidden('Quotes for a request are answered by the contractors asked');
  const r = await repo.findQuoteRequest(deps.db, uuid);
  if (!r || r.agency_id !== auth.agencyId) throw notFound('Quote request');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await answer(trx, now, actor, r.id, auth.contractorId!, auth.userId, { ...(input.lines ? { lines: input.lines } : {}), notes: input.notes ?? null, decline: input.decline === true });
    await repo.consumeQuoteLinks(trx, r.id, auth.contractorId!, input.decline ? 'decline_quote' : 'quote', now);
  });
  return myInvitations(deps, auth);
}

/** The page's facts of a live quote link (refused as used once answered in the portal). */
export async function quoteLinkView(db: DbOrTrx, link: repo.LinkRow, now: Date): Promise<LinkViewDto | { refusal: LinkRefusal }> {
  const r = await repo.quoteRequestById(db, link.quote_request_id!);
  if (r.status !== 'open') return { refusal: 'revoked' };
  if (new Date(r.deadline_at) <= now) return { refusal: 'expired' };
  return viewOf(db, link, null, { quoteDeadline: new Date(r.deadline_at), actions: ['quote', 'decline_quote'] });
}

const QUOTE_DONE = { quote: 'Your quote was sent to the agency. Thank you: you will hear whether it was chosen.', decline_quote: 'Thank you for letting the agency know that you cannot quote.' };

/**
 * POST /api/works-orders/link/{token} on a quote link: the contractor's quote (one form line in
 * pounds, or `lines` in pence) or "cannot quote". The link is used up in the same transaction.
 * @returns { view } or { refusal }
 * @throws 400 bad lines or an action quote links do not take, 409 closed or past the deadline
 */
export async function answerByQuoteLink(deps: AppDeps, token: string, input: LinkActionInput, ip: string): Promise<{ view: LinkViewDto } | { refusal: LinkRefusal } | null> {
  const now = deps.clock.now();
  const key = await worksOrderKey(deps.db, now);
  const first = await checkWorksOrderLink(deps.db, key, token, now);
  if (first.link && first.link.purpose !== 'quote') return null;
  if (!first.link) return { refusal: first.refusal };
  if (input.action !== 'quote' && input.action !== 'decline_quote') throw new AppError('bad_request', 'This link takes a quote or "cannot quote"');
  const lines = input.action === 'quote' ? formLine(input) : undefined;
  return deps.db.transaction().execute(async (trx) => {
    const checked = await checkWorksOrderLink(trx, key, token, now);
    if (!checked.link) return { refusal: checked.refusal };
    const link = checked.link;
    if (!(await repo.consumeLink(trx, link.id, input.action, now))) return { refusal: 'used' as const };
    const auth = await linkAuth(trx, link);
    await answer(trx, now, { auth, ip }, link.quote_request_id!, link.contractor_id, auth.userId, { ...(lines ? { lines } : {}), notes: input.notes?.trim() || null, decline: input.action === 'decline_quote' });
    const view = await viewOf(trx, link, QUOTE_DONE[input.action as 'quote'], { quoteDeadline: null, actions: [] });
    return { view };
  });
}
