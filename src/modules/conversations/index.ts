/**
 * Job conversations, reply by e-mail and inbound SMS (docs/conversations.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { conversationsRoutes } from './conversations.routes.ts';
export { recordMessage, audiencesOf, type Author } from './conversations.service.ts';
