/**
 * Live updates: Server-Sent Events of job events, authorised per recipient (docs/live-updates.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { liveRoutes, type LiveAuth } from './live.routes.ts';
export { AUTH_CHANNEL, LiveHub, OUTBOX_CHANNEL, parseAuthChange, type AuthChange, type LiveHubOptions } from './live-hub.ts';
export { AUDIENCES, type Audience, type LiveEvent } from './live-events.ts';
