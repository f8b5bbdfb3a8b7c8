/**
 * `caretaker config check` (README "The `caretaker` command"): validates the environment and reaches every
 * service it names (PostgreSQL, Redis, SMTP), printing one line per finding. It never starts the
 * server and never writes to the database. Exit code 0 when nothing is wrong, 1 otherwise.
 */
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import { CONFIG_VARIABLES, displayValue } from '../../config/catalogue.ts';
import { ConfigError, loadConfig, type Config } from '../../config/config.ts';
import { preparedDatabase } from '../prepared-database.ts';
import { createDatabase } from '../../db/database.ts';
import { pendingMigrationCount } from '../../db/migrate.ts';
import { migrations } from '../../db/migrations/index.ts';
import { checkDataDir, checkDatabase, checkListenAddress, StartupError } from '../startup.ts';

type Env = Record<string, string | undefined>;
type Mark = 'ok' | 'warn' | 'FAIL' | 'info';

interface Finding {
  mark: Mark;
  subject: string;
  text: string;
}

const reason = (err: unknown) => (err instanceof StartupError ? err.message.replace(/^caretaker: cannot start: /, '') : (err as Error).message);

async function checkRedis(url: string): Promise<Finding> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return { mark: 'ok', subject: 'redis', text: `${displayValue('REDIS_URL', url)} answers PING` };
  } catch (err) {
    return {
      mark: 'FAIL',
      subject: 'redis',
      text: `REDIS_URL=${displayValue('REDIS_URL', url)} is unreachable (${(err as Error).message}). Fix: start Redis there, correct REDIS_URL, or unset it`,
    };
  } finally {
    redis.disconnect();
  }
}

async function checkSmtp(url: string): Promise<Finding> {
  const transport = nodemailer.createTransport(url, { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 } as never);
  try {
    await transport.verify();
    return { mark: 'ok', subject: 'smtp', text: `${displayValue('SMTP_URL', url)} accepted the connection${new URL(url).username ? ' and the login' : ''}` };
  } catch (err) {
    return {
      mark: 'FAIL',
      subject: 'smtp',
      text: `SMTP_URL=${displayValue('SMTP_URL', url)}: ${(err as Error).message}. Fix: correct host, port or credentials in SMTP_URL, or unset it to write .eml files`,
    };
  } finally {
    transport.close();
  }
}

/** True when a TCP connection to host:port is accepted within a second. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function checkDatabaseFindings(config: Readonly<Config>): Promise<Finding[]> {
  if (!config.databaseUrl) {
    const dir = path.join(config.dataDir, 'pglite');
    if (!existsSync(path.join(dir, 'PG_VERSION'))) {
      const copy = preparedDatabase() ? 'from the migrated copy prepared at install' : 'and migrates it; `npm run database:prepare` makes that fast';
      return [{ mark: 'info', subject: 'database', text: `embedded PGlite in ${dir}: not created yet (the first start creates it ${copy})` }];
    }
    const serving = await answers(config.host, config.port);
    return [{
      mark: 'info',
      subject: 'database',
      text: serving
        ? `embedded PGlite in ${dir}: not opened here (something listens on ${config.host}:${config.port}, probably the server holding it)`
        : `embedded PGlite in ${dir}: exists; not opened here (nothing listens on ${config.host}:${config.port}, so no server of this configuration holds it)`,
    }];
  }
  try {
    await checkDatabase(config.databaseUrl);
  } catch (err) {
    return [{ mark: 'FAIL', subject: 'database', text: reason(err) }];
  }
  const handle = createDatabase({ databaseUrl: config.databaseUrl, poolMax: 1, pooler: config.databasePooler });
  try {
    const pending = await pendingMigrationCount(handle.db);
    const total = Object.keys(migrations).length;
    const where = displayValue('DATABASE_URL', config.databaseUrl);
    return [
      { mark: 'ok', subject: 'database', text: `PostgreSQL at ${where} answers` },
      pending === 0
        ? { mark: 'ok', subject: 'migrations', text: `all ${total} applied` }
        : { mark: 'info', subject: 'migrations', text: `${pending} of ${total} pending (serve or \`caretaker migrate\` applies them)` },
    ];
  } finally {
    await handle.close();
  }
}

/**
 * Runs every check.
 * @param env the environment to check (process.env)
 * @param out receives each printed line
 * @returns the exit code: 0 all good, 1 a problem was found
 */
export async function configCheck(env: Env, out: (line: string) => void): Promise<number> {
  const findings: Finding[] = [];
  const print = (f: Finding) => {
    findings.push(f);
    out(`${f.mark.padEnd(4)}  ${f.subject.padEnd(13)} ${f.text}`);
  };
  const known = new Set(CONFIG_VARIABLES.map((x) => x.name));
  const set = CONFIG_VARIABLES.filter((x) => env[x.name] !== undefined && env[x.name]!.trim() !== '');
  out(`Caretaker configuration: ${set.length} of ${known.size} variables set (.env.example lists them all)`);
  for (const x of set) out(`      ${x.name}=${displayValue(x.name, env[x.name]!.trim())}`);
  for (const name of Object.keys(env).filter((n) => n.startsWith('CARETAKER_') && !known.has(n))) {
    print({ mark: 'warn', subject: 'environment', text: `${name} is not a Caretaker variable (a typo?); it is ignored` });
  }
  let config: Readonly<Config>;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    print({ mark: 'FAIL', subject: 'environment', text: err.message });
    out('1 problem found.');
    return 1;
  }
  print({ mark: 'ok', subject: 'environment', text: 'every variable parses' });
  try {
    await checkListenAddress(config);
    print({ mark: 'ok', subject: 'address', text: `${config.host}:${config.port} can be bound` });
  } catch (err) {
    // A running instance holds its own port; that is worth saying, not a broken configuration.
    const inUse = err instanceof StartupError && err.variable === 'PORT' && /EADDRINUSE/.test(err.message);
    print({ mark: inUse ? 'warn' : 'FAIL', subject: 'address', text: inUse ? `${reason(err)} (fine if it is this instance)` : reason(err) });
  }
  if (!config.databaseUrl || config.storage.driver === 'local' || !config.mail.smtpUrl) {
    try {
      checkDataDir(config, env.CARETAKER_DATA_DIR);
      print({ mark: 'ok', subject: 'data folder', text: `${config.dataDir} is writable` });
    } catch (err) {
      print({ mark: 'FAIL', subject: 'data folder', text: reason(err) });
    }
  }
  for (const f of await checkDatabaseFindings(config)) print(f);
  print(config.redisUrl ? await checkRedis(config.redisUrl) : { mark: 'info', subject: 'redis', text: 'not configured: rate limits in process memory (one instance only)' });
  print(config.mail.smtpUrl ? await checkSmtp(config.mail.smtpUrl) : { mark: 'info', subject: 'smtp', text: `not configured: mail written as .eml files to ${config.dataDir}/mail` });
  print({
    mark: 'info',
    subject: 'storage',
    text: config.storage.driver === 's3' ? `S3 bucket ${config.storage.s3.bucket} (not contacted here)` : `local files in ${config.dataDir}/files`,
  });
  print({ mark: 'info', subject: 'links', text: `e-mail links start with ${config.mail.publicUrl}` });
  const failed = findings.filter((f) => f.mark === 'FAIL').length;
  out(failed === 0 ? 'No problems found.' : `${failed} problem${failed === 1 ? '' : 's'} found.`);
  return failed === 0 ? 0 : 1;
}
