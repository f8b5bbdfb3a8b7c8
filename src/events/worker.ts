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
import { claimHandlerRuns, eventsByIds, releaseRunningJobs, rollbackToSavepoint, savepoint, unclaimHandlerRun } from './outbox.repository.ts';
import { BOSS_SCHEMA, createBoss, DEAD_LETTER_QUEUE, handlerQueue, taskQueue, type BossDatabase } from './queue.ts';
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
   * Stops at once (docs/operations.md "Shutdown and health"): from the call on no job is fetched,
   * no outbox row relayed, no e-mail, push or webhook claimed; a handler batch stops before its next
   * event (the events not started go back to the queue), sends in flight are ended and given back.
   * What still runs gets up to `graceMs` milliseconds (default: the shutdown timeout less
   * `shutdownReserveMs`); a job still running then is given back to its queue (runnable at once,
   * its try not counted), never failed into the dead-letter queue.
   * @returns the jobs given back at the end of the grace (0 when everything finished in time)
   */
  stop(graceMs?: number): Promise<{ released: number }>;
}

/**
 * Milliseconds of a shutdown budget kept back from the worker's grace for what follows it (giving
 * back the jobs still held, closing the database, leaving): a quarter of the budget, at least 1 s
 * and at most 5 s.
 * @param budgetMs CARETAKER_SHUTDOWN_TIMEOUT_S in milliseconds
 */
export function shutdownReserveMs(budgetMs: number): number {
  return Math.min(5_000, Math.max(1_000, Math.round(budgetMs / 4)));
}

/** How long pg-boss's own stop waits past the worker's grace before it fails what is still active. */
const BOSS_STOP_MARGIN_MS = 2_000;

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
 * the others commit together; one commit per batch instead of one per event. Once `signal` is
 * aborted (shutdown) no further event is started: those left are returned in `unstarted`, their
 * completion rows removed, for the caller to give back to the queue.
 * @returns one result per started or settled job: completed (also when its event is gone or was
 *   handled before) or failed, every job failed when the transaction itself fails (nothing of the
 *   batch committed); and the ids of the jobs not started
 */
async function runBatch(
  deps: AppDeps,
  handler: EventHandler,
  jobs: ReadonlyArray<Job<HandlerJobData>>,
  log: WorkerLogger,
  signal: AbortSignal,
): Promise<{ results: JobResult[]; unstarted: string[] }> {
  const ids = jobs.map((j) => j.data.event_id);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const byId = new Map((await eventsByIds(trx, ids)).map((r) => [r.event_id, r]));
      const todo = await claimHandlerRuns(trx, handler.name, [...byId.keys()], deps.clock.now());
      const results: JobResult[] = [];
      const unstarted: string[] = [];
      for (const [i, job] of jobs.entries()) {
        const row = byId.get(job.data.event_id);
        // Gone, handled before, or a second job of the same event in this batch: nothing to do.
        if (!row || !todo.delete(row.event_id)) {
          results.push({ id: job.id, status: 'completed' });
          continue;
        }
        if (signal.aborted) {
          await unclaimHandlerRun(trx, handler.name, row.event_id);
          unstarted.push(job.id);
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
      return { results, unstarted };
    });
  } catch (err) {
    const message = (err as Error).message;
    log.error({ handler: handler.name, jobs: jobs.length, err: message }, 'event handler batch failed');
    return { results: jobs.map((job) => ({ id: job.id, status: 'failed', output: { message } })), unstarted: [] };
  }
}

/**
 * Runs the drains of the periodic tasks (`PeriodicTask.drain`: sending due e-mails, push and
 * webhooks) in this process: `wake()` starts a round unless one runs (then one more follows it);
 * a round runs each drain again at once while it reports a full batch (at most 50 batches), the
 * drains side by side, a failing one logged without stopping the others. `signal` (shutdown) is
 * handed to each drain, which then claims nothing more and gives back what it has not sent.
 */
