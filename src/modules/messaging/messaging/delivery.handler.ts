/**
 * The messaging event handler (docs/messaging.md "How a message is sent"): for each event it
 * works out the messages (recipients.ts), renders them from the agency's templates and writes
 * one delivery row per message kind, recipient and channel in the handler's transaction: `queued` with the
 * rendered message, or `suppressed` with the reason (GDPR consent withdrawn, preference off; never
 * for a statutory notice).
 * Nothing leaves the process here; the sender task (sender.ts) sends queued rows after commit,
 * so a rolled-back change sends nothing and a slow SMTP server holds no transaction.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx, Trx } from '../../../db/types.ts';
import type { DomainEvent, EventHandler, EventName } from '../../../events/index.ts';
import { onceInTransaction } from '../../../db/transaction-memo.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { insertDelivery } from './deliveries.repository.ts';
import * as repo from './messaging.repository.ts';
import { hazardSummaryVars, jobVars, planMessages, tenantRecipients, type PlannedMessage, type Recipient } from './recipients.ts';
import * as recipientsRepo from './recipients.repository.ts';
import { renderTemplate } from './render.ts';
import { modeOf, type Channel } from './template-catalogue.ts';
import { effectiveTemplate } from './templates.service.ts';

/**
 * Message kinds that are statutory notices (docs/gdpr.md "Statutory notices"): the written summary
 * a landlord must give the tenant (SI 2025/1042 reg. 9). They are sent whatever the person's
 * consents and preferences (their lawful basis is a legal obligation, UK GDPR Art. 6(1)(c); PECR
 * consent covers marketing, not a notice the law requires), never folded into a digest; their
 * duty is tracked to delivery by the hazards module, with a second channel when e-mail fails.
 */
export const STATUTORY_NOTICES: ReadonlySet<string> = new Set(['hazard.summary']);

/** GDPR consent purpose whose withdrawal stops a channel to a tenant (docs/gdpr.md). */
export const CONSENT_PURPOSE: Record<'email' | 'push', string> = { email: 'email_updates', push: 'push_updates' };

/** True when the tenant (record or account) withdrew the purpose and has no consent for it in force. */
async function consentWithdrawn(trx: Trx, agencyId: number, r: Recipient, purpose: string): Promise<boolean> {
  const rows = await repo.consentStates(trx, agencyId, r.tenantId, r.userId, purpose);
  return rows.length > 0 && rows.every((c) => c.withdrawn_at !== null);
}

/** effectiveTemplate, read once per transaction (a queue batch's events share their templates). */
function templateIn(trx: Trx, agencyId: number, key: string, channel: Channel): ReturnType<typeof effectiveTemplate> {
  return onceInTransaction(trx, `template|${agencyId}|${key}|${channel}`, () => effectiveTemplate(trx, agencyId, key, channel));
}

/** A digest line: the message's subject, the job's title and the time it was due (London time). */
function digestLine(subject: string, vars: Record<string, string | null>): string {
  const title = vars['job.title'];
  const due = vars['sla.due_at'];
  return `${subject}${title ? ` (${title})` : ''}${due ? `, due ${due}` : ''}`;
}

/**
 * Writes the delivery rows of one planned message: per recipient and channel `queued`, or
 * `suppressed` with its reason; an e-mail whose recipient's mode is `digest` becomes a line of
 * their next digest instead (docs/messaging.md "SLA notices and digests").
 */
