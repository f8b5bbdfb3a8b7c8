/**
 * Process entry for `caretaker serve`: configuration, runtime, first-run account, optional demo
 * data, listen, and graceful shutdown on SIGTERM/SIGINT (close-with-grace): new requests get 503,
 * requests in flight finish, the process exits within CARETAKER_SHUTDOWN_TIMEOUT_S.
 */
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import type { Lifecycle } from './http/pipeline.ts';
import { backgroundHandlers, periodicTasks } from './background.ts';
import { startBackgroundWorker, type BackgroundWorker } from './events/worker.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { ensureSysOpsAccount } from './seed/first-run.ts';
import { loadDemoIfEmpty } from './seed/demo/index.ts';

/**
 * First-start work that must run once per database, before any request: the demo data (when
 * CARETAKER_DEMO is on) and the first SysOps account. The cluster primary runs it before forking.
 * @param runtime an opened (migrated) runtime
 * @param log info logger
 */
export async function prepareDatabase(
  runtime: Runtime,
  config: Readonly<Config>,
  log: (obj: Record<string, unknown>, msg: string) => void,
): Promise<void> {
  if (config.demo.enabled) {
    const demo = await loadDemoIfEmpty(runtime.deps.db, config, runtime.deps.clock.now(), (m) => log({}, m));
    if (demo.loaded) log({ accounts: demo.accounts }, 'demo data loaded');
  }
  const first = await ensureSysOpsAccount(runtime.deps.db, config, runtime.deps.clock.now());
  if (first.created) {
    if (first.generatedPassword) {
      // Printed once, to the console only (not the JSON log): the operator must store it now.
      process.stdout.write(
        `\nCaretaker first run: SysOps account ${first.email} created with password ${first.generatedPassword}\n` +
          'Store it now; it is not shown again. Set CARETAKER_ADMIN_EMAIL and CARETAKER_ADMIN_PASSWORD to choose them.\n\n',
      );
    } else {
      log({ email: first.email }, 'SysOps account created');
    }
  }
}

export interface StartOptions {
  /** Run prepareDatabase (default true; false in cluster workers, whose primary did it). */
  prepare?: boolean;
  /** A cluster worker: a second signal is ignored (the primary enforces the timeout). */
  worker?: boolean;
  /** Run the background worker (queue, relay, periodic tasks) in this process too (default true). */
  background?: boolean;
}

/**
 * Starts the HTTP server.
 * @returns the address it listens on
 */
export async function startServer(
  config: Readonly<Config>,
  options: StartOptions = {},
): Promise<{ address: string; close: () => Promise<void> }> {
  const runtime = await openRuntime(config);
  const lifecycle: Lifecycle = { draining: false };
  const app = await buildApp(runtime.deps, { lifecycle });
  const log = app.log;
  if (options.prepare !== false) await prepareDatabase(runtime, config, (obj, msg) => log.info(obj, msg));

  const address = await app.listen({ port: config.port, host: config.host });
  log.info(
    { address, engine: runtime.deps.engine, node: process.version, redis: Boolean(runtime.deps.redis), worker: options.background !== false },
    'Caretaker is serving',
  );
  // After listen, and without holding up start-up or shutdown: the API answers while the worker
  // installs or checks the queue schema; a worker that cannot start (database briefly gone) is
  // logged and tried again, and never takes the API down with it (docs/events.md).
  let background: BackgroundWorker | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const startWorker = async (): Promise<void> => {
    try {
      const started = await startBackgroundWorker(runtime.deps, runtime.database, backgroundHandlers(), periodicTasks(), {
        info: (obj, msg) => log.info(obj, msg),
        error: (obj, msg) => log.error(obj, msg),
      });
      if (stopped) await started.stop();
      else background = started;
    } catch (err) {
      log.error({ err: (err as Error).message }, 'background worker did not start; trying again in 5 s');
      if (!stopped) retry = setTimeout(() => void startWorker(), 5_000);
    }
  };
  const workerStarting = options.background === false ? Promise.resolve() : startWorker();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.draining = true;
      // Connections that turn idle during the drain are closed at once, not after keepAliveTimeout.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 200);
      stopped = true;
      clearTimeout(retry);
      try {
        await Promise.all([app.close(), workerStarting.then(() => background?.stop())]);
      } finally {
        clearInterval(sweep);
      }
      await runtime.close();
    })();
    return closing;
  };
  const onSecondSignal = options.worker ? (signal: string) => log.warn({ signal }, 'already shutting down') : undefined;
  closeWithGrace({ delay: config.shutdownTimeoutS * 1000, ...(onSecondSignal ? { onSecondSignal } : {}) }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'fatal error, shutting down');
    else log.info({ signal }, 'shutting down: finishing requests in flight');
    await close();
  });
  return { address, close };
}
