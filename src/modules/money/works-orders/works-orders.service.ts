/**
 * Works orders by link (docs/works-orders.md): a contractor without an account works a job from
 * a signed link e-mailed to it. The agent sends (and re-sends) the works order of an assigned job
 * and can revoke it; the link is scoped to one job and one contractor and expires. Every action by
 * link runs the portal's own service as that contractor (lifecycle rules, activity log, events):
 * accept and decline (`acceptAssignment`, `declineAssignment`), book the visit (`bookVisit`),
 * notes (`createJobNote`, shared with the contractor), photos (`uploadJobFile`), attended and
 * completed (`transitionJob`), and the invoice (`createInvoice`, a draft the agency issues). A
 * decline or an invoice is final: it uses the link up (one conditional update, before the action
 * and given back if the action fails), so a link declines or invoices once.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import { addSeconds, SECONDS, toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { createJobNote } from '../../jobs/job-notes/index.ts';
import { uploadJobFile } from '../../jobs/job-files/index.ts';
import { STATUS, acceptAssignment, lockJob, assertStaffMayWrite, bookVisit, declineAssignment, jobRef, transitionJob, visibleJob, visitWindows } from '../../jobs/jobs/index.ts';
import { londonDate, londonToUtc } from '../../../lib/london-time.ts';
import { createInvoice, type LineInputDto } from '../money/index.ts';
import type { Upload } from '../../../http/upload.ts';
import { checkWorksOrderLink, worksOrderKey, type LinkRefusal } from './links.ts';
import * as repo from './works-orders.repository.ts';
import type { LinkAction, LinkActionInput, LinkViewDto, SendWorksOrderInput, WorksOrderLinkDto } from './works-orders.schemas.ts';

/** Statuses in which a works order can be sent (the job is with its contractor). */
const SENDABLE: readonly number[] = [STATUS.assigned, STATUS.scheduled, STATUS.inProgress, STATUS.completed];
/** Default life of a works-order link, days. */
export const WORKS_ORDER_DAYS = 30;

/** Wire shape of a link row. */
export function toLinkDto(r: repo.LinkRow, now: Date): WorksOrderLinkDto {
  const state = r.revoked_at !== null ? 'revoked' : r.used_at !== null ? 'used' : new Date(r.expires_at) <= now ? 'expired' : 'live';
  return {
    uuid: r.uuid, purpose: r.purpose, state, job_uuid: r.job_uuid, job_reference: r.job_reference, contractor_uuid: r.contractor_uuid, contractor_name: r.company_name,
    sent_to: r.contractor_email, expires_at: toIso(r.expires_at), created_at: toIso(r.created_at), last_used_at: toIsoOrNull(r.last_used_at),
    used_at: toIsoOrNull(r.used_at), used_action: r.used_action, revoked_at: toIsoOrNull(r.revoked_at),
  };
}

/**
 * POST /api/jobs/{uuid}/works-order: e-mails the job's contractor a works order with a signed
 * link (after commit, by the handler of `works_order.sent`); an earlier live works-order link of
 * the job is revoked, so one link works at a time.
 * @returns the new link (no token: it only travels in the e-mail)
 * @throws 403 not staff or a shared branch, 404 job, 409 no contractor, a status outside
 *   Assigned..Completed, or a contractor without an e-mail address
 */
export async function sendWorksOrder(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: SendWorksOrderInput): Promise<WorksOrderLinkDto> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  assertStaffMayWrite(auth, job);
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockedJob(trx, job.id);
    if (locked.contractor_id === null) throw conflict('Assign the job to a contractor before sending the works order');
    if (!SENDABLE.includes(locked.status_id)) throw conflict(`A works order is sent for an Assigned, Scheduled, In progress or Completed job; this one is ${locked.status}`);
    if (!locked.contractor_email) throw conflict('The contractor has no e-mail address to send the works order to');
    await repo.revokeLiveLinks(trx, job.id, 'works_order', now, auth.userId);
    const expiresAt = addSeconds(now, (input.expires_in_days ?? WORKS_ORDER_DAYS) * SECONDS.day);
    const link = await repo.insertLink(trx, {
      uuid: newUuid(), agency_id: locked.agency_id, job_id: job.id, contractor_id: locked.contractor_id, purpose: 'works_order', quote_request_id: null,
      expires_at: expiresAt, created_by_user_id: auth.userId, created_at: now, last_used_at: null, used_at: null, used_action: null, revoked_at: null, revoked_by_user_id: null,
    });
    await emitEvent(trx, now, { name: 'works_order.sent', agencyId: locked.agency_id, payload: { ...jobRef(locked), link_id: link.id, contractor_id: locked.contractor_id } });
    await recordActivity(trx, actor, now, { action: 'works_order.send', resourceType: 'job', resourceId: job.id, agencyId: locked.agency_id, details: { contractor_id: locked.contractor_id } });
    return link.id;
  });
  return toLinkDto((await repo.findLinkById(deps.db, id))!, now);
}

