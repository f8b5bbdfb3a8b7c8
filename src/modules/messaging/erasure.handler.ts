/**
 * GDPR erasure in the delivery log (docs/gdpr.md, docs/messaging.md "Delivery log"): when a
 * tenant is erased, their deliveries keep their shape (event, kind, status, times) but lose the
 * address, subject and any rendered message still queued, and a queued one is not sent.
 */
import type { EventHandler } from '../../events/index.ts';

/** Scrubs the erased tenant's deliveries (record and accounts) in the handler's transaction. */
export const messagingErasureHandler: EventHandler = {
  name: 'messaging.erasure',
  events: ['tenant.erased'],
  async handle(event, { deps, trx }) {
    const tenantId = (event.payload as { tenant_id: number }).tenant_id;
    const accounts = await trx.selectFrom('users').select('id').where('tenant_id', '=', tenantId).execute();
    const keys = [`tenant:${tenantId}`, ...accounts.map((u) => `user:${u.id}`)];
    const now = deps.clock.now();
    await trx
      .updateTable('message_deliveries')
      .set({ status: 'suppressed', reason: 'erased', next_attempt_at: null })
      .where('recipient_kind', '=', 'tenant')
      .where('recipient_key', 'in', keys)
      .where('status', '=', 'queued')
      .execute();
    await trx
      .updateTable('message_deliveries')
      .set({ recipient_address: null, subject: null, content: null, last_error: null, updated_at: now })
      .where('recipient_kind', '=', 'tenant')
      .where('recipient_key', 'in', keys)
      .execute();
  },
};
