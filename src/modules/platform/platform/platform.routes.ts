/**
 * Operator views of background work (docs/events.md): GET /api/system/queue (job counts per queue
 * and state, oldest waiting age, relay lag) and GET /api/system/events (recent outbox rows).
 * SysOps only: they span every agency.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import type { App } from '../../../http/route-types.ts';
import { queueOverview, recentEvents } from './platform.service.ts';
import { EventsQuery, OutboxEvent, QueueOverview } from './platform.schemas.ts';

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
  };
}
