/**
 * Landlord approvals (docs/landlords.md "Approvals"): a quote or a job cost above the spend limit
 * of the job's property (the property's own limit, else the lowest of its landlords', else the
 * agency default) waits for the property's principal landlord (the largest share). The request
 * moves a Reported job to Awaiting approval and e-mails the landlord signed, single-use links
 * (approve, decline, ask a question). The answer, with its comment, is written on the job as an
 * internal note and moves the job on: approve -> Approved, decline -> On hold, question -> stays
 * (the agent answers and re-asks). Reminded once after the agency's reminder time; at expiry the
 * agents of the job's branch are told. At or under the limit nothing waits.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, notFound } from '../../../core/errors.ts';
import { readAgency, sameAgency } from '../../../core/agency-scope.ts';
import { addSeconds, SECONDS, toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { ApprovalStatus } from '../../../db/schema.ts';
import { emitEvent } from '../../../events/index.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { insertSystemNote } from '../../jobs/job-notes/index.ts';
import { STATUS, assertStaffMayWrite, jobRef, lockJob, moveJob, visibleJob, withLockedJob } from '../../jobs/jobs/index.ts';
import { formatPounds } from '../money/index.ts';
import { checkLink, linkKey, type LinkRefusal } from './approval-links.ts';
import * as repo from './approvals.repository.ts';
import type { ApprovalDto, ListApprovalsQuery, RequestApprovalInput } from './approvals.schemas.ts';
import { effectiveLimit, getLandlordRow, settingsFor } from './landlords.service.ts';

/** Answers a landlord can give by link. */
export type Answer = 'approve' | 'decline' | 'question';

/** Wire shape of an approval. */
export function toApprovalDto(r: repo.ApprovalRow): ApprovalDto {
  return {
    uuid: r.uuid, status: r.status, job_uuid: r.job_uuid, job_reference: r.job_reference, quote_uuid: r.quote_uuid ?? null,
    landlord_uuid: r.landlord_uuid, landlord_name: r.landlord_name, amount_pence: r.amount_pence, limit_pence: r.limit_pence,
    description: r.description, comment: r.comment, created_at: toIso(r.created_at), expires_at: toIso(r.expires_at),
    reminded_at: toIsoOrNull(r.reminded_at), answered_at: toIsoOrNull(r.answered_at), escalated_at: toIsoOrNull(r.escalated_at),
  };
}

/**
 * The identity a change made on the agency's behalf runs under (a landlord's answer by link, a
 * quote's automatic request): the user who answers for the job (its agent, else the agency's
 * first admin), with agency-wide staff rights and the landlord named in the activity log.
 */
async function onBehalfOf(db: DbOrTrx, agencyId: number, jobId: number, label: string): Promise<AuthContext> {
  const user = await repo.responsibleUser(db, agencyId, jobId);
  if (!user) throw conflict('The agency has no active agent or administrator to act for');
  return {
    userId: user.id, userUuid: user.uuid, name: label, email: user.email, agencyId, branchId: null, roleId: 0, roleCode: 'admin', roleName: 'Admin',
    level: 80, contractorId: null, tenantId: null, landlordId: null, permissions: new Set(), tokenId: 0, tokenKind: 'session',
  };
}

/** What a request needs to know about the job (a locked job row). */
type Job = Awaited<ReturnType<typeof lockJob>>;

/**
 * Opens an approval when `amount` is above the limit of the job's property and it has a
 * landlord; inside the caller's transaction, on the locked job.
 * @returns the limit that applied and the new approval's id (null when nothing waits)
 * @throws 409 when a request of the same quote (or another job cost of the job) already waits
 */
