/**
 * A received SMS lands in its thread (docs/conversations.md "SMS"): the handler
 * `conversations.sms_inbound` of `sms.received`. The sms module matched the number to the thread
 * of the last message sent to it; here the sender must still be the thread's person with that
 * number (the job's tenant, by the tenant record's mobile; its contractor, by the contractor's
 * phone; a landlord of the property, by the landlord's phone). The provider's message id keeps a redelivered SMS from landing twice.
 */
import type { DomainEvent, EventHandler, HandlerContext } from '../../../events/index.ts';
import { findReceivedSms, normalisePhone } from '../../messaging/sms/index.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './conversations.repository.ts';
import type { Audience } from './conversations.schemas.ts';
import { recordMessage, type Author } from './conversations.service.ts';

async function land(event: DomainEvent, { deps, trx }: HandlerContext): Promise<void> {
  const p = event.payload as { sms_id: number; thread_id: number };
  const sms = await findReceivedSms(trx, p.sms_id);
  const thread = await repo.findThread(trx, p.thread_id);
  if (!sms || !thread || thread.agency_id !== event.agencyId || !sms.from_number) return;
  let author: Author | undefined;
  if (thread.audience === 'tenant' && thread.tenant_id !== null) {
    const t = await repo.findTenantPerson(trx, thread.agency_id, thread.tenant_id);
    if (t && [t.mobile, t.phone].some((n) => normalisePhone(n) === sms.from_number)) author = { userId: null, kind: 'tenant', key: `tenant:${t.id}`, name: t.name };
  } else if (thread.audience === 'contractor' && thread.contractor_id !== null) {
    const c = await repo.findContractorPerson(trx, thread.agency_id, thread.contractor_id);
    if (c && normalisePhone(c.phone) === sms.from_number) author = { userId: null, kind: 'contractor', key: `contractor:${c.id}`, name: c.contact_name ?? c.company_name };
  } else if (thread.audience === 'landlord' && thread.address_id !== null) {
    const l = (await repo.propertyLandlords(trx, thread.agency_id, thread.address_id)).find((x) => normalisePhone(x.phone) === sms.from_number);
    if (l) author = { userId: null, kind: 'landlord', key: `landlord:${l.id}`, name: l.name };
  }
  if (!author) return;
  const body = (sms.body ?? '').trim();
  if (body.length === 0) return;
  const job = { id: thread.job_id, uuid: thread.job_uuid, agencyId: thread.agency_id, reference: thread.reference, branchId: thread.branch_id };
  const at = deps.clock.now();
  const r = await recordMessage(trx, at, {
    job, audience: thread.audience as Audience, author, body, channel: 'sms', urgent: false, externalId: sms.provider_sid ? `sms:${sms.provider_sid}` : null, fileIds: [],
  });
  if (!r) return;
  await recordActivity(trx, { auth: null, ip: '127.0.0.1' }, at, {
    action: 'conversation_message.receive', resourceType: 'conversation_message', resourceId: r.id, agencyId: job.agencyId,
    details: { job_uuid: job.uuid, message_uuid: r.uuid, audience: thread.audience, channel: 'sms', attachments: 0 },
  });
}

/** `conversations.sms_inbound`: received SMS into their threads. */
export const conversationsSmsInboundHandler: EventHandler = {
  name: 'conversations.sms_inbound',
  events: ['sms.received'],
  handle: land,
};
