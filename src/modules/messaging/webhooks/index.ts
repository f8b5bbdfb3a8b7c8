/**
 * Outbound webhooks (docs/webhooks.md): per-agency endpoints subscribed to domain events, signed
 * as Standard Webhooks says, retried for up to 3 days. The module's public door.
 */
import { deliverTask, fanoutHandler } from './webhooks.delivery.ts';

export { webhooksRoutes } from './webhooks.routes.ts';

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers = [fanoutHandler];
/** Periodic tasks of the module (listed in src/main/background.ts). */
export const periodicTasks = [deliverTask];
