/**
 * The background worker (docs/events.md): starts pg-boss, creates one queue per handler (retries
 * with exponential backoff, then the dead-letter queue), subscribes each handler's queue to its
 * event names, runs the outbox relay on an interval, and puts every periodic task on a pg-boss
 * cron schedule, which sends one job per tick for the whole cluster. `caretaker worker` runs only
 * this; `caretaker serve` runs it beside the HTTP server unless `--no-worker`.
 */
import type { Job, JobResult, PgBoss, Queue } from 'pg-boss';
import type { AppDeps } from '../app-deps.ts';
import type { Config } from '../config/config.ts';
import { inHandlerSpan, toDomainEvent, type EventHandler, type PeriodicTask } from './handlers.ts';
import { claimHandlerRuns, eventsByIds, rollbackToSavepoint, savepoint, unclaimHandlerRun } from './outbox.repository.ts';
import { createBoss, DEAD_LETTER_QUEUE, handlerQueue, taskQueue, type BossDatabase } from './queue.ts';
import { relayOutbox, type HandlerJobData } from './relay.ts';

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
 * again at once while batches come back full, each job settled on its own. New jobs wake the
 * workers (LISTEN/NOTIFY on PostgreSQL); the poll every `idlePollS` seconds finds retries coming
 * due, and is every second where no notification arrives (PGlite).
 * @param q the queue configuration
 */
export function handlerWorkOptions(q: Config['queue'], engine: 'pglite' | 'postgres'): HandlerWorkOptions {
  return {
    batchSize: q.batchSize,
    localConcurrency: engine === 'pglite' ? 1 : q.concurrency,
    pollingIntervalSeconds: 1,
    notifyPollingIntervalSeconds: q.idlePollS,
    burstWhenBatchFull: q.batchSize > 1,
    perJobResults: true,
  };
}

/**
 * Runs one fetched batch of a handler queue in one transaction (docs/operations.md "Queue
 * sizing"): reads the batch's outbox rows and records the handler's completions in one statement
 * each, then runs the handler once per newly recorded event behind its own savepoint. A failing
 * event is rolled back to its savepoint and its completion removed, so it alone is retried while
 * the others commit together; one commit per batch instead of one per event.
 * @returns one result per job: completed (also when its event is gone or was handled before) or
 *   failed; every job failed when the transaction itself fails (nothing of the batch committed)
 */
async function runBatch(deps: AppDeps, handler: EventHandler, jobs: ReadonlyArray<Job<HandlerJobData>>, log: WorkerLogger): Promise<JobResult[]> {
  const ids = jobs.map((j) => j.data.event_id);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const byId = new Map((await eventsByIds(trx, ids)).map((r) => [r.event_id, r]));
      const todo = await claimHandlerRuns(trx, handler.name, [...byId.keys()], deps.clock.now());
      const results: JobResult[] = [];
      for (const [i, job] of jobs.entries()) {
        const row = byId.get(job.data.event_id);
        // Gone, handled before, or a second job of the same event in this batch: nothing to do.
        if (!row || !todo.delete(row.event_id)) {
          results.push({ id: job.id, status: 'completed' });
          continue;
        }
        const point = `job_${i}`;
        await savepoint(trx, point);
        try {
          const event = toDomainEvent(row);
          const trace = { traceparent: row.traceparent, queue: handlerQueue(handler.name), jobId: job.id };
          await inHandlerSpan(handler, event, job.retryCount + 1, trace, () => handler.handle(event, { deps, trx, attempt: job.retryCount + 1 }));
          results.push({ id: job.id, status: 'completed' });
        } catch (err) {
          await rollbackToSavepoint(trx, point);
          await unclaimHandlerRun(trx, handler.name, row.event_id);
          const message = (err as Error).message;
          log.error({ handler: handler.name, event_id: row.event_id, attempt: job.retryCount + 1, err: message }, 'event handler failed');
          results.push({ id: job.id, status: 'failed', output: { message } });
        }
      }
      return results;
    });
  } catch (err) {
    const message = (err as Error).message;
    log.error({ handler: handler.name, jobs: jobs.length, err: message }, 'event handler batch failed');
    return jobs.map((job) => ({ id: job.id, status: 'failed', output: { message } }));
  }
}

/**
 * Runs the drains of the periodic tasks (`PeriodicTask.drain`: sending due e-mails, push and
 * webhooks) in this process: `wake()` starts a round unless one runs (then one more follows it);
 * a round runs each drain again at once while it reports a full batch (at most 50 batches), the
 * drains side by side, a failing one logged without stopping the others.
 */
