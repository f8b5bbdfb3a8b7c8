/**
 * In-process delivery of outbox events (docs/events.md): reads unpublished rows in order, runs
 * every subscribed handler once per event, and marks the rows published. The queue relay uses the
 * same handlers; tests call `dispatchPendingEvents` to deliver what a request emitted without
 * waiting on a worker.
 */
import type { AppDeps } from '../app-deps.ts';
import { runHandlerOnce, toDomainEvent, type EventHandler } from './handlers.ts';
import { markPublished, unpublishedEvents } from './outbox.repository.ts';

/**
 * Delivers every unpublished outbox event to the handlers that subscribe to it.
 * @param handlers the handlers to run (usually `backgroundHandlers()` of src/main/background.ts)
 * @param opts.limit at most this many events (default 1,000)
 * @returns the number of events delivered
 * @throws the first handler error (the event stays unpublished, so a later call retries it)
 */
export async function dispatchPendingEvents(deps: AppDeps, handlers: readonly EventHandler[], opts: { limit?: number } = {}): Promise<number> {
  const rows = await unpublishedEvents(deps.db, opts.limit ?? 1_000);
  for (const row of rows) {
    const event = toDomainEvent(row);
    for (const handler of handlers) {
      if (handler.events.includes(event.name)) await runHandlerOnce(deps, handler, event, 1, { traceparent: row.traceparent });
    }
    await markPublished(deps.db, [row.id], deps.clock.now());
  }
  return rows.length;
}
