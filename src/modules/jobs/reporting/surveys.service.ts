/**
 * Satisfaction surveys (docs/tenant-reporting.md "Satisfaction surveys"): when a job with a
 * tenant is completed, the tenant is e-mailed a signed link to one question (1 to 5 and a
 * comment); the link answers once and expires after the agency's survey_link_days.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import type { DomainEvent } from '../../../events/index.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';
import { formatLondonDate, formatLondonDateTime } from '../../../lib/london-time.ts';
import { queueEmail } from '../../messaging/messaging/index.ts';
import { jobRef } from '../jobs/index.ts';
import * as repo from './reporting.repository.ts';
import { checkSurveyLink, newNonce, signSurvey, surveyKey, type SurveyRefusal } from './survey-links.ts';

/**
 * Opens the survey of a just-completed job and queues the tenant's e-mail with its link (inside
 * the event handler's transaction). Jobs without a tenant with an e-mail, erased tenants and jobs
 * that already have a survey get none.
 */
export async function sendSurvey(deps: AppDeps, trx: DbOrTrx, event: DomainEvent, jobId: number): Promise<void> {
  const job = await repo.surveyFacts(trx, jobId);
  if (!job || job.tenant_id === null || !job.tenant_email || job.erased_at !== null || job.agency_id !== event.agencyId) return;
  const now = deps.clock.now();
  const { survey_link_days } = await repo.settingsOf(trx, job.agency_id);
  const expiresAt = new Date(now.getTime() + survey_link_days * 86_400_000);
  const nonce = newNonce();
  const uuid = newUuid();
  if (!(await repo.insertSurvey(trx, { uuid, agency_id: job.agency_id, job_id: job.id, tenant_id: job.tenant_id, contractor_id: job.contractor_id, nonce, expires_at: expiresAt, created_at: now }))) return;
  const token = signSurvey(await surveyKey(trx, now), { nonce, surveyUuid: uuid, tenantUuid: job.tenant_uuid!, expiresAt });
  // A query parameter, not a path segment: the console's shell does not answer paths that end in
  // what looks like a file extension, and a token holds a dot (src/http/console.ts).
  const url = `${deps.config.mail.publicUrl}/survey?token=${token}`;
  const property = job.line1 ? `${job.line1}, ${job.postcode}` : 'your home';
  const subject = `How did we do? ${job.reference} ${job.title}`;
  const until = formatLondonDateTime(expiresAt);
  const text = [
    `Dear ${job.tenant_name},`, '',
    `${job.agency_name} recorded the repair "${job.title}" at ${property} as completed${job.completed_at ? ` on ${formatLondonDate(new Date(job.completed_at))}` : ''}.`,
    'How well was it done? One question, 1 (very poor) to 5 (very good), and a comment if you like:', url, '',
    `The link works once, until ${until}. If the problem is back, say so in the comment or report it again.`,
  ].join('\n');
  const html = `<p>Dear ${esc(job.tenant_name ?? '')},</p><p>${esc(job.agency_name)} recorded the repair <strong>${esc(job.title)}</strong> at ${esc(property)} as completed.</p>
<p>How well was it done? <a href="${esc(url)}">Rate the repair</a> (1 very poor to 5 very good).</p><p>The link works once, until ${esc(until)}.</p>`;
  await queueEmail(trx, {
    agencyId: job.agency_id, eventId: event.id, eventName: event.name, templateKey: 'survey.requested', recipientKey: `tenant:${job.tenant_id}`,
    recipientKind: 'tenant', recipientUserId: null, address: job.tenant_email, subject, text, html,
  }, now);
}

/** Status and message of each refusal (400 invalid, 409 answered, 410 expired, as the approval links answer). */
export const SURVEY_REFUSALS: Record<SurveyRefusal, { status: 400 | 409 | 410; message: string }> = {
  invalid: { status: 400, message: 'This survey link is not valid' },
  used: { status: 409, message: 'This survey has already been answered: thank you' },
  expired: { status: 410, message: 'This survey link has expired' },
};

/**
 * GET /api/surveys/link/{token}: what the survey is about (looking does not answer).
 * @returns { view } or { refusal }: invalid link, used (answered), expired
 */
export async function viewSurvey(deps: AppDeps, token: string) {
  const now = deps.clock.now();
  const c = await checkSurveyLink(deps.db, await surveyKey(deps.db, now), token, now);
  if (!c.row) return { refusal: c.refusal };
  const r = c.row;
  return { view: {
    agency_name: r.agency_name, job_reference: r.reference, job_title: r.title,
    property: r.line1 ? `${r.line1}, ${r.town ?? ''} ${r.postcode ?? ''}`.replace(/\s+/g, ' ').trim() : null,
    contractor_name: r.company_name, completed_on: r.completed_at ? formatLondonDate(new Date(r.completed_at)) : null,
    expires: formatLondonDateTime(new Date(r.expires_at)),
  } };
}

/**
 * POST /api/surveys/link/{token}: records the rating (1 to 5) and comment; the link is used up.
 * Emits `survey.answered`.
 * @returns { refusal } for an invalid, answered (also when two answers race) or expired link, else {}
 */
export async function answerSurvey(deps: AppDeps, token: string, body: { rating: number; comment?: string | undefined }): Promise<{ refusal?: SurveyRefusal }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const c = await checkSurveyLink(trx, await surveyKey(trx, now), token, now);
    if (!c.row) return { refusal: c.refusal };
    const r = c.row;
    if (!(await repo.answerSurvey(trx, r.id, { rating: body.rating, comment: body.comment?.trim() || null, at: now }))) return { refusal: 'used' as const };
    await emitEvent(trx, now, { name: 'survey.answered', agencyId: r.agency_id, payload: { ...jobRef({ id: r.job_id, uuid: r.job_uuid, reference: r.reference, branch_id: r.branch_id }), survey_id: r.id, rating: body.rating } });
    return {};
  });
}
