/**
 * The background worker (docs/events.md): starts pg-boss, creates one queue per handler (retries
 * with exponential backoff, then the dead-letter queue), subscribes each handler's queue to its
 * event names, runs the outbox relay on an interval, and puts every periodic task on a pg-boss
 * cron schedule, which sends one job per tick for the whole cluster. `caretaker worker` runs only
 * this; `caretaker serve` runs it beside the HTTP server unless `--no-worker`.
 */
import type { Job, JobResult, PgBoss, Queue } from 'pg-boss';
import type { AppDeps } from '../app-deps.ts';
import type { Config } from '../config.ts';
import { runHandlerOnce, toDomainEvent, type EventHandler, type PeriodicTask } from './handlers.ts';
import { createBoss, DEAD_LETTER_QUEUE, handlerQueue, taskQueue, type BossDatabase } from './queue.ts';
import { relayOutbox, type HandlerJobData } from './relay.ts';
import { eventsById } from './outbox.repository.ts';

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

/** Outbox rows per relay transaction. */
const RELAY_BATCH = 200;

/** How a handler queue's workers fetch (docs/operations.md "Queue sizing"). */
type HandlerWorkOptions = {
  batchSize: number;
  localConcurrency: number;
  pollingIntervalSeconds: number;
  notifyPollingIntervalSeconds: number;
  burstWhenBatchFull: boolean;
  perJobResults: true;
};

/**
 * pg-boss work options of a handler queue: `batchSize` jobs per fetch, `concurrency` workers per
 * queue in this process (1 on PGlite, whose one connection serialises them anyway), fetching
 * again at once while batches come back full, each job settled on its own.
 * @param q the queue configuration
 */
export function handlerWorkOptions(q: Config['queue'], engine: 'pglite' | 'postgres'): HandlerWorkOptions {
  return {
    batchSize: q.batchSize,
    localConcurrency: engine === 'pglite' ? 1 : q.concurrency,
    pollingIntervalSeconds: 1,
    // NOTIFY wakes the workers for new jobs only; a retry coming due is found by the poll.
    notifyPollingIntervalSeconds: 1,
    burstWhenBatchFull: q.batchSize > 1,
    perJobResults: true,
  };
}

/**
 * Runs one fetched batch of a handler queue: reads the batch's outbox rows in one query, runs the
 * handler once per event (`runHandlerOnce`), and settles each job by itself, so one failing event
 * is retried without repeating or holding back the others.
 * @returns one result per job: completed (also when its event is gone) or failed
 */
async function runBatch(deps: AppDeps, handler: EventHandler, jobs: ReadonlyArray<Job<HandlerJobData>>, log: WorkerLogger): Promise<JobResult[]> {
  const rows = await eventsById(deps.db, jobs.map((j) => j.data.event_id));
  const byId = new Map(rows.map((r) => [r.event_id, r]));
  const results: JobResult[] = [];
  for (const job of jobs) {
    const row = byId.get(job.data.event_id);
    if (!row) {
      results.push({ id: job.id, status: 'completed' });
      continue;
    }
    try {
      await runHandlerOnce(deps, handler, toDomainEvent(row), job.retryCount + 1);
      results.push({ id: job.id, status: 'completed' });
    } catch (err) {
      const message = (err as Error).message;
      log.error({ handler: handler.name, event_id: row.event_id, attempt: job.retryCount + 1, err: message }, 'event handler failed');
      results.push({ id: job.id, status: 'failed', output: { message } });
    }
  }
  return results;
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
  const workOptions = handlerWorkOptions(q, deps.engine);
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
      // A new job wakes the queue's workers at once (LISTEN/NOTIFY) instead of at the next poll.
      notify: true,
    });
    for (const event of handler.events) await boss.subscribe(event, name);
    await boss.work<HandlerJobData, JobResult[], HandlerWorkOptions>(name, workOptions, (jobs) => runBatch(deps, handler, jobs, log));
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
    running ??= relayOutbox(deps, boss, handlers, { limit: RELAY_BATCH }).finally(() => {
      running = undefined;
    });
    return running;
  };
  // A full batch means more rows wait: relay again at once until a batch comes back short.
  const relayAll = async (): Promise<void> => {
    for (let i = 0; i < 50 && (await relayOnce()) === RELAY_BATCH; i++);
  };
  const timer = setInterval(() => {
    relayAll().catch((err: unknown) => log.error({ err: (err as Error).message }, 'outbox relay failed'));
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
