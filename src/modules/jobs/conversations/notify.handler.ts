/**
 * Who hears of a conversation message (docs/conversations.md "Who hears of a message"): the
 * handler `conversations.notify` of `conversation.message_posted`. A message from staff goes to
 * the thread's other side (the job's tenant, its contractor, the property's landlords); a message
 * from a tenant, contractor or landlord goes to the agents of the job's branch; the internal
 * thread notifies nobody (staff read it in the console). The author is never written to.
 *
 * Each recipient with an e-mail address gets an e-mail whose Reply-To is their own signed reply
 * address for the thread (when CARETAKER_INBOUND_EMAIL_DOMAIN is set), so answering it lands in
 * the thread. Tenants, contractors and landlords with a mobile number also get an SMS, unless
 * they replied STOP (logged `suppressed`, reason `opted_out`) or, for a tenant or a landlord, hold
 * no `sms_updates` consent (reason `no_consent`); a non-urgent SMS waits for the end of the quiet
 * hours.
 */
import type { DomainEvent, EventHandler, HandlerContext } from '../../../events/index.ts';
import type { Trx } from '../../../db/types.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { branchAgents, contractorRecipients, queueEmail, queueSms, tenantRecipients } from '../../messaging/messaging/index.ts';
import { isMobileNumber, normalisePhone, smsOptedOut, smsSendAt } from '../../messaging/sms/index.ts';
import * as repo from './conversations.repository.ts';
import type { Audience } from './conversations.schemas.ts';
import { replyAddress, replyKey } from './reply-address.ts';
import { truncateText } from '../../../lib/text-cut.ts';

const TEMPLATE_KEY = 'conversation.message';

interface Person {
  /** Delivery-log key: user:<id>, tenant:<id>, contractor:<id>, landlord:<id>. */
  key: string;
  /** Reply-address person code: u12, t3, c4, l5. */
  code: string;
  kind: string;
  userId: number | null;
  name: string;
  email: string | null;
}

const codeOf = (key: string) => `${key[0]}${key.split(':')[1]}`;

async function emailRecipients(trx: Trx, thread: repo.ThreadRow, fromStaff: boolean): Promise<Person[]> {
  const audience = thread.audience as Audience;
  const people: Array<Omit<Person, 'code'>> = [];
  if (!fromStaff) {
    people.push(...(await branchAgents(trx, thread.agency_id, thread.branch_id)));
  } else if (audience === 'tenant' && thread.tenant_id !== null) {
    people.push(...(await tenantRecipients(trx, thread.agency_id, thread.tenant_id)));
  } else if (audience === 'contractor' && thread.contractor_id !== null) {
    people.push(...(await contractorRecipients(trx, thread.agency_id, thread.contractor_id)));
  } else if (audience === 'landlord' && thread.address_id !== null) {
    for (const l of await repo.propertyLandlords(trx, thread.agency_id, thread.address_id)) {
      const users = await repo.landlordUsers(trx, thread.agency_id, l.id);
      if (users.length > 0) people.push(...users.map((u) => ({ key: `user:${u.id}`, kind: 'landlord', userId: u.id, name: u.name, email: u.email })));
      else people.push({ key: `landlord:${l.id}`, kind: 'landlord', userId: null, name: l.name, email: l.email });
    }
  }
  return people.map((p) => ({ key: p.key, code: codeOf(p.key), kind: p.kind, userId: p.userId, name: p.name, email: p.email }));
}

/**
 * The SMS recipients of a staff message: the tenant record's mobile, the contractor's phone, or
 * the mobile (phone) of each landlord of the property; a landlord needs an `sms_updates` consent
 * held by one of their login accounts.
 */
async function smsRecipients(trx: Trx, thread: repo.ThreadRow) {
  if (thread.audience === 'tenant' && thread.tenant_id !== null) {
    const t = await repo.findTenantPerson(trx, thread.agency_id, thread.tenant_id);
    const phone = normalisePhone(t?.mobile ?? null);
    if (!t || !phone) return [];
    return [{ key: `tenant:${t.id}`, kind: 'tenant', phone, consent: await repo.hasSmsConsent(trx, thread.agency_id, t.id) }];
  }
  if (thread.audience === 'contractor' && thread.contractor_id !== null) {
    const c = await repo.findContractorPerson(trx, thread.agency_id, thread.contractor_id);
    const phone = normalisePhone(c?.phone ?? null);
    return c && phone ? [{ key: `contractor:${c.id}`, kind: 'contractor', phone, consent: true }] : [];
  }
  if (thread.audience === 'landlord' && thread.address_id !== null) {
    const out = [];
    for (const l of await repo.propertyLandlords(trx, thread.agency_id, thread.address_id)) {
      const phone = normalisePhone(l.phone);
      if (phone && isMobileNumber(phone)) out.push({ key: `landlord:${l.id}`, kind: 'landlord', phone, consent: await repo.landlordHasSmsConsent(trx, thread.agency_id, l.id) });
    }
    return out;
  }
  return [];
}

