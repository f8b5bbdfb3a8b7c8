/**
 * Side effects of approvals (docs/landlords.md), all after commit through the outbox:
 * - `quote.submitted`: a quote above the spend limit opens an approval (approvals.service.ts);
 * - `approval.requested` / `approval.reminded`: the landlord's e-mail with the signed links,
 *   queued in the messaging module's delivery log (sent by its sender task). The token is signed
 *   here, so it is never in the outbox payload; the delivery row drops the body once sent; and
 *   the landlord's SMS with the link to the answer page, when they have a mobile and consent;
 * - `approval.answered` (decline or question) and `approval.expired`: an e-mail to the agents of
 *   the job's branch (else the agency's first admin).
 * And the periodic task `landlords.approvals` (every 15 minutes): reminders and expiry.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { DomainEvent, EventHandler, PeriodicTask } from '../../../events/index.ts';
import { branchAgents, queueEmail, queueSms } from '../../messaging/messaging/index.ts';
import { isMobileNumber, normalisePhone, smsOptedOut, smsSendAt } from '../../messaging/sms/index.ts';
import { formatPounds } from '../money/index.ts';
import { linkKey, signLink } from './approval-links.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';
import { londonDateTime } from './approval-pages.ts';
import * as repo from './approvals.repository.ts';
import { approvalForQuote, remindAndExpire } from './approvals.service.ts';

type Payload = { approval_id: number; answer?: string };

/** The three links of an approval's live link row (the same URLs on a reminder). */
async function links(deps: AppDeps, trx: DbOrTrx, row: repo.ApprovalRow, now: Date) {
  const link = await repo.liveLinkOf(trx, row.id);
  if (!link) return undefined;
  const key = await linkKey(trx, now);
  const token = signLink(key, { a: row.uuid, l: row.landlord_uuid, n: link.nonce, e: Math.floor(new Date(link.expires_at).getTime() / 1000) });
  const base = `${deps.config.mail.publicUrl}/approvals/link/${token}`;
  return { base, approve: `${base}?action=approve`, decline: `${base}?action=decline`, question: `${base}?action=question`, expiresAt: new Date(link.expires_at) };
}

/**
 * The landlord's text of a request or reminder (docs/landlords.md "By SMS"): to the landlord's
 * mobile (the record's phone, when it is a mobile number), with the signed link to the answer
 * page (a people path, /approvals/link/...). Queued in the delivery log like the e-mail and sent
 * by the messaging sender through the sms module; logged `suppressed` with reason `opted_out`
 * after a STOP and `no_consent` without an `sms_updates` consent of one of the landlord's
 * accounts; inside the quiet hours it waits for their end. Nothing for a landlord without a mobile.
 */
async function textLandlord(deps: AppDeps, trx: DbOrTrx, event: DomainEvent, row: repo.ApprovalRow, l: { base: string; expiresAt: Date }, agencyName: string, now: Date): Promise<void> {
  const phone = normalisePhone(row.landlord_phone);
  if (!phone || !isMobileNumber(phone)) return;
  const suppressedReason = (await smsOptedOut(trx, phone)) ? 'opted_out' : (await repo.landlordHasSmsConsent(trx, row.agency_id, row.landlord_id)) ? undefined : 'no_consent';
  const reminder = event.name === 'approval.reminded' ? 'Reminder: ' : '';
  const text = `${reminder}${agencyName} asks you to approve ${row.job_reference} (${row.job_title}): ${formatPounds(row.amount_pence)} incl. VAT. ` +
    `Approve, decline or ask by ${londonDateTime(l.expiresAt)}: ${l.base}\nReply STOP to stop texts.`;
  await queueSms(trx, {
    agencyId: row.agency_id, eventId: event.id, eventName: event.name, templateKey: event.name, recipientKey: `landlord:${row.landlord_id}`,
    recipientKind: 'landlord', recipientUserId: null, phone, text, threadId: null, sendAt: smsSendAt(deps.config.sms, now, false), suppressedReason,
  }, now);
}

