/**
 * Start-up checks run before any database work (README "Start-up messages", docs/operations.md):
 * the address can be bound (PORT, HOST), the data folder is writable (CARETAKER_DATA_DIR), and
 * PostgreSQL answers (DATABASE_URL). Each failure is a StartupError whose message is ONE line
 * naming the variable, its value (secrets masked) and the fix; `caretaker` prints it and exits 1.
 * Also the human-readable logger for terminals.
 */
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { maskedRequest } from '../http/log-masking.ts';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { probePostgres } from '../db/database.ts';
import { pino, type DestinationStream, type Logger } from 'pino';
import { traceLogMixin } from '../lib/tracing.ts';
import type PinoPretty from 'pino-pretty';
import { displayValue } from '../config/catalogue.ts';
import type { Config } from '../config/config.ts';

/** A start-up failure; `message` is the one line printed. */
export class StartupError extends Error {
  readonly variable: string;

  /**
   * @param variable the environment variable at fault
   * @param value its value as set (masked here when secret)
   * @param problem what went wrong
   * @param fix what to do about it
   */
  constructor(variable: string, value: string | undefined, problem: string, fix: string) {
    super(`caretaker: cannot start: ${variable}=${displayValue(variable, value)}: ${problem}. Fix: ${fix}`);
    this.name = 'StartupError';
    this.variable = variable;
  }
}

const codeOf = (err: unknown): string => String((err as { code?: unknown }).code ?? (err as Error).message);

/**
 * Binds HOST:PORT and releases it at once, so a taken port or a bad host is reported before the
 * database is opened (which takes seconds to minutes on a first start).
 * @throws StartupError naming PORT or HOST
 */
export async function checkListenAddress(config: Readonly<Config>): Promise<void> {
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: config.port, host: config.host, exclusive: true }, resolve);
    });
  } catch (err) {
    const code = codeOf(err);
    const port = String(config.port);
    if (code === 'EADDRINUSE') {
      throw new StartupError('PORT', port, `port ${port} on ${config.host} is already in use (EADDRINUSE)`, 'stop the process using it (another caretaker?) or set PORT to a free port');
    }
    if (code === 'EACCES') {
      throw new StartupError('PORT', port, `not allowed to listen on port ${port} (EACCES)`, 'use a port above 1023, or grant the capability to bind low ports');
    }
    throw new StartupError(
      'HOST',
      config.host,
      `cannot listen on this address (${code})`,
      'set HOST to 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or an IP address of one of its interfaces',
    );
  } finally {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  }
}

/** mkdir -p without `recursive: true`, which spins forever under /proc (Node's recursive mkdir retries ENOENT). */
function makeDirs(dir: string): void {
  try {
    if (statSync(dir).isDirectory()) return;
    throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (err) {
    if (codeOf(err) !== 'ENOENT') throw err;
  }
  const parent = path.dirname(dir);
  if (parent !== dir) makeDirs(parent);
  mkdirSync(dir);
}

/**
 * Creates the data folder when missing and proves it writable with a probe file.
 * @param env the raw CARETAKER_DATA_DIR, for the message
 * @throws StartupError naming CARETAKER_DATA_DIR
 */
export function checkDataDir(config: Readonly<Config>, env: string | undefined): void {
  const probe = path.join(config.dataDir, `.caretaker-write-test-${process.pid}`);
  try {
    makeDirs(config.dataDir);
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    throw new StartupError(
      'CARETAKER_DATA_DIR',
      env ?? './data',
      `the data folder ${config.dataDir} cannot be created or written (${codeOf(err)})`,
      'point CARETAKER_DATA_DIR to a writable folder on a real file system (it holds the embedded database, files and mail)',
    );
  }
}

/**
 * Opens one connection to PostgreSQL and runs `select 1`.
 * @throws StartupError naming DATABASE_URL, with a fix for the reason found
 */
export async function checkDatabase(databaseUrl: string): Promise<void> {
  try {
    await probePostgres(databaseUrl);
  } catch (err) {
    const code = codeOf(err);
    const fixes: Record<string, string> = {
      '28P01': 'correct the user name or password in DATABASE_URL',
      '28000': 'allow this user and address in pg_hba.conf, or correct DATABASE_URL',
      '3D000': 'create the database (createdb) or correct its name in DATABASE_URL',
    };
    const fix =
      fixes[code] ??
      'start PostgreSQL at that host and port, or correct DATABASE_URL (unset it to use the embedded database in CARETAKER_DATA_DIR)';
    const reason = code in fixes ? (err as Error).message : `unreachable (${code})`;
    throw new StartupError('DATABASE_URL', databaseUrl, reason, fix);
  }
}

/**
 * Every check `serve` and `worker` run before opening the database, in order: address (serve
 * only), data folder (when something lives there), PostgreSQL (when configured).
 * @param env the raw environment, for the messages
 * @throws StartupError for the first failure
 */
export async function preflight(config: Readonly<Config>, env: Record<string, string | undefined>, options: { listen: boolean }): Promise<void> {
  if (options.listen) await checkListenAddress(config);
  if (!config.databaseUrl || config.storage.driver === 'local' || !config.mail.smtpUrl) checkDataDir(config, env.CARETAKER_DATA_DIR);
  if (config.databaseUrl) await checkDatabase(config.databaseUrl);
}

/**
 * The process logger: human-readable (pino-pretty) when stdout is a terminal, JSON lines otherwise.
 * pino-pretty is loaded only for a terminal (its CommonJS build, so this stays synchronous).
 * @param redact pino redaction paths
 * @param destination where the JSON lines go instead of stdout (tests)
 */
export function createLogger(config: Pick<Config, 'logLevel'>, redact: string[], destination?: DestinationStream): Logger {
  // While tracing is on, each line written inside a span carries its trace_id and span_id.
  // The request line with its credentials masked (src/http/log-masking.ts).
  const options = { level: config.logLevel, redact: { paths: redact, censor: '[redacted]' }, serializers: { req: maskedRequest }, ...traceLogMixin() };
  if (destination) return pino(options, destination);
  if (!process.stdout.isTTY) return pino(options);
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pino({ ...options, hooks: { logMethod: compactRequestLines() } }, pretty({ colorize: true, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId' }));
}

/**
 * For a terminal: one line per request ("GET /api/jobs 200 12 ms") instead of Fastify's
 * "incoming request" and "request completed" entries with their request and reply objects. The
 * first is held back (by request id) and folded into the second.
 */
function compactRequestLines() {
  const started = new Map<string, string>();
  return function logMethod(this: Logger, args: Parameters<Logger['info']>, method: (...a: unknown[]) => void): void {
    const [obj, msg] = args as unknown as [Record<string, { method?: string; url?: string; statusCode?: number } | number | undefined> | undefined, string | undefined];
    const id = String(this.bindings().reqId ?? '');
    if (msg === 'incoming request' && obj && typeof obj.req === 'object') {
      if (started.size > 10_000) started.clear();
      started.set(id, `${obj.req.method} ${obj.req.url}`);
      return;
    }
    if (msg === 'request completed' && obj && typeof obj.res === 'object') {
      const line = started.get(id) ?? 'request';
      started.delete(id);
      method.call(this, `${line} ${obj.res.statusCode} ${Math.round(Number(obj.responseTime ?? 0))} ms`);
      return;
    }
    method.apply(this, args as unknown[]);
  };
}
