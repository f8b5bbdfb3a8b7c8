/**
 * Process entry for `caretaker serve`: configuration, runtime, first-run account, optional demo
 * data, listen, and graceful shutdown on SIGTERM/SIGINT (close-with-grace): new requests get 503,
 * requests in flight finish, the process exits within CARETAKER_SHUTDOWN_TIMEOUT_S.
 */
import { flushCompileCache } from 'node:module';
import type { Server } from 'node:http';
import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';
import { buildApp, REDACT } from './app.ts';
import { displayValue } from '../config/catalogue.ts';
import type { Config } from '../config/config.ts';
import type { Lifecycle } from '../http/pipeline.ts';
import { backgroundHandlers, periodicTasks } from './background.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../events/worker.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { ensureSysOpsAccount } from '../seed/first-run.ts';
import { createLogger } from './startup.ts';
import { shutdownTracing } from '../lib/tracing.ts';
import { answersWithin } from '../lib/concurrency.ts';

/**
 * The loud warning of a configured but unreachable Redis: one line on stderr and a warn log line.
 * Logins then answer 503 and readiness fails until Redis answers (docs/operations.md).
 * @returns true when it warned
 */
export function warnIfRedisDown(runtime: Runtime, log: Pick<Logger, 'warn'>): boolean {
  const { redis, config } = runtime.deps;
  if (!redis || redis.status === 'ready') return false;
  const line =
    `WARNING: REDIS_URL=${displayValue('REDIS_URL', config.redisUrl)} is unreachable: logins answer 503 and readiness fails until it ` +
    'answers. Fix: start Redis there, correct REDIS_URL, or unset it (a single instance then keeps its counters in memory)';
  process.stderr.write(`${line}\n`);
  log.warn({ redis: 'down' }, line);
  return true;
}

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
    // The demo (and faker) is loaded only when asked for: not on the start-up path otherwise.
    const { loadDemoIfEmpty } = await import('../seed/demo/index.ts');
    let started = false;
    const demo = await loadDemoIfEmpty(runtime.deps.db, config, runtime.deps.clock.now(), (m) => {
      if (!started) log({}, 'loading the demo data (CARETAKER_DEMO=true, empty database)');
      started = true;
      log({}, m);
    });
    // The demo password is for the demo's sample accounts only (CARETAKER_DEMO_PASSWORD), so it is shown.
    if (demo.loaded) log({ accounts: demo.accounts, password: config.demo.password }, `demo data loaded: sign in as any of the accounts with the password ${config.demo.password}`);
    else log({}, 'demo skipped: the database already holds data (CARETAKER_DEMO loads only into an empty database)');
  }
  const first = await ensureSysOpsAccount(runtime.deps.db, config, runtime.deps.clock.now(), (m) => log({}, m));
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

/**
 * Longest drain after a fatal (uncaught) error, in milliseconds, when CARETAKER_SHUTDOWN_TIMEOUT_S
 * is longer: requests in flight get this long, then the process exits with code 1
 * (docs/operations.md "Shutdown and health").
 */
export const FATAL_DRAIN_MS = 3_000;

/**
 * Milliseconds of the shutdown budget left for the process to leave after the database has closed
 * (the last log lines, the exit itself).
 */
const EXIT_MARGIN_MS = 250;

/**
 * The share of the shutdown budget a drain waits for a background worker that is still starting
 * (installing or checking the queue's schema, slow on a loaded machine): past it the drain goes on
 * without the worker, which then stops itself when its start ends (`stopped`), so a signal that
 * arrives during the start cannot keep the process past its budget (close-with-grace would then
 * exit with code 1).
 */
const WORKER_START_SHARE = 0.5;

/**
 * Longest wait, in milliseconds after listening, before the background worker starts when no
 * request has been answered yet (it starts at the first answer otherwise).
 */
export const WORKER_START_DELAY_MS = 2_000;

/**
 * Waits for the first answer of `server`: resolves once its first request's response has closed,
 * after `ms` milliseconds if no request comes, or at `release()` (shutdown), whichever is first.
 */
