/**
 * Job conversations, reply by e-mail and inbound SMS (docs/conversations.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
import type { EventHandler } from '../../../events/index.ts';
import { conversationsNotifyHandler } from './notify.handler.ts';
import { conversationsSmsInboundHandler } from './sms-inbound.handler.ts';

export { conversationsRoutes } from './conversations.routes.ts';
export { inboundMailRoutes } from './inbound.routes.ts';
export { recordMessage, audiencesOf, type Author } from './conversations.service.ts';
export { startInboundSmtp, type InboundSmtp } from './inbound-smtp.ts';
export { receiveEmail, type InboundLogger, type InboundOutcome } from './inbound.service.ts';
export { replyAddress, replyKey } from './reply-address.ts';

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers: EventHandler[] = [conversationsNotifyHandler, conversationsSmsInboundHandler];