/** Queues the e-mails and SMS of one posted message, in the handler's transaction. */
async function notify(event: DomainEvent, { deps, trx }: HandlerContext): Promise<void> {
  const p = event.payload as { thread_id: number; message_id: number; audience: Audience; author_user_id: number | null; author_kind: string };
  if (p.audience === 'internal') return;
  const thread = await repo.findThread(trx, p.thread_id);
  if (!thread || thread.agency_id !== event.agencyId) return;
  const entry = await repo.findMessageEntry(trx, thread.job_id, p.audience, p.message_id);
  if (!entry) return;
  const files = await repo.messageFiles(trx, [entry.id]);
  const author = entry.author_name ?? entry.user_name ?? entry.agency_name;
  const when = formatLondonDateTime(new Date(entry.created_at));
  const fromStaff = p.author_kind === 'staff' || p.author_kind === 'system';
  const authorKey = p.author_user_id !== null ? `user:${p.author_user_id}` : null;
  const now = deps.clock.now();
  const domain = deps.config.inboundMail.domain;
  const key = domain ? await replyKey(trx, now) : null;
  const subject = `[${thread.reference}] ${thread.title}`;
  const attachments = files.length > 0 ? `\n\nAttached: ${files.map((f) => f.original_filename).join(', ')}` : '';
  for (const r of await emailRecipients(trx, thread, fromStaff)) {
    if (!r.email || r.key === authorKey) continue;
    const replyTo = key && domain ? replyAddress(key, domain, thread.id, r.code) : undefined;
    const how = replyTo ? 'Reply to this e-mail to answer.' : `Answer in Caretaker: ${deps.config.mail.publicUrl}/jobs/${thread.job_uuid}`;
    const text = `${author} wrote on ${when}:\n\n${entry.body}${attachments}\n\n${how}\n\n${thread.agency_name}\n`;
    const html =
      `<p><strong>${escapeHtml(author)}</strong> wrote on ${escapeHtml(when)}:</p>` +
      `<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc">${escapeHtml(entry.body).replace(/\n/g, '<br>')}</blockquote>` +
      (files.length > 0 ? `<p>Attached: ${files.map((f) => escapeHtml(f.original_filename)).join(', ')}</p>` : '') +
      `<p>${escapeHtml(how)}</p><p>${escapeHtml(thread.agency_name)}</p>`;
    await queueEmail(trx, {
      agencyId: thread.agency_id, eventId: event.id, eventName: event.name, templateKey: TEMPLATE_KEY, recipientKey: r.key, recipientKind: r.kind,
      recipientUserId: r.userId, address: r.email, subject, text, html, replyTo,
    }, now);
  }
  if (!fromStaff) return;
  const sendAt = smsSendAt(deps.config.sms, now, entry.urgent);
  for (const r of await smsRecipients(trx, thread)) {
    const suppressedReason = (await smsOptedOut(trx, r.phone)) ? 'opted_out' : r.consent ? undefined : 'no_consent';
    const body = truncateText(entry.body, 280);
    await queueSms(trx, {
      agencyId: thread.agency_id, eventId: event.id, eventName: event.name, templateKey: TEMPLATE_KEY, recipientKey: r.key, recipientKind: r.kind,
      recipientUserId: null, phone: r.phone, text: `${thread.agency_name} about ${thread.reference}: ${body}\nReply to this text to answer. Reply STOP to stop texts.`,
      threadId: thread.id, sendAt, suppressedReason,
    }, now);
  }
}

/** `conversations.notify`: e-mails and SMS of posted messages. */
export const conversationsNotifyHandler: EventHandler = {
  name: 'conversations.notify',
  events: ['conversation.message_posted'],
  handle: notify,
};