export async function openApproval(
  trx: DbOrTrx,
  now: Date,
  job: Job & { address_id: number | null },
  cost: { amount: number; description: string; quoteId: number | null; requestedBy: number | null },
  actor: Actor | null,
) {
  const e = await effectiveLimit(trx, job.agency_id, job.address_id);
  const owner = e.owners[0];
  if (e.limit === null || cost.amount <= e.limit || !owner) return { limit: e.limit, source: e.source, approvalId: null };
  if (await repo.openApprovalOf(trx, job.id, cost.quoteId)) throw conflict('This cost already waits for the landlord');
  const settings = await settingsFor(trx, job.agency_id);
  const expiresAt = addSeconds(now, settings.expires_after_hours * SECONDS.hour);
  const uuid = newUuid();
  const approvalId = await repo.insertApproval(trx, {
    uuid, agency_id: job.agency_id, job_id: job.id, quote_id: cost.quoteId, landlord_id: owner.id, amount_pence: cost.amount, limit_pence: e.limit,
    description: cost.description, status: 'pending', comment: null, requested_by_user_id: cost.requestedBy, created_at: now, expires_at: expiresAt,
    reminded_at: null, answered_at: null, escalated_at: null, updated_at: now,
  });
  await repo.insertLink(trx, approvalId, owner.id, expiresAt, now);
  const auth = actor?.auth ?? (await onBehalfOf(trx, job.agency_id, job.id, 'Caretaker (spend limit)'));
  const by: Actor = actor ?? { auth, ip: '127.0.0.1' };
  if (job.status_id === STATUS.reported) {
    await moveJob(trx, auth, by, now, job, { to: STATUS.awaitingApproval, via: 'transition', note: `Waiting for landlord approval of ${formatPounds(cost.amount)}` });
  }
  await insertSystemNote(trx, {
    uuid: newUuid(), jobId: job.id, at: now,
    body: `Landlord approval requested from ${owner.name}: ${cost.description}, ${formatPounds(cost.amount)} is above the spend limit of ${formatPounds(e.limit)} (${e.source}).`,
  });
  await emitEvent(trx, now, { name: 'approval.requested', agencyId: job.agency_id, payload: { ...jobRef(job), approval_id: approvalId, approval_uuid: uuid, landlord_id: owner.id, amount_pence: cost.amount } });
  await recordActivity(trx, by, now, {
    action: 'approval.request', resourceType: 'approval', resourceId: approvalId, agencyId: job.agency_id,
    details: { job_id: job.id, amount_pence: cost.amount, limit_pence: e.limit, limit_source: e.source },
  });
  return { limit: e.limit, source: e.source, approvalId };
}

/** The job row (locked) with its address. */
async function lockedJobWithAddress(trx: DbOrTrx, jobId: number) {
  const job = await lockJob(trx, jobId);
  const a = await repo.jobAddressId(trx, jobId);
  return { ...job, address_id: a.address_id };
}

/**
 * POST /api/jobs/{uuid}/landlord-approval: asks the landlord when the cost is above the limit.
 * @returns { required, limit_pence, limit_source, approval } (approval null when nothing waits)
 * @throws 403 shared branch, 404 job, 409 another job-cost request of the job waits
 */
export async function requestJobApproval(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: RequestApprovalInput) {
  const { result } = await withLockedJob(deps, auth, jobUuid, async (trx, _job, now) => {
    assertStaffMayWrite(auth, _job);
    const job = await lockedJobWithAddress(trx, _job.id);
    return openApproval(trx, now, job, { amount: input.amount_pence, description: input.description.trim(), quoteId: null, requestedBy: auth.userId }, actor);
  });
  const approval = result.approvalId === null ? null : toApprovalDto((await repo.findApprovalById(deps.db, result.approvalId))!);
  return { required: approval !== null, limit_pence: result.limit, limit_source: result.source, approval };
}

/**
 * The quote.submitted handler's work: a quote whose gross is above the limit waits for the
 * landlord (docs/landlords.md). Idempotent with the handler's completion row.
 */
export async function approvalForQuote(trx: DbOrTrx, now: Date, quoteId: number): Promise<void> {
  const q = await repo.quoteFacts(trx, quoteId);
  if (!q || q.status !== 'submitted') return;
  const job = await lockedJobWithAddress(trx, q.job_id);
  if (await repo.openApprovalOf(trx, job.id, q.id)) return;
  await openApproval(trx, now, job, { amount: q.gross_pence, description: `Quote from ${q.company_name}`, quoteId: q.id, requestedBy: q.submitted_by_user_id }, null);
}

