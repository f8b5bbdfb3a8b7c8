/**
 * Operator views of background work (docs/events.md): GET /api/system/queue (job counts per queue
 * and state, oldest waiting age, relay lag), GET /api/system/events (recent outbox rows), and the
 * dead-letter queue: list, retry, purge (docs/operations.md "Dead-letter queue").
 * SysOps only: they span every agency.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import type { App } from '../../../http/route-types.ts';
import { deadLetters, purgeDeadLettersOf, queueOverview, recentEvents, retryDeadLetters } from './platform.service.ts';
import { DeadLetter, DeadLetterSelection, DeadLettersPurged, DeadLettersQuery, DeadLettersRetried, EventsQuery, OutboxEvent, QueueOverview } from './platform.schemas.ts';

/** Registers the queue and events routes. */
export function platformRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/system/queue: counts per queue and state; oldest waiting age; outbox lag. */
    app.get('/api/system/queue', {
      config: { permission: 'api.system.queue.view' },
      schema: {
        tags: ['system'],
        summary: 'Background queue figures',
        description:
          'Jobs per pg-boss queue (one per event handler, one per periodic task, and dead-letter) by state, the age in ' +
          'seconds of the oldest runnable job, and the committed events the relay has not handed over yet. SysOps.',
        response: responses(DataEnvelope(QueueOverview), [401, 403, 429]),
      },
      handler: async () => {
        return ok(await queueOverview(deps), 'Queue figures retrieved');
      },
    });

    /** GET /api/system/events: outbox rows, newest first, filtered by name, paginated. */
    app.get('/api/system/events', {
      config: { permission: 'api.system.events.view' },
      schema: {
        tags: ['system'],
        summary: 'Recent domain events',
        description: 'Outbox rows of every agency, newest first; `name` filters by event name (docs/events.md). SysOps.',
        querystring: EventsQuery,
        response: responses(ListEnvelope(OutboxEvent), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { data, total } = await recentEvents(deps, request.query as EventsQuery);
        return list(data, total, 'Events retrieved');
      },
    });

    /** GET /api/system/dead-letters: the jobs that failed for good, oldest first. */
    app.get('/api/system/dead-letters', {
      config: { permission: 'api.system.dead_letters.view' },
      schema: {
        tags: ['system'],
        summary: 'Dead letters',
        description:
          'Jobs that failed for good after their last try (event handlers) or their one try (periodic tasks), oldest first: ' +
          'the queue each failed in, its event, tries and last error. `queue` filters by that queue. Readiness warns while any ' +
          'is waiting here (docs/operations.md "Dead-letter queue"). SysOps.',
        querystring: DeadLettersQuery,
        response: responses(ListEnvelope(DeadLetter), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { data, total } = await deadLetters(deps, request.query as DeadLettersQuery);
        return list(data, total, 'Dead letters retrieved');
      },
    });

    /** POST /api/system/dead-letters/retry: puts the selected dead letters back on their queues. */
    app.post('/api/system/dead-letters/retry', {
      config: { permission: 'api.system.dead_letters.manage' },
      schema: {
        tags: ['system'],
        summary: 'Retry dead letters',
        description:
          'Moves the selected dead letters (`ids` and/or `queue`, or `all: true`) back to the queues they failed in, to run ' +
          'again with their tries reset; handlers record their completion per event, so nothing is done twice. One whose ' +
          'queue no longer exists stays. 400 when nothing is selected. SysOps.',
        body: DeadLetterSelection,
        response: responses(DataEnvelope(DeadLettersRetried), [400, 401, 403, 429, 503]),
      },
      handler: async (request) => ok(await retryDeadLetters(deps, request.body as DeadLetterSelection), 'Dead letters queued again'),
    });

    /** POST /api/system/dead-letters/purge: deletes the selected dead letters for good. */
    app.post('/api/system/dead-letters/purge', {
      config: { permission: 'api.system.dead_letters.manage' },
      schema: {
        tags: ['system'],
        summary: 'Purge dead letters',
        description:
          'Deletes the selected dead letters (`ids` and/or `queue`, or `all: true`) for good; their events stay in the ' +
          'outbox (GET /api/system/events). 400 when nothing is selected. SysOps.',
        body: DeadLetterSelection,
        response: responses(DataEnvelope(DeadLettersPurged), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await purgeDeadLettersOf(deps, request.body as DeadLetterSelection), 'Dead letters purged'),
    });
  };
}
