/**
 * A message another module writes itself (docs/messaging.md "How a message is sent"): for
 * messages whose body carries something only its module can make, such as a landlord's signed
 * approval links (docs/landlords.md). The row goes into the delivery log as `queued` in the
 * caller's (event handler's) transaction, keyed by event, message kind, recipient and channel like
 * every other delivery (its slot), and the sender task sends it after commit.
 */
import type { DbOrTrx } from '../../../db/types.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { insertDelivery } from './deliveries.repository.ts';
import { renderTemplate } from './render.ts';
import { effectiveTemplate } from './templates.service.ts';

/** One e-mail to queue. */
export interface DirectEmail {
  agencyId: number;
  eventId: string;
  eventName: string;
  /** The message kind shown in the delivery log, e.g. `approval.requested`. */
  templateKey: string;
  /** `landlord:<id>`, `user:<id>`: with the event, message kind and channel, the idempotency key. */
  recipientKey: string;
  recipientKind: string;
  recipientUserId: number | null;
  address: string;
  subject: string;
  text: string;
  html: string;
  /** Reply-To: a conversation's signed reply address (docs/conversations.md). */
  replyTo?: string | undefined;
}

/**
 * Queues one e-mail in the delivery log.
 * @returns false when the same event already queued it for this recipient (a redelivered event)
 */
export function queueEmail(db: DbOrTrx, m: DirectEmail, now: Date): Promise<boolean> {
  return insertDelivery(db, {
    uuid: newUuid(), agency_id: m.agencyId, event_id: m.eventId, event_name: m.eventName, template_key: m.templateKey, channel: 'email',
    recipient_key: m.recipientKey, recipient_kind: m.recipientKind, recipient_user_id: m.recipientUserId, recipient_address: m.address.toLowerCase(),
    status: 'queued', reason: null, attempts: 0, last_error: null, subject: m.subject,
    content: JSON.stringify({ subject: m.subject, text: m.text, html: m.html, ...(m.replyTo ? { replyTo: m.replyTo } : {}) }), next_attempt_at: now, created_at: now, updated_at: now, sent_at: null,
  });
}

/** One e-mail from an agency-editable template (message kinds of template-catalogue.ts). */
export interface TemplatedEmail {
  agencyId: number;
  eventId: string;
  eventName: string;
  /** A message kind, e.g. `works_order.sent`. */
  templateKey: string;
  recipientKey: string;
  recipientKind: string;
  recipientUserId: number | null;
  recipientName: string;
  address: string;
  /** Values of the kind's variables (`recipient.name` is added). */
  vars: Record<string, string | null>;
}

/**
 * Renders the agency's template of a kind (its latest version, else the default) and queues the
 * e-mail like `queueEmail`: for messages whose variables carry something only the calling module
 * can make, such as a contractor's signed works-order link (docs/works-orders.md). A template that
 * does not render queues nothing (false).
 * @returns false when not queued (already queued for this event and recipient, or a render failure)
 */
export async function queueTemplatedEmail(db: DbOrTrx, m: TemplatedEmail, now: Date): Promise<boolean> {
  const template = await effectiveTemplate(db, m.agencyId, m.templateKey, 'email');
  const rendered = await renderTemplate('email', template, { ...m.vars, 'recipient.name': m.recipientName }).catch(() => undefined);
  if (!rendered) return false;
  return queueEmail(db, {
    agencyId: m.agencyId, eventId: m.eventId, eventName: m.eventName, templateKey: m.templateKey, recipientKey: m.recipientKey, recipientKind: m.recipientKind,
    recipientUserId: m.recipientUserId, address: m.address, subject: rendered.subject ?? '', text: rendered.text ?? '', html: rendered.html ?? '',
  }, now);
}

/** One SMS to queue (docs/conversations.md "SMS"). */
export interface DirectSms {
  agencyId: number;
  eventId: string;
  eventName: string;
  templateKey: string;
  recipientKey: string;
  recipientKind: string;
  recipientUserId: number | null;
  /** E.164 number. */
  phone: string;
  text: string;
  /** The conversation thread it belongs to: a reply to this number lands there. */
  threadId: number | null;
  /** Not before (quiet hours). */
  sendAt: Date;
  /** Logged `suppressed` with this reason instead of queued (opted out, no consent). */
  suppressedReason?: string | undefined;
}

/**
 * Queues one SMS in the delivery log (sent by the sender through the sms module), or logs it
 * suppressed with its reason.
 * @returns false when the same event already logged it for this recipient
 */
export function queueSms(db: DbOrTrx, m: DirectSms, now: Date): Promise<boolean> {
  const suppressed = m.suppressedReason !== undefined;
  return insertDelivery(db, {
    uuid: newUuid(), agency_id: m.agencyId, event_id: m.eventId, event_name: m.eventName, template_key: m.templateKey, channel: 'sms',
    recipient_key: m.recipientKey, recipient_kind: m.recipientKind, recipient_user_id: m.recipientUserId, recipient_address: m.phone,
    status: suppressed ? 'suppressed' : 'queued', reason: m.suppressedReason ?? null, attempts: 0, last_error: null, subject: null,
    content: suppressed ? null : JSON.stringify({ text: m.text, thread_id: m.threadId }), next_attempt_at: suppressed ? null : m.sendAt, created_at: now, updated_at: now, sent_at: null,
  });
}