/** GET /api/landlords/approvals: a page, newest first. @throws 404 job or landlord filter outside the agency */
export async function listApprovals(deps: AppDeps, auth: AuthContext, q: ListApprovalsQuery) {
  const jobId = q.job_uuid ? (await visibleJob(deps.db, auth, q.job_uuid)).id : undefined;
  const landlordId = q.landlord_uuid ? (await getLandlordRow(deps.db, auth, q.landlord_uuid)).id : undefined;
  const { rows, total } = await repo.listApprovals(deps.db, {
    agencyId: readAgency(auth), ...(q.status ? { status: q.status } : {}), ...(jobId !== undefined ? { jobId } : {}),
    ...(landlordId !== undefined ? { landlordId } : {}), limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map(toApprovalDto), total };
}

async function approvalRow(db: DbOrTrx, auth: AuthContext, uuid: string) {
  const row = await repo.findApprovalByUuid(db, uuid);
  if (!row || !sameAgency(auth, row.agency_id)) throw notFound('Approval');
  return row;
}

/** GET /api/landlords/approvals/{uuid}. @throws 404 */
export async function getApproval(deps: AppDeps, auth: AuthContext, uuid: string): Promise<ApprovalDto> {
  return toApprovalDto(await approvalRow(deps.db, auth, uuid));
}

/**
 * POST /api/landlords/approvals/{uuid}/revoke: withdraws a waiting approval; its links stop
 * working at once (refused with the "withdrawn" page).
 * @throws 404, 409 when already answered, expired or withdrawn
 */
export async function revokeApproval(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<ApprovalDto> {
  const row = await approvalRow(deps.db, auth, uuid);
  if (auth.agencyId === null) throw forbidden('This action needs an account of an agency');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.updateApprovalIf(trx, row.id, ['pending', 'question'], { status: 'cancelled', updated_at: now }))) {
      throw conflict(`The approval is already ${row.status}`);
    }
    const links = await repo.revokeLinks(trx, row.id, now);
    await recordActivity(trx, actor, now, { action: 'approval.revoke', resourceType: 'approval', resourceId: row.id, agencyId: row.agency_id, details: { links_revoked: links } });
  });
  return getApproval(deps, auth, uuid);
}

/**
 * POST /api/landlords/approvals/{uuid}/resend: after the landlord asked a question (or to replace
 * a lost e-mail), withdraws the old link and sends a new one with a fresh expiry.
 * @throws 404, 409 unless pending or questioned
 */
export async function resendApproval(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<ApprovalDto> {
  const row = await approvalRow(deps.db, auth, uuid);
  if (auth.agencyId === null) throw forbidden('This action needs an account of an agency');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const settings = await settingsFor(trx, row.agency_id);
    const expiresAt = addSeconds(now, settings.expires_after_hours * SECONDS.hour);
    if (!(await repo.updateApprovalIf(trx, row.id, ['pending', 'question'], { status: 'pending', expires_at: expiresAt, reminded_at: null, updated_at: now }))) {
      throw conflict(`The approval is already ${row.status}`);
    }
    await repo.revokeLinks(trx, row.id, now);
    await repo.insertLink(trx, row.id, row.landlord_id, expiresAt, now);
    const job = { id: row.job_id, uuid: row.job_uuid, reference: row.job_reference, branch_id: row.branch_id };
    await emitEvent(trx, now, { name: 'approval.requested', agencyId: row.agency_id, payload: { ...jobRef(job), approval_id: row.id, approval_uuid: row.uuid, landlord_id: row.landlord_id, amount_pence: row.amount_pence } });
    await recordActivity(trx, actor, now, { action: 'approval.resend', resourceType: 'approval', resourceId: row.id, agencyId: row.agency_id });
  });
  return getApproval(deps, auth, uuid);
}

/** The approval and link behind a token, for the answer page; or the refusal. */
export async function viewByLink(deps: AppDeps, token: string) {
  const now = deps.clock.now();
  const key = await linkKey(deps.db, now);
  const checked = await checkLink(deps.db, key, token, now);
  if (!checked.link) return { refusal: checked.refusal };
  const row = (await repo.findApprovalById(deps.db, checked.link.approval_id))!;
  const agency = await repo.agencyName(deps.db, row.agency_id);
  return { row, agencyName: agency.name };
}

const ANSWER_STATUS: Record<Answer, ApprovalStatus> = { approve: 'approved', decline: 'declined', question: 'question' };
const ANSWER_WORDS: Record<Answer, string> = { approve: 'approved', decline: 'declined', question: 'asked a question about' };

/**
 * POST /approvals/link/{token}: the landlord's answer. The link is consumed in the same
 * transaction as the answer, the job note and the job's move, so a link answers once.
 * @returns { action, jobReference } or { refusal }
 */
