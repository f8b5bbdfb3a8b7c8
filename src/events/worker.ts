/**
 * The background worker (docs/events.md): starts pg-boss, creates one queue per handler (retries
 * with exponential backoff, then the dead-letter queue), subscribes each handler's queue to its
 * event names, runs the outbox relay on an interval, and puts every periodic task on a pg-boss
 * cron schedule, which sends one job per tick for the whole cluster. `caretaker worker` runs only
 * this; `caretaker serve` runs it beside the HTTP server unless `--no-worker`.
 */
import type { PgBoss, Queue } from 'pg-boss';
import type { AppDeps } from '../app-deps.ts';
import { runHandlerOnce, toDomainEvent, type EventHandler, type PeriodicTask } from './handlers.ts';
import { createBoss, DEAD_LETTER_QUEUE, handlerQueue, taskQueue, type BossDatabase } from './queue.ts';
import { relayOutbox, type HandlerJobData } from './relay.ts';
import { findEvent } from './outbox.repository.ts';

/** Where the worker reports (JSON lines in the CLI, pino under `serve`). */
export interface WorkerLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** A running worker. */
export interface BackgroundWorker {
  boss: PgBoss;
  /** Relays one batch now (also runs on the interval); returns the rows relayed. */
  relayOnce(): Promise<number>;
  /**
   * Stops taking work: the relay stops, running jobs get up to `timeoutMs` to finish (default the
   * shutdown timeout); a job still running then is retried by another worker once its heartbeat
   * lapses.
   */
  stop(timeoutMs?: number): Promise<void>;
}

/** Creates the queue, or updates its options when it exists (several instances start at once). */
async function ensureQueue(boss: PgBoss, name: string, options: Omit<Queue, 'name'>): Promise<void> {
  if (await boss.getQueue(name)) {
    if (Object.keys(options).length > 0) await boss.updateQueue(name, options);
    return;
  }
  await boss.createQueue(name, options).catch(async (err: unknown) => {
    if (!(await boss.getQueue(name))) throw err;
  });
}

/**
 * Starts the worker.
 * @param database the opened database (engine, Kysely and the PGlite instance)
 * @param handlers event handlers (src/background.ts `backgroundHandlers()`)
 * @param tasks periodic tasks (src/background.ts `periodicTasks()`)
 * @throws when pg-boss cannot install its schema or reach the database
 */
export async function startBackgroundWorker(
  deps: AppDeps,
  database: BossDatabase,
  handlers: readonly EventHandler[],
  tasks: readonly PeriodicTask[],
  log: WorkerLogger,
  options: { cronWorkerIntervalSeconds?: number } = {},
): Promise<BackgroundWorker> {
  const q = deps.config.queue;
  const boss = createBoss(deps.config, database, { schedule: true, ...options });
  boss.on('error', (err) => log.error({ err: err.message }, 'queue error'));
  await boss.start();
  await ensureQueue(boss, DEAD_LETTER_QUEUE, {});

  for (const handler of handlers) {
    const name = handlerQueue(handler.name);
    await ensureQueue(boss, name, {
      retryLimit: q.retryLimit,
      retryDelay: q.retryDelayS,
      retryBackoff: true,
      heartbeatSeconds: q.heartbeatS,
      deadLetter: DEAD_LETTER_QUEUE,
    });
    for (const event of handler.events) await boss.subscribe(event, name);
    await boss.work<HandlerJobData>(name, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) {
        const row = await findEvent(deps.db, job.data.event_id);
        if (!row) continue;
        try {
          await runHandlerOnce(deps, handler, toDomainEvent(row), job.retryCount + 1);
        } catch (err) {
          log.error({ handler: handler.name, event_id: row.event_id, attempt: job.retryCount + 1, err: (err as Error).message }, 'event handler failed');
          throw err;
        }
      }
    });
  }

  for (const task of tasks) {
    const name = taskQueue(task.name);
    await ensureQueue(boss, name, { retryLimit: 0, heartbeatSeconds: q.heartbeatS, deadLetter: DEAD_LETTER_QUEUE });
    await boss.schedule(name, task.cron, null, { tz: 'UTC' });
    await boss.work(name, { pollingIntervalSeconds: 1 }, async () => {
      await task.run(deps, log);
    });
    // One job now as well (once per cluster while one is queued): work an upgrade left starts at once.
    if (task.runAtStart) await boss.send(name, null, { singletonKey: `${name}:start` });
  }

  let running: Promise<number> | undefined;
  const relayOnce = async (): Promise<number> => {
    running ??= relayOutbox(deps, boss, handlers).finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    relayOnce().catch((err: unknown) => log.error({ err: (err as Error).message }, 'outbox relay failed'));
  }, q.relayIntervalMs);
  log.info({ handlers: handlers.length, tasks: tasks.length, engine: deps.engine }, 'background worker started');

  let stopping: Promise<void> | undefined;
  return {
    boss,
    relayOnce,
    stop: (timeoutMs = deps.config.shutdownTimeoutS * 1000) => {
      stopping ??= (async () => {
        clearInterval(timer);
        await running?.catch(() => undefined);
        await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
      })();
      return stopping;
    },
  };
}
