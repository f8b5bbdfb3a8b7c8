/**
 * Process entry for `caretaker worker` (docs/events.md): opens the runtime (migrating the database)
 * and runs only the background work: the outbox relay, event handlers and periodic tasks, no HTTP.
 * SIGTERM/SIGINT stop taking work at once and give running jobs the shutdown timeout less a reserve
 * to finish; a job still running then is given back to its queue (src/events/worker.ts stop()).
 */
import closeWithGrace from 'close-with-grace';
import { backgroundHandlers, periodicTasks } from './background.ts';
import type { Config } from '../config/config.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../events/worker.ts';
import { jsonLineLogger } from '../modules/messaging/mail/index.ts';
import { openRuntime } from './runtime.ts';
import { shutdownTracing } from '../lib/tracing.ts';

/**
 * Starts the worker process and installs the signal handlers.
 * @returns the running worker and a close function (stops the worker, then the runtime)
 */
export async function startWorkerProcess(config: Readonly<Config>): Promise<{ worker: BackgroundWorker; close: () => Promise<void> }> {
  const log = jsonLineLogger(config.logLevel);
  const runtime = await openRuntime(config);
  const worker = await startBackgroundWorker(runtime.deps, runtime.database, backgroundHandlers(), periodicTasks(), log);
  log.info({ engine: runtime.deps.engine, node: process.version, pid: process.pid }, 'Caretaker worker is running');
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await worker.stop();
      await runtime.close();
      await shutdownTracing();
    })();
    return closing;
  };
  closeWithGrace({ delay: config.shutdownTimeoutS * 1000 + 2_000 }, async ({ signal, err }) => {
    if (err) log.error({ err: err.message }, 'fatal error, shutting down');
    else log.info({ signal }, 'shutting down: finishing jobs in flight');
    await close();
  });
  return { worker, close };
}
