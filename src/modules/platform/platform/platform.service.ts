/** The operator views of background work (docs/events.md), read for platform.routes.ts. */
import type { AppDeps } from '../../../app-deps.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { listEvents, outboxLag, queueFigures } from './platform.repository.ts';

/** GET /api/system/queue: jobs per queue and state, and the outbox's unrelayed events. */
export async function queueOverview(deps: AppDeps) {
  const [queues, outbox] = await Promise.all([queueFigures(deps.db), outboxLag(deps.db)]);
  return { queues, outbox };
}

/**
 * GET /api/system/events: outbox rows of every agency, newest first, as OutboxEvent objects.
 * @param q name (exact event name, optional), limit, offset
 * @returns rows and the total matching
 */
export async function recentEvents(deps: AppDeps, q: { name?: string | undefined; limit: number; offset: number }) {
  const { rows, total } = await listEvents(deps.db, { name: q.name, limit: q.limit, offset: q.offset });
  const data = rows.map((r) => ({
    ID: r.event_id,
    name: r.name,
    version: r.version,
    agency_uuid: r.agency_uuid ?? null,
    payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    occurred_at: toIso(r.occurred_at),
    published_at: toIsoOrNull(r.published_at),
  }));
  return { data, total };
}
