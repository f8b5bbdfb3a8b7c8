/**
 * The queue backlog check behind the readiness warning (docs/operations.md "Queue sizing"): a
 * queue holding more runnable jobs than CARETAKER_QUEUE_BACKLOG_WARN, or whose oldest runnable job
 * has waited longer than CARETAKER_QUEUE_BACKLOG_WARN_AGE_S, is named in a warning. Readiness stays
 * 200 (every instance shares the queue, so failing them all would take the API down for a backlog);
 * the warning is in the body and in the log. The figures are read at most every 10 s per process.
 * The dead-letter queue is no backlog (nothing works it): any job waiting there is named in its own
 * warning until an operator retries or purges it (docs/operations.md "Dead-letter queue").
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DEAD_LETTER_QUEUE } from '../../../events/queue.ts';
import { queueFigures } from './platform.repository.ts';

/** How long one reading of the figures is reused, in milliseconds. */
const CACHE_MS = 10_000;

/** Reads and caches the backlog warnings of one app. */
export class QueueBacklogCheck {
  private readonly deps: AppDeps;
  private reading: { at: number; warnings: Promise<string[]> } | undefined;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /**
   * The warnings now, e.g. `queue handler.webhooks.fanout: 1500 jobs waiting, the oldest for 75 s`.
   * @returns [] when every queue is under both thresholds and the dead-letter queue is empty, or
   *   when the figures cannot be read
   */
  warnings(): Promise<string[]> {
    const now = Date.now();
    if (!this.reading || now - this.reading.at >= CACHE_MS) {
      const { backlogWarnJobs, backlogWarnAgeS } = this.deps.config.queue;
      const warnings = queueFigures(this.deps.db).then(
        (queues) => {
          const figures = queues.map((q) => ({ name: q.name, waiting: q.counts.created + q.counts.retry, oldest: q.oldest_waiting_s ?? 0 }));
          const dead = figures.find((q) => q.name === DEAD_LETTER_QUEUE);
          return [
            ...(dead && dead.waiting > 0
              ? [`${DEAD_LETTER_QUEUE}: ${dead.waiting} job(s) failed for good, the oldest ${dead.oldest} s ago: see \`caretaker dead-letters list\`, then retry or purge them (docs/operations.md "Dead-letter queue")`]
              : []),
            ...figures
              .filter((q) => q.name !== DEAD_LETTER_QUEUE && (q.waiting > backlogWarnJobs || q.oldest > backlogWarnAgeS))
              .map((q) => `queue ${q.name}: ${q.waiting} jobs waiting, the oldest for ${q.oldest} s`),
          ];
        },
        () => [],
      );
      this.reading = { at: now, warnings };
    }
    return this.reading.warnings;
  }
}
