/**
 * The outbox relay (docs/events.md): moves committed outbox rows to the queue. One transaction
 * claims a batch of unpublished rows (`FOR UPDATE SKIP LOCKED`, so several instances never take
 * the same row), inserts one pg-boss job per subscribed handler in that same transaction and marks
 * the rows published: a row is either relayed with all its jobs or not at all.
 */
import type { PgBoss } from 'pg-boss';
import type { AppDeps } from '../app-deps.ts';
import type { EventHandler } from './handlers.ts';
import { handlerQueue, loadPgBoss } from './queue.ts';
import { lockUnpublishedEvents, markPublished } from './outbox.repository.ts';

/** Data of a handler job: the outbox event it delivers. */
export interface HandlerJobData {
  event_id: string;
}

/**
 * Relays one batch of committed, unpublished outbox rows (oldest first).
 * @param handlers the subscribers (their queues must exist: startBackgroundWorker creates them)
 * @param opts.limit rows per batch (default 100)
 * @returns the number of rows relayed (0 when none waited)
 */
export async function relayOutbox(
  deps: AppDeps,
  boss: PgBoss,
  handlers: readonly EventHandler[],
  opts: { limit?: number } = {},
): Promise<number> {
  const { fromKysely } = await loadPgBoss();
  return deps.db.transaction().execute(async (trx) => {
    const rows = await lockUnpublishedEvents(trx, opts.limit ?? 100);
    if (rows.length === 0) return 0;
    const bossDb = fromKysely(trx);
    // One insert per subscribed queue for the whole batch.
    for (const handler of handlers) {
      const events = handler.events as readonly string[];
      const jobs = rows.filter((row) => events.includes(row.name)).map((row) => ({ data: { event_id: row.event_id } satisfies HandlerJobData }));
      if (jobs.length > 0) await boss.insert(handlerQueue(handler.name), jobs, { db: bossDb });
    }
    await markPublished(trx, rows.map((r) => r.id), deps.clock.now());
    return rows.length;
  });
}