async function lockedJob(trx: DbOrTrx, jobId: number) {
  const j = await lockJob(trx, jobId);
  const view = await repo.jobForLink(trx, jobId);
  const c = j.contractor_id === null ? undefined : (await repo.contractorsOfIds(trx, [j.contractor_id]))[0];
  return { ...j, status: view.status, contractor_email: c?.email ?? null };
}

/** GET /api/jobs/{uuid}/works-order-links: the job's links (works orders and quote invitations), newest first. @throws 403, 404 */
export async function listJobLinks(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<WorksOrderLinkDto[]> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  const now = deps.clock.now();
  return (await repo.linksOfJob(deps.db, job.id)).map((r) => toLinkDto(r, now));
}

/**
 * POST /api/works-order-links/{uuid}/revoke: the agent withdraws a link; it is refused from then on
 * with the "withdrawn" page.
 * @throws 403 not staff or a shared branch, 404 link (or another agency's), 409 used or revoked already
 */
export async function revokeWorksOrderLink(deps: AppDeps, auth: AuthContext, actor: Actor, linkUuid: string): Promise<WorksOrderLinkDto> {
  const row = await repo.findLinkByUuid(deps.db, linkUuid, readAgency(auth));
  if (!row) throw notFound('Link');
  const job = await visibleJob(deps.db, auth, row.job_uuid);
  assertStaffMayWrite(auth, job);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.revokeLink(trx, row.id, now, auth.userId))) throw conflict(row.revoked_at !== null ? 'The link is already withdrawn' : 'The link was already used');
    await recordActivity(trx, actor, now, { action: 'works_order.revoke', resourceType: 'job', resourceId: row.job_id, agencyId: row.agency_id, details: { link_uuid: row.uuid, purpose: row.purpose } });
  });
  return toLinkDto((await repo.findLinkById(deps.db, row.id))!, now);
}

/**
 * The identity an action by link runs under: the link's contractor (so the portal's party rules
 * apply: its own job only, contractor-visible notes), recorded in the activity log as
 * "<company> (contractor, by link)". The user id is the contractor's own login when it has one,
 * else the job's agent (else the agency's first admin), as for landlord answers (docs/landlords.md).
 */
export async function linkAuth(db: DbOrTrx, link: repo.LinkRow): Promise<AuthContext> {
  const user = await repo.actingUser(db, link.agency_id, link.job_id, link.contractor_id);
  if (!user) throw conflict('The agency has no active user to record this action under');
  return {
    userId: user.id, userUuid: user.uuid, name: `${link.company_name} (contractor, by link)`, email: user.email, agencyId: link.agency_id, branchId: null,
    roleId: 0, roleCode: 'contractor', roleName: 'Contractor', level: 20, contractorId: link.contractor_id, tenantId: null, landlordId: null,
    permissions: new Set(), tokenId: 0, tokenKind: 'session',
  };
}

/** A checked, live works-order link of the job's current contractor, or the refusal. */
async function liveLink(deps: AppDeps, token: string, now: Date) {
  const key = await worksOrderKey(deps.db, now);
  const checked = await checkWorksOrderLink(deps.db, key, token, now);
  if (!checked.link) return { refusal: checked.refusal };
  const link = checked.link;
  // The job given to another contractor (or declined) takes the works order away.
  if (link.purpose === 'works_order' && link.job_contractor_id !== link.contractor_id) return { refusal: 'revoked' as const };
  return { link };
}

const OPEN_WORK: readonly number[] = [STATUS.assigned, STATUS.scheduled];

/** What a works-order link can do in the job's present state. */
function actionsFor(job: { status_id: number; contractor_accepted_at: unknown }): LinkAction[] {
  const out: LinkAction[] = [];
  if (OPEN_WORK.includes(job.status_id)) {
    if (job.contractor_accepted_at === null) out.push('accept');
    out.push('decline', 'book', 'attended');
  }
  if (job.status_id === STATUS.inProgress) out.push('completed');
  if (job.status_id === STATUS.completed || job.status_id === STATUS.invoiced) out.push('invoice');
  if ([STATUS.assigned, STATUS.scheduled, STATUS.inProgress, STATUS.completed, STATUS.invoiced].includes(job.status_id as never)) out.push('note');
  return out;
}

