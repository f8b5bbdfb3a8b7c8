/**
 * Domain events: the catalogue, the outbox writer, the handler and periodic-task contracts and the
 * in-process dispatcher (docs/events.md). Modules import only this file.
 */
export { EVENT_CATALOGUE, type DomainEvent, type EventDefinition, type EventName, type EventPayload } from './catalogue.ts';
export { emitEvent, eventInsert, type EmitInput } from './outbox.ts';
export { listOutbox, runHandlerOnce, toDomainEvent, type EventHandler, type HandlerContext, type PeriodicTask, type TaskLogger } from './handlers.ts';
export { dispatchPendingEvents } from './dispatch.ts';
export { latestOutboxId, outboxRowsAfter, outboxRowsByRowIds, type LiveOutboxRow } from './outbox.repository.ts';
