/**
 * The platform module (docs/events.md): operator views of the queue and the outbox, and the queue
 * figures for the Prometheus gauges. Other modules import only this file.
 */
export { platformRoutes } from './platform.routes.ts';
export { outboxLag, queueFigures, type QueueFigures } from './platform.repository.ts';
export { QueueBacklogCheck } from './backlog.ts';