async function mailLandlord(deps: AppDeps, trx: DbOrTrx, event: DomainEvent, row: repo.ApprovalRow, now: Date): Promise<void> {
  if (row.status !== 'pending') return;
  const l = await links(deps, trx, row, now);
  if (!l) return;
  const agency = await repo.agencyName(trx, row.agency_id);
  await textLandlord(deps, trx, event, row, l, agency.name, now);
  if (!row.landlord_email) return;
  const reminder = event.name === 'approval.reminded';
  const subject = `${reminder ? 'Reminder: ' : ''}Approval needed for ${row.job_reference}: ${formatPounds(row.amount_pence)}`;
  const property = row.address_line1 ? `${row.address_line1}, ${row.address_town}, ${row.address_postcode}` : 'your property';
  const due = londonDateTime(l.expiresAt);
  const text = [
    `Dear ${row.landlord_name},`, '',
    `${agency.name} asks for your approval of work at ${property}:`,
    `${row.job_reference} ${row.job_title}`,
    `${row.description}: ${formatPounds(row.amount_pence)} incl. VAT (your spend limit is ${formatPounds(row.limit_pence)}).`, '',
    `Approve: ${l.approve}`, `Decline: ${l.decline}`, `Ask a question: ${l.question}`, '',
    `Please answer by ${due}. Each link opens a page where you confirm your answer; it works once.`,
  ].join('\n');
  const html = `<p>Dear ${esc(row.landlord_name)},</p><p>${esc(agency.name)} asks for your approval of work at ${esc(property)}:</p>
<p><strong>${esc(row.job_reference)} ${esc(row.job_title)}</strong><br>${esc(row.description)}: <strong>${esc(formatPounds(row.amount_pence))}</strong> incl. VAT (your spend limit is ${esc(formatPounds(row.limit_pence))}).</p>
<p><a href="${esc(l.approve)}">Approve</a> &nbsp; <a href="${esc(l.decline)}">Decline</a> &nbsp; <a href="${esc(l.question)}">Ask a question</a></p>
<p>Please answer by ${esc(due)}. Each link opens a page where you confirm your answer; it works once.</p>`;
  await queueEmail(trx, {
    agencyId: row.agency_id, eventId: event.id, eventName: event.name, templateKey: event.name, recipientKey: `landlord:${row.landlord_id}`,
    recipientKind: 'landlord', recipientUserId: null, address: row.landlord_email, subject, text, html,
  }, now);
}

const TOLD: Record<string, string> = {
  decline: 'declined',
  question: 'asked a question about',
};

async function mailAgents(trx: DbOrTrx, event: DomainEvent, row: repo.ApprovalRow, now: Date): Promise<void> {
  const answer = (event.payload as Payload).answer;
  if (event.name === 'approval.answered' && (!answer || !TOLD[answer])) return;
  let recipients = await branchAgents(trx, row.agency_id, row.branch_id);
  if (recipients.length === 0) {
    const u = await repo.responsibleUser(trx, row.agency_id, row.job_id);
    if (u) recipients = [{ key: `user:${u.id}`, kind: 'admin', userId: u.id, email: u.email, name: u.name, tenantId: null }];
  }
  const what = event.name === 'approval.expired'
    ? `${row.landlord_name} did not answer in time`
    : `${row.landlord_name} ${TOLD[answer!]} it${row.comment ? `: "${row.comment}"` : ''}`;
  const subject = event.name === 'approval.expired' ? `Landlord approval expired: ${row.job_reference}` : `Landlord ${TOLD[answer!]} ${row.job_reference}`;
  const text = `${row.job_reference} ${row.job_title}\n${row.description}: ${formatPounds(row.amount_pence)}\n${what}.\nPlease follow it up with the landlord.`;
  const html = `<p><strong>${esc(row.job_reference)} ${esc(row.job_title)}</strong><br>${esc(row.description)}: ${esc(formatPounds(row.amount_pence))}</p><p>${esc(what)}.</p><p>Please follow it up with the landlord.</p>`;
  for (const r of recipients) {
    if (!r.email) continue;
    await queueEmail(trx, {
      agencyId: row.agency_id, eventId: event.id, eventName: event.name, templateKey: event.name, recipientKey: r.key, recipientKind: r.kind,
      recipientUserId: r.userId, address: r.email, subject, text, html,
    }, now);
  }
}

/** Opens an approval for a quote above the limit. */
export const quoteApprovalHandler: EventHandler = {
  name: 'landlords.quote-approval',
  events: ['quote.submitted'],
  async handle(event, { deps, trx }) {
    await approvalForQuote(trx, deps.clock.now(), (event.payload as { quote_id: number }).quote_id);
  },
};

/** E-mails the landlord (request, reminder) and the agents (decline, question, expiry). */
export const approvalMailHandler: EventHandler = {
  name: 'landlords.approval-mail',
  events: ['approval.requested', 'approval.reminded', 'approval.answered', 'approval.expired'],
  async handle(event, { deps, trx }) {
    const row = await repo.findApprovalById(trx, (event.payload as Payload).approval_id);
    if (!row || row.agency_id !== event.agencyId) return;
    const now = deps.clock.now();
    if (event.name === 'approval.requested' || event.name === 'approval.reminded') await mailLandlord(deps, trx, event, row, now);
    else await mailAgents(trx, event, row, now);
  },
};

/** Reminds and expires approvals (every 15 minutes). */
export const approvalsTask: PeriodicTask = {
  name: 'landlords.approvals',
  cron: '*/15 * * * *',
  async run(deps) {
    await remindAndExpire(deps);
  },
};
