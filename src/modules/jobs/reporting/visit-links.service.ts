/**
 * The tenant's visit link (docs/tenant-reporting.md "The tenant's link"): when a contractor is
 * assigned without a date, or a booked visit was missed, the job's tenant is e-mailed a signed
 * link to give availability windows or pick one of the contractor's free slots, without an
 * account. The link is scoped to the job and its tenant, acts once, expires after
 * VISIT_LINK_DAYS and replaces the job's earlier unused link. Its actions run the jobs module's
 * own rules as the tenant (actAsLinkTenant).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { DomainEvent } from '../../../events/index.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { actAsLinkTenant, planOf, STATUS } from '../jobs/index.ts';
import { queueEmail } from '../../messaging/messaging/index.ts';
import * as repo from './visit-links.repository.ts';
import { checkVisitLink, newVisitNonce, signVisitLink, visitLinkKey, type VisitLinkRefusal } from './visit-links.ts';

/** Life of a visit link, days. */
export const VISIT_LINK_DAYS = 14;

/**
 * Opens a visit link for the job's tenant and queues its e-mail (inside the event handler's
 * transaction). Jobs without a tenant with an e-mail, erased tenants and jobs no longer Assigned
 * get none.
 */
export async function sendVisitLink(deps: AppDeps, trx: DbOrTrx, event: DomainEvent, jobId: number): Promise<void> {
  const job = await repo.visitLinkFacts(trx, jobId);
  if (!job || job.deleted_at !== null || job.tenant_id === null || !job.tenant_email || job.erased_at !== null || job.agency_id !== event.agencyId) return;
  if (job.status_id !== STATUS.assigned) return;
  const now = deps.clock.now();
  await repo.replaceJobLinks(trx, job.id, now);
  const expiresAt = new Date(now.getTime() + VISIT_LINK_DAYS * 86_400_000);
  const nonce = newVisitNonce();
  const uuid = newUuid();
  await repo.insertVisitLink(trx, { uuid, agency_id: job.agency_id, job_id: job.id, tenant_id: job.tenant_id, nonce, expires_at: expiresAt, created_at: now });
  const token = signVisitLink(await visitLinkKey(trx, now), { nonce, linkUuid: uuid, jobUuid: job.uuid, tenantUuid: job.tenant_uuid!, expiresAt });
  // A query parameter, not a path segment: a token holds a dot (src/http/console.ts).
  const url = `${deps.config.mail.publicUrl}/visit?token=${token}`;
  const property = job.line1 ? `${job.line1}, ${job.postcode}` : 'your home';
  const missed = event.name === 'job.visit_missed';
  const subject = `${missed ? 'Book the visit again' : 'When can we visit?'} ${job.reference} ${job.title}`;
  const until = formatLondonDateTime(expiresAt);
  const who = job.company_name ?? 'The contractor';
  const lead = missed ? `The visit for "${job.title}" at ${property} was missed, so it needs a new time.` : `${who} will repair "${job.title}" at ${property}.`;
  const text = [
    `Dear ${job.tenant_name},`, '', lead,
    'Tell us when you are in (up to 6 windows), or pick one of the contractor\'s free slots:', url, '',
    `The link works once, until ${until}. ${job.agency_name}`,
  ].join('\n');
  const html = `<p>Dear ${esc(job.tenant_name ?? '')},</p><p>${esc(lead)}</p>
<p><a href="${esc(url)}">Tell us when you are in, or pick a free slot</a>.</p><p>The link works once, until ${esc(until)}.</p>`;
  await queueEmail(trx, {
    agencyId: job.agency_id, eventId: event.id, eventName: event.name, templateKey: 'visit.windows_requested', recipientKey: `tenant:${job.tenant_id}`,
    recipientKind: 'tenant', recipientUserId: null, address: job.tenant_email, subject, text, html,
  }, now);
}

/** Status and message of each refusal (400 invalid, 409 used, 410 expired, as the survey links answer). */
export const VISIT_LINK_REFUSALS: Record<VisitLinkRefusal, { status: 400 | 409 | 410; message: string }> = {
  invalid: { status: 400, message: 'This visit link is not valid' },
  used: { status: 409, message: 'This visit link has been used: your answer is with the contractor' },
  expired: { status: 410, message: 'This visit link has expired: ask the agency for a new one' },
};

type LinkRow = NonNullable<Awaited<ReturnType<typeof repo.findVisitLinkByNonce>>>;

async function viewOf(db: DbOrTrx, row: LinkRow, now: Date) {
  const plan = await planOf(db, {
    id: row.job_id, agency_id: row.agency_id, contractor_id: row.contractor_id, status_id: row.status_id, uuid: row.job_uuid, reference: row.reference,
    title: row.title, contractor_name: row.company_name,
  }, now, false);
  return {
    agency_name: row.agency_name, tenant_name: row.tenant_name,
    property: row.line1 ? `${row.line1}, ${row.town ?? ''} ${row.postcode ?? ''}`.replace(/\s+/g, ' ').trim() : null,
    expires: formatLondonDateTime(new Date(row.expires_at)),
    plan,
  };
}

/**
 * GET /api/visits/link/{token}: the job, the tenant's windows, the contractor's free slots and the
 * booked visit (looking does not use the link up).
 * @returns { view } or { refusal }
 */
export async function viewVisitLink(deps: AppDeps, token: string) {
  const now = deps.clock.now();
  const c = await checkVisitLink(deps.db, await visitLinkKey(deps.db, now), token, now);
  if (!c.row) return { refusal: c.refusal };
  return { view: await viewOf(deps.db, c.row, now) };
}

/** What the tenant does by link: give windows, or pick a free slot. */
export type VisitLinkAction = { action: 'windows'; windows: { starts_at: string; ends_at: string }[] } | { action: 'choose'; starts_at: string; ends_at: string };

/**
 * POST /api/visits/link/{token}: gives the windows or picks a free slot as the job's tenant; the
 * link is used up first (one conditional update) and given back when the action is refused.
 * @returns { view } after the action, or { refusal }
 * @throws what setWindows and chooseSlot throw (400 a rule, 409 not bookable or the slot taken)
 */
export async function actVisitLink(deps: AppDeps, token: string, input: VisitLinkAction, ip: string) {
  const now = deps.clock.now();
  const c = await checkVisitLink(deps.db, await visitLinkKey(deps.db, now), token, now);
  if (!c.row) return { refusal: c.refusal };
  const row = c.row;
  const user = await repo.visitLinkUser(deps.db, row.agency_id, row.tenant_id, row.agent_user_id);
  if (!user) throw conflict('The agency has no active user to record this answer under');
  const auth: AuthContext = {
    userId: user.id, userUuid: user.uuid, name: `${row.tenant_name} (tenant, by link)`, email: user.email, agencyId: row.agency_id, branchId: null,
    roleId: 0, roleCode: 'tenant', roleName: 'Tenant', level: 10, contractorId: null, tenantId: row.tenant_id, landlordId: null,
    permissions: new Set(), tokenId: 0, tokenKind: 'session',
  };
  const actor: Actor = { auth, ip };
  if (!(await repo.useVisitLink(deps.db, row.id, input.action, now))) return { refusal: 'used' as const };
  try {
    await actAsLinkTenant(deps, auth, actor, row.job_uuid, input);
  } catch (err) {
    await repo.releaseVisitLink(deps.db, row.id, input.action);
    throw err;
  }
  const fresh = await repo.findVisitLinkByNonce(deps.db, row.nonce);
  return { view: await viewOf(deps.db, fresh!, now) };
}
