/** The operator views of background work (docs/events.md), read for platform.routes.ts. */
import type { AppDeps } from '../../../app-deps.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { AppError } from '../../../core/errors.ts';
import { DEAD_LETTER_QUEUE } from '../../../events/queue.ts';
import { listDeadLetters, listEvents, outboxLag, purgeDeadLetters, queueFigures, queueInstalled, type DeadLetterFilter } from './platform.repository.ts';

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

/** The text of a failed try's output (pg-boss stores `{ message }` for an error, else any JSON). */
function errorText(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  const value = typeof output === 'string' ? (() => { try { return JSON.parse(output) as unknown; } catch { return output; } })() : output;
  if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') return (value as { message: string }).message;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * GET /api/system/dead-letters: the dead-letter queue's jobs, oldest first, as DeadLetter objects
 * (docs/operations.md "Dead-letter queue").
 * @param q queue (the queue they failed in, optional), limit, offset
 */
export async function deadLetters(deps: AppDeps, q: { queue?: string | undefined; limit: number; offset: number }) {
  const { rows, total } = await listDeadLetters(deps.db, q);
  const data = rows.map((r) => {
    const payload = (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { event_id?: unknown } | null;
    return {
      ID: r.id,
      queue: r.source_name,
      event_id: typeof payload?.event_id === 'string' ? payload.event_id : null,
      tries: (r.source_retry_count ?? 0) + 1,
      error: errorText(r.source_output),
      first_queued_at: toIsoOrNull(r.source_created_on),
      failed_at: toIso(r.created_on),
    };
  });
  return { data, total };
}

/** The filter of a DeadLetterSelection body; 400 unless it names ids and/or a queue, or all: true alone. */
function selection(body: { ids?: string[] | undefined; queue?: string | undefined; all?: true | undefined }): DeadLetterFilter {
  const some = body.ids !== undefined || body.queue !== undefined;
  if (body.all === true && some) throw new AppError('bad_request', 'Give either ids and/or queue, or all: true, not both');
  if (body.all !== true && !some) throw new AppError('bad_request', 'Say which dead letters: ids and/or queue, or all: true');
  return { ids: body.ids, queue: body.queue };
}

/** Dead letters moved back per call of pg-boss's redrive. */
const REDRIVE_BATCH = 1000;

/**
 * POST /api/system/dead-letters/retry: moves the selected dead letters back to the queues they
 * failed in (pg-boss `redrive`), to run again with their tries reset; one whose queue no longer
 * exists stays. Handlers record their completion per event, so a retried event that was in fact
 * handled meanwhile does nothing twice (docs/events.md).
 * @returns how many were moved
 * @throws 400 when the selection names nothing; 503 when no queue administration is available
 */
export async function retryDeadLetters(deps: AppDeps, body: { ids?: string[] | undefined; queue?: string | undefined; all?: true | undefined }): Promise<{ retried: number }> {
  const filter = selection(body);
  if (!(await queueInstalled(deps.db))) return { retried: 0 };
  if (!deps.queueAdmin) throw new AppError('unavailable', 'The queue cannot be administered from this process');
  const retried = await deps.queueAdmin(async (boss) => {
    let moved = 0;
    for (let round = 0; round < 1000; round++) {
      const n = await boss.redrive(DEAD_LETTER_QUEUE, {
        limit: REDRIVE_BATCH,
        ...(filter.ids ? { ids: [...filter.ids] } : {}),
        ...(filter.queue !== undefined ? { sourceName: filter.queue } : {}),
      });
      moved += n;
      if (n < REDRIVE_BATCH) break;
    }
    return moved;
  });
  return { retried };
}

/**
 * POST /api/system/dead-letters/purge: deletes the selected dead letters for good; their events
 * stay in the outbox (GET /api/system/events).
 * @returns how many were deleted
 * @throws 400 when the selection names nothing
 */
export async function purgeDeadLettersOf(deps: AppDeps, body: { ids?: string[] | undefined; queue?: string | undefined; all?: true | undefined }): Promise<{ purged: number }> {
  return { purged: await purgeDeadLetters(deps.db, selection(body)) };
}