function address(j: { line1: string | null; line2: string | null; town: string | null; postcode: string | null }): string | null {
  return j.line1 ? [j.line1, j.line2, j.town, j.postcode].filter(Boolean).join(', ') : null;
}

/** The page's facts of a live link. */
export async function viewOf(db: DbOrTrx, link: repo.LinkRow, message: string | null, extra: { quoteDeadline: Date | null; actions?: LinkAction[] } = { quoteDeadline: null }): Promise<LinkViewDto> {
  const j = await repo.jobForLink(db, link.job_id);
  const invoices = link.purpose === 'works_order' ? await repo.invoicesOf(db, link.job_id, link.contractor_id) : [];
  return {
    purpose: link.purpose, agency_name: j.agency_name, contractor_name: link.company_name, expires_at: toIso(link.expires_at),
    job: {
      uuid: j.uuid, reference: j.reference, title: j.title, description: j.description, priority: j.priority, status_id: j.status_id, status: j.status, address: address(j),
      scheduled_for: j.scheduled_for ? toIso(j.scheduled_for).slice(0, 10) : null, time_range: j.time_range ?? null, accepted_at: toIsoOrNull(j.contractor_accepted_at),
      attended_at: toIsoOrNull(j.attended_at), completed_at: toIsoOrNull(j.completed_at),
    },
    actions: extra.actions ?? (link.purpose === 'works_order' ? actionsFor(j) : ['quote', 'decline_quote']),
    time_ranges: link.purpose === 'works_order' ? (await repo.timeRanges(db, j.agency_id)).map((t) => ({ id: t.id, label: t.label })) : [],
    tenant_windows: link.purpose === 'works_order' ? await visitWindows(db, link.job_id) : [],
    invoices: invoices.map((i) => ({ uuid: i.uuid, status: i.status, gross_pence: i.gross_pence })),
    quote_deadline: extra.quoteDeadline ? toIso(extra.quoteDeadline) : null,
    message,
  };
}

/** GET /api/works-orders/link/{token}: what the link shows; opening changes nothing. @returns { view } or { refusal } */
export async function viewByToken(deps: AppDeps, token: string, quoteView: (db: DbOrTrx, link: repo.LinkRow, now: Date) => Promise<LinkViewDto | { refusal: LinkRefusal }>): Promise<{ view: LinkViewDto } | { refusal: LinkRefusal }> {
  const now = deps.clock.now();
  const l = await liveLink(deps, token, now);
  if (!l.link) return { refusal: l.refusal };
  if (l.link.purpose === 'quote') {
    const v = await quoteView(deps.db, l.link, now);
    return 'refusal' in v ? { refusal: v.refusal } : { view: v };
  }
  return { view: await viewOf(deps.db, l.link, null) };
}

/** One form line in pounds -> a money line in pence. @throws 400 when incomplete */
export function formLine(input: LinkActionInput): LineInputDto[] {
  if (input.lines) return input.lines;
  if (!input.line_description?.trim() || !input.line_unit_price) throw invalidParam('line_description');
  const [pounds, pence = '0'] = input.line_unit_price.split('.') as [string, string?];
  return [{
    description: input.line_description.trim(), quantity: Number(input.line_quantity ?? '1') || 1,
    unit_price_pence: Number(pounds) * 100 + Number(pence.padEnd(2, '0')), vat_rate: input.line_vat_rate ?? 'standard',
  }];
}

const DONE: Record<string, string> = {
  accept: 'You accepted the job.',
  decline: 'You declined the job. The agency has been told.',
  book: 'Your visit is booked. The tenant has been told.',
  note: 'Your note was added to the job.',
  attended: 'The job is marked as attended (in progress).',
  completed: 'The job is marked as completed. You can now send your invoice.',
  invoice: 'Your invoice was sent to the agency. Thank you.',
  photo: 'Your photo was added to the job.',
};

/**
 * POST /api/works-orders/link/{token}: one action by a works-order link, through the portal's
 * services as the link's contractor. Final actions (decline, invoice) use the link up.
 * @returns { view, message } after the action, or { refusal }
 * @throws whatever the portal's service throws (400 bad input, 409 a move the lifecycle refuses)
 */
