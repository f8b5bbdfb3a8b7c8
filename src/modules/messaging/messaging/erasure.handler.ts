/**
 * GDPR erasure in the delivery log (docs/gdpr.md, docs/messaging.md "How a message is sent"):
 * when a tenant is erased, their deliveries keep their shape (event, kind, status, times) but lose
 * the address, subject and any rendered message still queued, and a queued one is not sent.
 */
import type { EventHandler } from '../../../events/index.ts';
import { scrubTenantDeliveries, tenantRecipientKeys } from './deliveries.repository.ts';

/** Scrubs the erased tenant's deliveries (record and accounts) in the handler's transaction. */
export const messagingErasureHandler: EventHandler = {
  name: 'messaging.erasure',
  events: ['tenant.erased'],
  async handle(event, { deps, trx }) {
    const keys = await tenantRecipientKeys(trx, (event.payload as { tenant_id: number }).tenant_id);
    await scrubTenantDeliveries(trx, keys, deps.clock.now());
  },
};