function drainer(deps: AppDeps, tasks: readonly PeriodicTask[], log: WorkerLogger, signal: AbortSignal): { wake(): void; stop(): Promise<void> } {
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
            for (let i = 0; i < 50 && !stopped && (await task.drain!(deps, signal)); i++);
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
  // Aborted by stop(): handler batches, tasks and sends see it and stop at their next step.
  const shutdown = new AbortController();
  const drains = drainer(deps, tasks, log, shutdown.signal);
  // The jobs this process holds now (id to queue), and the end of a shutdown's grace: when it comes,
  // the jobs still held have been given back to their queues and their callbacks return at once, so
  // pg-boss settles nothing for them (its settling only touches jobs still active).
  const held = new Map<string, string>();
  let cutOff: () => void = () => undefined;
  const cut = new Promise<void>((resolve) => (cutOff = resolve));
  const holding = async <T>(queue: string, jobs: ReadonlyArray<Job<unknown>>, work: () => Promise<T>, whenCut: () => T): Promise<T> => {
    for (const job of jobs) held.set(job.id, queue);
    try {
      return await Promise.race([work(), cut.then(whenCut)]);
    } finally {
      for (const job of jobs) held.delete(job.id);
    }
  };
  const giveBack = async (ids: readonly string[]): Promise<number> => {
    try {
      return await releaseRunningJobs(deps.db, BOSS_SCHEMA, ids);
    } catch (err) {
      log.error({ jobs: ids.length, err: (err as Error).message }, 'could not give jobs back to their queues; they are retried once their heartbeat lapses');
      return 0;
    }
  };
  const boss = await createBoss(deps.config, database, { schedule: true, ...options });
  boss.on('error', (err) => log.error({ err: err.message }, 'queue error'));
  await boss.start();
  await installQueues(boss, deps.config, handlers, tasks);

  for (const handler of handlers) {
    const queue = handlerQueue(handler.name);
    // A job given back is no longer active, so the 'failed' settled for it changes nothing; should
    // another worker have claimed it meanwhile, the failure costs that run one try, never the event.
    const givenBack = (jobs: ReadonlyArray<Job<HandlerJobData>>) => jobs.map((job): JobResult => ({ id: job.id, status: 'failed', output: { message: 'given back to the queue at shutdown' } }));
    await boss.work<HandlerJobData, JobResult[], HandlerWorkOptions>(queue, workOptions, (jobs) =>
      holding(
        queue,
        jobs,
        async () => {
          const { results, unstarted } = await runBatch(deps, handler, jobs, log, shutdown.signal);
          if (unstarted.length > 0) {
            await giveBack(unstarted);
            results.push(...givenBack(jobs.filter((job) => unstarted.includes(job.id))));
          }
          // What the batch planned (e-mails, webhooks) goes out now rather than at the next interval.
          drains.wake();
          return results;
        },
        () => givenBack(jobs),
      ),
    );
  }

  for (const task of tasks) {
    const name = taskQueue(task.name);
    // The schedule's job wakes the worker at once (notify, set in installQueues); the poll is only the backstop.
    await boss.work(name, { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: q.idlePollS }, (jobs) =>
      holding(name, jobs, () => task.run(deps, log, shutdown.signal), () => undefined),
    );
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

  let stopping: Promise<{ released: number }> | undefined;
  const budgetMs = deps.config.shutdownTimeoutS * 1000;
  return {
    boss,
    relayOnce,
    stop: (graceMs = budgetMs - shutdownReserveMs(budgetMs)) => {
      stopping ??= (async () => {
        shutdown.abort();
        clearInterval(timer);
        clearInterval(drainTimer);
        // pg-boss takes its workers off their queues first (no more fetching), then waits for the
        // callbacks running; the relay and the drains stop at their next step meanwhile.
        const bossStopped = boss.stop({ graceful: true, timeout: graceMs + BOSS_STOP_MARGIN_MS, close: true });
        const finished = Promise.all([running?.catch(() => undefined), drains.stop(), bossStopped]);
        let timer2: NodeJS.Timeout | undefined;
        const graceOver = new Promise<void>((resolve) => (timer2 = setTimeout(resolve, graceMs)));
        const inTime = await Promise.race([finished.then(() => true), graceOver.then(() => false)]);
        clearTimeout(timer2);
        if (inTime) return { released: 0 };
        const ids = [...held.keys()];
        const released = await giveBack(ids);
        log.info({ running: ids.length, released, grace_ms: graceMs }, 'shutdown: jobs still running at the end of the grace given back to their queues');
        cutOff();
        await bossStopped.catch((err: unknown) => log.error({ err: (err as Error).message }, 'queue stop failed'));
        return { released };
      })();
      return stopping;
    },
  };
}