export async function actByToken(deps: AppDeps, token: string, input: LinkActionInput, ip: string): Promise<{ view: LinkViewDto; final: boolean } | { refusal: LinkRefusal }> {
  const now = deps.clock.now();
  const l = await liveLink(deps, token, now);
  if (!l.link) return { refusal: l.refusal };
  const link = l.link;
  if (link.purpose !== 'works_order' || input.action === 'quote' || input.action === 'decline_quote') {
    throw new AppError('bad_request', 'This link does not take that action');
  }
  const auth = await linkAuth(deps.db, link);
  const actor: Actor = { auth, ip };
  const final = input.action === 'decline' || input.action === 'invoice';
  if (final && !(await deps.db.transaction().execute((trx) => repo.consumeLink(trx, link.id, input.action, now)))) return { refusal: 'used' };
  try {
    await runAction(deps, auth, actor, link, input);
  } catch (err) {
    if (final) await repo.releaseLink(deps.db, link.id, input.action);
    throw err;
  }
  if (!final) await repo.touchLink(deps.db, link.id, now);
  return { view: await viewOf(deps.db, link, DONE[input.action] ?? null, final ? { quoteDeadline: null, actions: [] } : { quoteDeadline: null }), final };
}

async function runAction(deps: AppDeps, auth: AuthContext, actor: Actor, link: repo.LinkRow, input: LinkActionInput): Promise<void> {
  const job = link.job_uuid;
  switch (input.action) {
    case 'accept':
      await acceptAssignment(deps, auth, actor, job);
      return;
    case 'decline':
      await declineAssignment(deps, auth, actor, job, input.reason?.trim() || undefined);
      return;
    case 'book':
      if (input.window_uuid !== undefined) {
        // A timed visit inside one of the tenant's windows, typed as London times on its day.
        const w = (await visitWindows(deps.db, link.job_id)).find((x) => x.uuid === input.window_uuid);
        if (!w) throw invalidParam('window_uuid');
        if (!input.from || !input.until) throw invalidParam(input.from ? 'until' : 'from');
        const day = londonDate(new Date(w.starts_at));
        await bookVisit(deps, auth, actor, job, { starts_at: londonToUtc(day, input.from).toISOString(), ends_at: londonToUtc(day, input.until).toISOString() });
        return;
      }
      if (!input.scheduled_for) throw invalidParam('scheduled_for');
      await bookVisit(deps, auth, actor, job, { scheduled_for: input.scheduled_for, ...(input.time_range_id !== undefined && input.time_range_id !== '' ? { time_range_id: Number(input.time_range_id) } : {}) });
      return;
    case 'note':
      await createJobNote(deps, auth, actor, job, { body: input.body ?? '', visibility: 'contractor' });
      return;
    case 'attended':
      await transitionJob(deps, auth, actor, job, { to_status_id: STATUS.inProgress, note: 'Attended (works order by link)' });
      return;
    case 'completed':
      await transitionJob(deps, auth, actor, job, { to_status_id: STATUS.completed, note: 'Completed (works order by link)' });
      return;
    case 'invoice':
      await createInvoice(deps, auth, actor, {
        job_uuid: job, lines: formLine(input), ...(input.contractor_reference ? { contractor_reference: input.contractor_reference.trim() } : {}),
        ...(input.notes ? { notes: input.notes.trim() } : {}),
      });
      return;
    default:
      throw new AppError('bad_request', 'This link does not take that action');
  }
}

/**
 * POST /api/works-orders/link/{token}/photos: a photo from the contractor's phone, through the
 * portal's upload service (type sniffed from the bytes, size limit, activity, event).
 * @returns { view } or { refusal }
 */
export async function photoByToken(deps: AppDeps, token: string, upload: Upload, ip: string): Promise<{ view: LinkViewDto } | { refusal: LinkRefusal }> {
  const now = deps.clock.now();
  const l = await liveLink(deps, token, now);
  if (!l.link) return { refusal: l.refusal };
  if (l.link.purpose !== 'works_order') throw new AppError('bad_request', 'This link does not take photos');
  const auth = await linkAuth(deps.db, l.link);
  await uploadJobFile(deps, auth, { auth, ip }, l.link.job_uuid, 'photo', upload);
  await repo.touchLink(deps.db, l.link.id, now);
  return { view: await viewOf(deps.db, l.link, DONE.photo!) };
}
