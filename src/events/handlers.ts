/**
 * What background work looks like to a module (docs/events.md): an event handler subscribes to
 * event names; a periodic task runs on a cron schedule once per cluster. Modules export their
 * handlers and tasks through their `index.ts`; the composition root (`src/main/background.ts`) lists
 * them. Delivery is at least once, so a handler records its completion per event id and a
 * redelivered event has its effect once (`runHandlerOnce`).
 */
import type { AppDeps } from '../app-deps.ts';
import type { Trx } from '../db/types.ts';
import type { DomainEvent, EventName } from './catalogue.ts';
import { inSpan, tracingEnabled } from '../lib/tracing.ts';
import { claimHandlerRun } from './outbox.repository.ts';

/** Subscribes to one or more events. */
export interface EventHandler {
  /** Unique and stable (`<module>.<what>`, e.g. `messaging.email`): with the event id, the idempotency key. */
  name: string;
  /** Events it receives. */
  events: readonly EventName[];
  /**
   * Does the work for one event. Database effects go through `trx`, which also records the
   * completion, so both commit together; outside effects (SMTP, HTTP) must tolerate a repeat or
   * record their own delivery key. Throwing makes the queue retry with backoff.
   */
  handle(event: DomainEvent, ctx: HandlerContext): Promise<void>;
}

/** What a handler receives besides the event. */
export interface HandlerContext {
  deps: AppDeps;
  /** Transaction in which the completion row is written. */
  trx: Trx;
  /** Delivery attempt, 1 for the first. */
  attempt: number;
}

/** A task on a schedule, run once per tick in the whole cluster. */
export interface PeriodicTask {
  /** Unique and stable, e.g. `sla.scan`. */
  name: string;
  /** Five-field cron expression in UTC, e.g. `* * * * *` for every minute. */
  cron: string;
  /**
   * Does one tick's work; must be safe to run again for the same tick (idempotent updates).
   * @param log the worker's log, for progress lines of long work
   * @param signal aborted when the worker shuts down: long work stops at its next step and gives
   *   back what it claimed (docs/operations.md "Shutdown and health")
   */
  run(deps: AppDeps, log?: TaskLogger, signal?: AbortSignal): Promise<void>;
  /** Also run once as soon as a worker starts, not only on the first tick (work an upgrade left). */
  runAtStart?: boolean;
  /**
   * One batch of the same work for rows that claim themselves (compare-and-set), run by every
   * worker every `CARETAKER_QUEUE_SEND_INTERVAL_MS` and after each handler batch, again at once
   * while it returns true (a full batch: more may be due). Work that must not wait for the next
   * minute's tick (sending e-mails, push and webhooks) has one.
   * @param signal as for `run`: once aborted, nothing more is claimed and what was claimed but not
   *   sent is given back
   */
  drain?(deps: AppDeps, signal?: AbortSignal): Promise<boolean>;
}

/** Where a periodic task reports progress (the worker's log). */
export interface TaskLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Where a delivery of an event comes from, for its span (docs/operations.md "Tracing"). */
export interface DeliveryTrace {
  /** The outbox row's W3C traceparent (the emitting request's span), null when it was not traced. */
  traceparent: string | null;
  /** The pg-boss queue and job id, when the queue delivers it. */
  queue?: string;
  jobId?: string;
}

/**
 * Runs `handler` for `event` unless it already completed it; the completion row and the handler's
 * database effects commit in one transaction. While tracing is on it runs in a span
 * `<handler> <event>` (e.g. `webhooks.fanout job.created`, kind consumer) in the trace of the
 * request that emitted the event, linked to pg-boss's own `process <queue>` span of the batch.
 * @param trace the outbox row's traceparent and the queue job, when known
 * @returns true when the handler ran, false when it had already completed this event
 */
export async function runHandlerOnce(deps: AppDeps, handler: EventHandler, event: DomainEvent, attempt = 1, trace?: DeliveryTrace): Promise<boolean> {
  return inHandlerSpan(handler, event, attempt, trace, () =>
    deps.db.transaction().execute(async (trx) => {
      if (!(await claimHandlerRun(trx, handler.name, event.id, deps.clock.now()))) return false;
      await handler.handle(event, { deps, trx, attempt });
      return true;
    }),
  );
}

/**
 * Runs `run` in the span of one delivery of `event` to `handler` while tracing is on
 * (`<handler> <event>`, kind consumer, in the trace of the request that emitted the event;
 * docs/operations.md "Tracing"); runs it bare otherwise.
 */
export function inHandlerSpan<T>(handler: EventHandler, event: DomainEvent, attempt: number, trace: DeliveryTrace | undefined, run: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return run();
  const queue = trace?.queue ?? `handler.${handler.name}`;
  return inSpan(
    `${handler.name} ${event.name}`,
    {
      kind: 'consumer',
      traceparent: trace?.traceparent,
      attributes: {
        'messaging.system': 'pg-boss',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': trace?.jobId,
        'caretaker.event.name': event.name,
        'caretaker.event.id': event.id,
        'caretaker.handler': handler.name,
        'caretaker.attempt': attempt,
      },
    },
    run,
  );
}

/** Reads one outbox row as a DomainEvent. */
export function toDomainEvent(row: {
  event_id: string;
  name: string;
  version: number;
  agency_id: number | null;
  payload: unknown;
  occurred_at: Date;
}): DomainEvent {
  const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  return {
    id: row.event_id,
    name: row.name as EventName,
    version: row.version,
    agencyId: row.agency_id,
    payload: payload as DomainEvent['payload'],
    occurredAt: row.occurred_at,
  };
}

export { listOutbox } from './outbox.repository.ts';
