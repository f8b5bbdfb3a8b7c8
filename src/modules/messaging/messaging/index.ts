/**
 * Messaging (docs/messaging.md): templates, the delivery log, notification preferences, the
 * event handler that plans messages and the periodic tasks that send them and the digests. The module's only
 * public door.
 */
import type { EventHandler, PeriodicTask } from '../../../events/index.ts';
import { messagingHandler } from './delivery.handler.ts';
import { messagingErasureHandler } from './erasure.handler.ts';
import { messagingDigestTask } from './digest.ts';
import { messagingSendTask } from './sender.ts';

export { messagingRoutes } from './messaging.routes.ts';
export { messagingHandler, MESSAGING_EVENTS, CONSENT_PURPOSE } from './delivery.handler.ts';
export { messagingSendTask, sendDueDeliveries, MAX_ATTEMPTS, BACKOFF_S } from './sender.ts';
export { messagingDigestTask, sendDigests, DIGEST_KIND } from './digest.ts';
export { MESSAGE_KINDS, templateId } from './template-catalogue.ts';
export { renderTemplate, compileMjml } from './render.ts';
export { effectiveTemplate } from './templates.service.ts';
export { renderHazardSummary } from './delivery.handler.ts';
export { queueEmail, queueSms, queueTemplatedEmail, type DirectEmail, type DirectSms, type TemplatedEmail } from './direct.ts';
export { contractorRecipients, priorityWords, tenantRecipients } from './recipients.ts';
export { branchAgents, type Recipient } from './recipients.ts';

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers: EventHandler[] = [messagingHandler, messagingErasureHandler];
/** Periodic tasks of the module (listed in src/main/background.ts). */
export const periodicTasks: PeriodicTask[] = [messagingSendTask, messagingDigestTask];