function firstAnswer(server: Server, ms: number): { reached: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (release = resolve));
  const timer = setTimeout(release, ms);
  server.once('request', (_request, response) => response.once('close', release));
  return {
    reached: reached.finally(() => clearTimeout(timer)),
    release,
  };
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
  // Milliseconds since the process started at each step, logged with "Caretaker is serving"
  // (docs/operations.md "Starting"; bench/start.ts reads them).
  const startup: Record<string, number> = { modules: Math.round(performance.now()) };
  const logger = createLogger(config, REDACT);
  const runtime = await openRuntime(config, { progress: (m) => logger.info(m) });
  startup.database = Math.round(performance.now());
  warnIfRedisDown(runtime, logger);
  const lifecycle: Lifecycle = { draining: false };
  const app = await buildApp(runtime.deps, { lifecycle, loggerInstance: logger });
  const log = app.log;
  startup.app = Math.round(performance.now());
  if (options.prepare !== false) await prepareDatabase(runtime, config, (obj, msg) => log.info(obj, msg));
  startup.first_run = Math.round(performance.now());

  const address = await app.listen({ port: config.port, host: config.host });
  startup.listening = Math.round(performance.now());
  log.info(
    { address, engine: runtime.deps.engine, node: process.version, redis: Boolean(runtime.deps.redis), worker: options.background !== false, startup_ms: startup },
    'Caretaker is serving',
  );
  log.info(`open ${address}/ for the console, ${address}/docs for the API`);
  // Node writes its compile cache (bin/caretaker.js) only at a clean exit, which a server killed by
  // its supervisor may never reach; written now, the next start loads every module already compiled
  // and stripped of its types (docs/operations.md "Starting").
  flushCompileCache?.();
  // The OpenAPI documents (4.5 MB of JSON, compressed twice) are built when /docs or
  // /api/openapi.json is first asked for (src/http/openapi.ts), not here: building them right after
  // listen held the first readiness answer back by as long (docs/operations.md "Starting").
  // Replies by e-mail (docs/conversations.md): the SMTP listener, when a port is configured.
  const inboundSmtp =
    config.inboundMail.smtpPort === undefined
      ? undefined
      : await (await import('../modules/jobs/conversations/index.ts')).startInboundSmtp(runtime.deps, { info: (obj, msg) => log.info(obj, msg), warn: (obj, msg) => log.warn(obj, msg) });
  if (inboundSmtp) log.info({ port: inboundSmtp.port, domain: config.inboundMail.domain ?? null }, 'inbound SMTP listener started');
  // After listen, and without holding up start-up or shutdown: the API answers while the worker
  // installs or checks the queue schema; a worker that cannot start (database briefly gone) is
  // logged and tried again, and never takes the API down with it (docs/events.md).
  let background: BackgroundWorker | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  // The worker starts once the first request has been answered, or WORKER_START_DELAY_MS after
  // listening if none comes: its first statements (the queue's check, the schedules) would
  // otherwise go ahead of that answer, on the embedded database on its one connection
  // (docs/operations.md "Starting").
  const answered = options.background === false ? undefined : firstAnswer(app.server, WORKER_START_DELAY_MS);
  const startWorker = async (): Promise<void> => {
    if (stopped) return;
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
  const workerStarting = answered ? answered.reached.then(startWorker) : Promise.resolve();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.draining = true;
      // Connections that turn idle during the drain are closed at once, not after keepAliveTimeout.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 200);
      stopped = true;
      clearTimeout(retry);
      answered?.release();
      // Milliseconds since the drain began at which each part finished, logged with "Caretaker
      // stopped" (docs/operations.md "Shutdown and health").
      const began = performance.now();
      const shutdown: Record<string, number> = {};
      const timed = async (name: string, part: Promise<unknown> | undefined): Promise<void> => {
        await part;
        shutdown[name] = Math.round(performance.now() - began);
      };
      try {
        const worker = async () => {
          if (!(await answersWithin(workerStarting, config.shutdownTimeoutS * 1000 * WORKER_START_SHARE))) {
            log.warn('the background worker was still starting: shutting down without waiting for it');
            return;
          }
          await background?.stop();
        };
        await Promise.all([timed('requests', app.close()), timed('worker', worker()), inboundSmtp?.close()]);
      } finally {
        clearInterval(sweep);
      }
      // The database closes within what is left of the budget: a connection still held by work cut
      // off at the end of the worker's grace would otherwise keep the process past its limit.
      const left = config.shutdownTimeoutS * 1000 - EXIT_MARGIN_MS - (performance.now() - began);
      let closeTimer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        timed('database', runtime.close()).then(() => true),
        new Promise<boolean>((resolve) => (closeTimer = setTimeout(() => resolve(false), Math.max(0, left)))),
      ]);
      clearTimeout(closeTimer);
      if (!closed) log.warn({ waited_ms: Math.round(left) }, 'the database did not close in time: leaving without waiting for it');
      // The spans of the last requests leave before the process exits (nothing when tracing is off).
      await shutdownTracing();
      log.info({ shutdown_ms: shutdown }, 'Caretaker stopped');
    })();
    return closing;
  };
  const onSecondSignal = options.worker ? (signal: string) => log.warn({ signal }, 'already shutting down') : undefined;
  closeWithGrace({ delay: config.shutdownTimeoutS * 1000, ...(onSecondSignal ? { onSecondSignal } : {}) }, async ({ signal, err }) => {
    if (err) {
      log.error({ err }, 'fatal error, shutting down');
      // After an uncaught error the process's state is suspect: a request whose callback was lost
      // with it never finishes, so the drain gets at most FATAL_DRAIN_MS, then the process exits 1.
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(FATAL_DRAIN_MS, config.shutdownTimeoutS * 1000))));
      await Promise.race([close().catch(() => undefined), limit]);
      clearTimeout(timer);
      return;
    }
    log.info({ signal }, 'shutting down: finishing requests in flight');
    await close();
  });
  return { address, close };
}