export async function answerByLink(deps: AppDeps, token: string, action: Answer, comment: string | null, ip: string): Promise<{ refusal: LinkRefusal } | { action: Answer; jobReference: string }> {
  const now = deps.clock.now();
  const key = await linkKey(deps.db, now);
  return deps.db.transaction().execute(async (trx) => {
    const checked = await checkLink(trx, key, token, now);
    if (!checked.link) return { refusal: checked.refusal };
    if (!(await repo.consumeLink(trx, checked.link.id, action, now))) return { refusal: 'used' as const };
    const row = (await repo.findApprovalById(trx, checked.link.approval_id))!;
    if (!(await repo.updateApprovalIf(trx, row.id, ['pending'], { status: ANSWER_STATUS[action], comment, answered_at: now, updated_at: now }))) {
      return { refusal: 'revoked' as const };
    }
    const job = await lockJob(trx, row.job_id);
    const auth = await onBehalfOf(trx, row.agency_id, row.job_id, `${row.landlord_name} (landlord, by link)`);
    const actor: Actor = { auth, ip };
    const said = `Landlord ${row.landlord_name} ${ANSWER_WORDS[action]} ${row.description} (${formatPounds(row.amount_pence)}) by link`;
    await insertSystemNote(trx, { uuid: newUuid(), jobId: row.job_id, at: now, body: comment ? `${said}: "${comment}"` : `${said}.` });
    if (action === 'approve' && (job.status_id === STATUS.reported || job.status_id === STATUS.awaitingApproval)) {
      await moveJob(trx, auth, actor, now, job, { to: STATUS.approved, via: 'transition', note: said });
    } else if (action === 'decline' && job.status_id === STATUS.awaitingApproval) {
      await moveJob(trx, auth, actor, now, job, { to: STATUS.onHold, via: 'transition', note: said });
    }
    await emitEvent(trx, now, { name: 'approval.answered', agencyId: row.agency_id, payload: { ...jobRef(job), approval_id: row.id, approval_uuid: row.uuid, landlord_id: row.landlord_id, amount_pence: row.amount_pence, answer: action } });
    await recordActivity(trx, actor, now, { action: 'approval.answer', resourceType: 'approval', resourceId: row.id, agencyId: row.agency_id, details: { answer: action } });
    return { action, jobReference: row.job_reference };
  });
}

/**
 * The periodic task's work (docs/landlords.md "Reminders and expiry"): reminds each pending
 * approval once after the agency's reminder time, and expires those whose time ran out (links
 * refused from then on, the agents told). Each row changes by compare-and-set, so with several
 * workers each approval is reminded and expired once.
 * @returns how many were reminded and expired
 */
export async function remindAndExpire(deps: AppDeps): Promise<{ reminded: number; expired: number }> {
  const now = deps.clock.now();
  let reminded = 0;
  let expired = 0;
  for (const { id } of await repo.dueReminders(deps.db, now)) {
    await deps.db.transaction().execute(async (trx) => {
      const row = (await repo.findApprovalById(trx, id))!;
      if (!(await repo.updateApprovalIf(trx, id, ['pending'], { reminded_at: now, updated_at: now }))) return;
      const job = { id: row.job_id, uuid: row.job_uuid, reference: row.job_reference, branch_id: row.branch_id };
      await emitEvent(trx, now, { name: 'approval.reminded', agencyId: row.agency_id, payload: { ...jobRef(job), approval_id: id, approval_uuid: row.uuid, landlord_id: row.landlord_id, amount_pence: row.amount_pence } });
      reminded += 1;
    });
  }
  for (const { id } of await repo.dueExpiries(deps.db, now)) {
    await deps.db.transaction().execute(async (trx) => {
      const row = (await repo.findApprovalById(trx, id))!;
      if (!(await repo.updateApprovalIf(trx, id, ['pending', 'question'], { status: 'expired', escalated_at: now, updated_at: now }))) return;
      const job = { id: row.job_id, uuid: row.job_uuid, reference: row.job_reference, branch_id: row.branch_id };
      await insertSystemNote(trx, { uuid: newUuid(), jobId: row.job_id, at: now, body: `Landlord ${row.landlord_name} did not answer the approval of ${row.description} (${formatPounds(row.amount_pence)}) in time; the branch's agents were told.` });
      await emitEvent(trx, now, { name: 'approval.expired', agencyId: row.agency_id, payload: { ...jobRef(job), approval_id: id, approval_uuid: row.uuid, landlord_id: row.landlord_id, amount_pence: row.amount_pence } });
      await recordActivity(trx, { auth: null, ip: '127.0.0.1' }, now, { action: 'approval.expire', resourceType: 'approval', resourceId: id, agencyId: row.agency_id, userName: 'Caretaker' });
      expired += 1;
    });
  }
  return { reminded, expired };
}