async function planOne(deps: AppDeps, trx: Trx, event: DomainEvent, agencyId: number, m: PlannedMessage): Promise<void> {
  const now = deps.clock.now();
  const userIds = m.recipients.flatMap((r) => (r.userId !== null ? [r.userId] : []));
  const stored = new Map((await repo.preferencesOf(trx, userIds, m.templateKey)).map((p) => [`${p.user_id}|${p.channel}`, p]));
  const devices = new Set(await repo.usersWithDevices(trx, userIds));
  for (const r of m.recipients) {
    const channels: Array<'email' | 'push'> = [];
    if (r.email) channels.push('email');
    if (r.userId !== null && devices.has(r.userId)) channels.push('push');
    for (const channel of channels) {
      const statutory = STATUTORY_NOTICES.has(m.templateKey);
      const mode = statutory ? 'immediate' : r.userId !== null ? modeOf(m.templateKey, channel, stored.get(`${r.userId}|${channel}`)) : 'immediate';
      let reason: string | null = null;
      if (statutory) reason = null;
      else if (r.kind === 'tenant' && (await consentWithdrawn(trx, agencyId, r, CONSENT_PURPOSE[channel]))) reason = 'consent_withdrawn';
      else if (mode === 'off') reason = 'preference_off';
      let rendered: Awaited<ReturnType<typeof renderTemplate>> | undefined;
      let renderError: string | null = null;
      if (!reason) {
        const template = await templateIn(trx, agencyId, m.templateKey, channel as Channel);
        // A saved template always renders; a failure (limits) is logged `failed`, never retried forever.
        rendered = await renderTemplate(channel, template, { ...m.vars, 'recipient.name': r.name }).catch((err: Error) => {
          renderError = err.message;
          return undefined;
        });
      }
      if (rendered && mode === 'digest' && channel === 'email' && r.userId !== null) {
        // One line of the person's next digest (sent by the periodic task messaging.digest).
        await repo.insertDigestItem(trx, {
          agencyId, userId: r.userId, eventId: event.id, eventName: event.name, key: m.templateKey, line: digestLine(rendered.subject ?? m.templateKey, m.vars), url: m.vars['job.url'] ?? null, at: now,
        });
        continue;
      }
      const content = rendered ? (channel === 'push' ? { ...rendered, data: m.data } : rendered) : null;
      const status = reason ? 'suppressed' : renderError ? 'failed' : 'queued';
      await insertDelivery(trx, {
        uuid: newUuid(), agency_id: agencyId, event_id: event.id, event_name: event.name, template_key: m.templateKey, channel,
        recipient_key: r.key, recipient_kind: r.kind, recipient_user_id: r.userId, recipient_address: channel === 'email' ? r.email!.toLowerCase() : null,
        status, reason, attempts: 0, last_error: renderError, subject: rendered?.subject ?? rendered?.title ?? null,
        content: content ? JSON.stringify(content) : null, next_attempt_at: status === 'queued' ? now : null, created_at: now, updated_at: now, sent_at: null,
      });
    }
  }
}

/** Events the messaging handler answers (docs/messaging.md "Who receives what"). */
export const MESSAGING_EVENTS: readonly EventName[] = [
  'job.created', 'job.assigned', 'job.visit_booked', 'job.visit_reminder', 'job.status_changed', 'job.assignment_declined', 'sla.at_risk', 'sla.breached', 'contractor.certificate_expiring',
  'hazard.summary_sent', 'hazard.at_risk', 'hazard.breached', 'compliance.certificate_expiring',
];

/** Plans the messages of each event (see the file comment); idempotent per event id. */
export const messagingHandler: EventHandler = {
  name: 'messaging.deliveries',
  events: MESSAGING_EVENTS,
  async handle(event, { deps, trx }) {
    if (event.agencyId === null) return;
    for (const m of await planMessages(trx, event, deps.config.mail.publicUrl)) await planOne(deps, trx, event, event.agencyId, m);
  },
};

/**
 * The written summary of a job's hazard as the tenant receives it by e-mail (template
 * `hazard.summary`, the agency's own version if it saved one), for the copy kept on the job
 * (docs/compliance.md "Hazards and statutory clocks").
 * @param publicUrl base of the job link (CARETAKER_PUBLIC_URL)
 * @returns { subject, text } in plain text, or undefined when the job or its hazard is missing
 */
export async function renderHazardSummary(db: DbOrTrx, agencyId: number, jobId: number, publicUrl: string): Promise<{ subject: string; text: string; recipient: string | null } | undefined> {
  const job = await recipientsRepo.loadJob(db, agencyId, jobId);
  const hazard = await recipientsRepo.loadHazard(db, agencyId, jobId);
  if (!job || !hazard) return undefined;
  const tenant = job.tenant_id !== null ? (await tenantRecipients(db, agencyId, job.tenant_id))[0] : undefined;
  const template = await effectiveTemplate(db, agencyId, 'hazard.summary', 'email');
  const r = await renderTemplate('email', template, { ...jobVars(job, publicUrl), ...hazardSummaryVars(hazard), 'recipient.name': tenant?.name ?? 'tenant' });
  return { subject: r.subject ?? '', text: r.text ?? '', recipient: tenant?.name ?? null };
}