function drainer(deps: AppDeps, tasks: readonly PeriodicTask[], log: WorkerLogger): { wake(): void; stop(): Promise<void> } {
  const withDrain = tasks.filter((t) => t.drain);
  let round: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const runRound = async () => {
    do {
      again = false;
      await Promise.all(
        withDrain.map(async (task) => {
          try {
            for (let i = 0; i < 50 && !stopped && (await task.drain!(deps)); i++);
          } catch (err) {
            log.error({ task: task.name, err: (err as Error).message }, 'drain failed');
          }
        }),
      );
    } while (again && !stopped);
  };
  return {
    wake() {
      if (stopped || withDrain.length === 0) return;
      if (round) {
        again = true;
        return;
      }
      round = runRound().finally(() => {
        round = undefined;
      });
    },
    async stop() {
      stopped = true;
      await round;
    },
  };
}

/**
 * Creates the queue, or updates its options when it exists with others (several instances start
 * at once). `existing` holds the queues read once before (one statement instead of one per queue).
 */
async function ensureQueue(boss: PgBoss, existing: ReadonlyMap<string, Queue>, name: string, options: Omit<Queue, 'name'>): Promise<void> {
  const found = existing.get(name) ?? (await boss.getQueue(name));
  if (found) {
    const current = found as unknown as Record<string, unknown>;
    const changed = Object.entries(options).some(([key, value]) => current[key] !== value);
    if (changed) await boss.updateQueue(name, options);
    return;
  }
  await boss.createQueue(name, options).catch(async (err: unknown) => {
    if (!(await boss.getQueue(name))) throw err;
  });
}

/** A handler queue's options: retries with backoff, then the dead-letter queue (docs/events.md). */
function handlerQueueOptions(q: Config['queue']): Omit<Queue, 'name'> {
  return {
    retryLimit: q.retryLimit,
    retryDelay: q.retryDelayS,
    retryBackoff: true,
    heartbeatSeconds: q.heartbeatS,
    deadLetter: DEAD_LETTER_QUEUE,
    // A new job wakes the queue's workers at once (LISTEN/NOTIFY) instead of at the next poll.
    notify: true,
  };
}

/**
 * Creates (or brings up to date) every queue, subscription and schedule of the handlers and tasks
 * on a started pg-boss: what the worker needs before it works, and what the prepared embedded
 * database holds already (src/main/prepared-database.ts), so a first start does not create them.
 * Unchanged queues cost one read for all of them.
 */
export async function installQueues(boss: PgBoss, config: Readonly<Config>, handlers: readonly EventHandler[], tasks: readonly PeriodicTask[]): Promise<void> {
  const q = config.queue;
  const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue as Queue]));
  await ensureQueue(boss, existing, DEAD_LETTER_QUEUE, {});
  for (const handler of handlers) {
    const name = handlerQueue(handler.name);
    await ensureQueue(boss, existing, name, handlerQueueOptions(q));
    for (const event of handler.events) await boss.subscribe(event, name);
  }
  for (const task of tasks) {
    const name = taskQueue(task.name);
    // notify: the schedule's job wakes the worker at once.
    await ensureQueue(boss, existing, name, { retryLimit: 0, heartbeatSeconds: q.heartbeatS, deadLetter: DEAD_LETTER_QUEUE, notify: true });
    await boss.schedule(name, task.cron, null, { tz: 'UTC' });
  }
}

/**
 * Starts the worker.
 * @param database the opened database (engine, Kysely and the PGlite instance)
 * @param handlers event handlers (src/main/background.ts `backgroundHandlers()`)
 * @param tasks periodic tasks (src/main/background.ts `periodicTasks()`)
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
  const drains = drainer(deps, tasks, log);
  const boss = createBoss(deps.config, database, { schedule: true, ...options });
  boss.on('error', (err) => log.error({ err: err.message }, 'queue error'));
  await boss.start();
  await installQueues(boss, deps.config, handlers, tasks);

  for (const handler of handlers) {
    await boss.work<HandlerJobData, JobResult[], HandlerWorkOptions>(handlerQueue(handler.name), workOptions, async (jobs) => {
      const results = await runBatch(deps, handler, jobs, log);
      // What the batch planned (e-mails, webhooks) goes out now rather than at the next interval.
      drains.wake();
      return results;
    });
  }

  for (const task of tasks) {
    const name = taskQueue(task.name);
    // The schedule's job wakes the worker at once (notify, set in installQueues); the poll is only the backstop.
    await boss.work(name, { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: q.idlePollS }, async () => {
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
  const drainTimer = setInterval(drains.wake, q.sendIntervalMs);
  log.info({ handlers: handlers.length, tasks: tasks.length, engine: deps.engine }, 'background worker started');

  let stopping: Promise<void> | undefined;
  return {
    boss,
    relayOnce,
    stop: (timeoutMs = deps.config.shutdownTimeoutS * 1000) => {
      stopping ??= (async () => {
        clearInterval(timer);
        clearInterval(drainTimer);
        await running?.catch(() => undefined);
        await drains.stop();
        await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
      })();
      return stopping;
    },
  };
}
