/**
 * The `caretaker` command (README "The `caretaker` command"), parsed by commander: `serve` (default),
 * `worker`, `migrate`, `demo`, `backup`, `restore`, `verify-backup`, `dead-letters list|retry|purge`, `config check`, `doctor`, `mcp`, `push vapid-keys`, `storage migrate`,
 * `history status|maintain|archives|restore`,
 * `help [command]`, and `--help` on every command and `--version`. Help and version never open
 * the database or start the server. Configuration comes from the environment (.env.example).
 *
 * Exit codes: 0 done; 1 a start-up failure (one line naming the variable, its value and the fix)
 * or a check that found a problem; 2 a usage error or an invalid variable.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/error.ts';

// Each action imports what it needs when it runs, so --help and --version answer at once
// instead of loading the whole application first. That includes the configuration: config.ts
// reads the push and webhook settings through their modules, which load TypeBox and Kysely.
const startup = () => import('./startup.ts');
const loadConfig = async () => (await import('../config/config.ts')).loadConfig();

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Thrown by actions to end with a code after printing their own message. */
class Exit extends Error {
  readonly code: number;

  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** The configuration, or exit 2 with the ConfigError's one line. */
async function config(): Promise<Readonly<Config>> {
  try {
    return await loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      err(`caretaker: ${e.message}`);
      throw new Exit(2);
    }
    throw e;
  }
}

/** The configuration, or undefined when the environment does not parse (the commands that only call a running instance). */
async function configIfValid(): Promise<Readonly<Config> | undefined> {
  try {
    return await loadConfig();
  } catch {
    return undefined;
  }
}

/** Builds the program; `state.code` is the exit code once an action finished (undefined: keep running). */
function program(state: { code: number | undefined }): Command {
  const cli = new Command('caretaker')
    .description('Caretaker: property maintenance and job management REST API for letting agencies')
    .version(VERSION, '-V, --version', 'print the version and exit')
    .helpCommand('help [command]', 'show the help of a command')
    .showHelpAfterError('(caretaker --help lists the commands)')
    .exitOverride()
    .addHelpText('after', '\nConfiguration is read from environment variables: .env.example lists every one with its default.\nREADME.md "The `caretaker` command" describes each command.');

  cli
    .command('serve')
    .description('start the HTTP API and the background worker (default); migrates the database first')
    .addOption(new Option('--workers <n>', 'run N processes sharing the port (1 to 64; above 1 needs DATABASE_URL)'))
    .option('--no-worker', 'serve HTTP only (run `caretaker worker` elsewhere)')
    .action(async (opts: { workers?: string; worker: boolean }) => {
      const c = await config();
      const { parseWorkers, serveCluster, WORKERS_NEED_POSTGRES } = await import('./cluster.ts');
      const { preflight } = await startup();
      let workers: number;
      try {
        workers = parseWorkers(opts.workers === undefined ? [] : ['--workers', opts.workers]);
      } catch (e) {
        err(`caretaker: ${(e as Error).message}`);
        throw new Exit(2);
      }
      if (workers > 1 && !c.databaseUrl) {
        err(`caretaker: ${WORKERS_NEED_POSTGRES}`);
        throw new Exit(2);
      }
      if (workers > 1 || cluster.isWorker) {
        if (cluster.isPrimary) await preflight(c, process.env, { listen: true });
        await serveCluster(c, workers, opts.worker);
      } else {
        await preflight(c, process.env, { listen: true });
        const { startServer } = await import('./server.ts');
        await startServer(c, { background: opts.worker });
      }
    });

  cli
    .command('worker')
    .description('run only the background work: outbox relay, event handlers, periodic tasks (no HTTP)')
    .action(async () => {
      const c = await config();
      await (await startup()).preflight(c, process.env, { listen: false });
      const { startWorkerProcess } = await import('./worker-process.ts');
      await startWorkerProcess(c);
    });

  cli
    .command('migrate')
    .description('apply pending database migrations and exit')
    .option('--plan', 'print the pending migrations, each expand or contract, and unfinished backfills; change nothing')
    .action(async (opts: { plan?: boolean }) => {
      const c = await config();
      await (await startup()).preflight(c, process.env, { listen: false });
      if (opts.plan) {
        const { migratePlan } = await import('./cli/migrate-plan.ts');
        state.code = await migratePlan(c, out);
        return;
      }
      const { openRuntime } = await import('./runtime.ts');
      const runtime = await openRuntime(c, { progress: out });
      out(`Database (${runtime.deps.engine}) is at the latest migration.`);
      await runtime.close();
      state.code = 0;
    });

  cli
    .command('demo')
    .description('load the demo data set into an empty database and exit')
    .action(async () => {
      const c = await config();
      await (await startup()).preflight(c, process.env, { listen: false });
      const { openRuntime } = await import('./runtime.ts');
      const { loadDemoIfEmpty } = await import('../seed/demo/index.ts');
      const runtime = await openRuntime(c, { progress: out });
      const result = await loadDemoIfEmpty(runtime.deps.db, c, runtime.deps.clock.now(), out);
      out(result.loaded ? 'Demo data loaded.' : 'Demo skipped: the database already holds data; nothing loaded.');
      await runtime.close();
      state.code = 0;
    });

  cli
    .command('backup')
    .description('back up the embedded database and its files into a new folder, while the server runs (docs/operations.md "Backups")')
    .requiredOption('--out <dir>', 'the backup folder to create (must be new or empty)')
    .option('--url <url>', 'base URL of the running server (default: CARETAKER_PUBLIC_URL, else http://127.0.0.1:3000)')
    .option('--stopped', 'the server is stopped: read the data folder directly')
    .addHelpText('after', '\nThe running server hands out a consistent copy to a SysOps bearer token in CARETAKER_TOKEN.\nOn PostgreSQL use pg_dump, then `caretaker verify-backup --dump FILE`.')
    .action(async (opts: { out: string; url?: string; stopped?: boolean }) => {
      const c = await config();
      const { doctorDefaultUrl } = await import('./cli/doctor.ts');
      const { backupCommand } = await import('../modules/platform/backups/index.ts');
      const token = process.env.CARETAKER_TOKEN?.trim() || undefined;
      state.code = await backupCommand(c, { out: opts.out, url: opts.url ?? doctorDefaultUrl(c), token, stopped: Boolean(opts.stopped) }, out, err);
    });

  cli
    .command('restore')
    .description('restore a `caretaker backup` folder in place of the embedded database and files (server stopped; the old ones are moved aside)')
    .requiredOption('--from <dir>', 'the backup folder')
    .option('--url <url>', 'where the server would answer: the restore refuses while it does (default as for backup)')
    .action(async (opts: { from: string; url?: string }) => {
      const c = await config();
      const { doctorDefaultUrl } = await import('./cli/doctor.ts');
      const { restoreCommand } = await import('../modules/platform/backups/index.ts');
      state.code = await restoreCommand(c, { from: opts.from, url: opts.url ?? doctorDefaultUrl(c) }, out, err);
    });

  cli
    .command('verify-backup')
    .description('prove a backup restores: a pg_dump file into a scratch PostgreSQL database, or a `caretaker backup` folder; row counts and file hashes checked')
    .option('--dump <file>', 'a pg_dump --format=custom file (needs DATABASE_URL; the scratch database is made and dropped on that server)')
    .option('--from <dir>', 'a caretaker backup folder')
    .action(async (opts: { dump?: string; from?: string }) => {
      const c = await config();
      const { verifyBackupCommand } = await import('../modules/platform/backups/index.ts');
      state.code = await verifyBackupCommand(c, opts, out, err);
    });

  const deadLetters = cli
    .command('dead-letters')
    .description('the dead-letter queue of the running server: list, retry or purge the background jobs that failed for good (docs/operations.md "Dead-letter queue")')
    .addHelpText('after', '\nTalks to the running server with a SysOps bearer token in CARETAKER_TOKEN.');
  const target = async (url: string | undefined) => {
    const c = await config();
    const { doctorDefaultUrl } = await import('./cli/doctor.ts');
    return { url: url ?? doctorDefaultUrl(c), token: process.env.CARETAKER_TOKEN?.trim() || undefined };
  };
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  deadLetters
    .command('list')
    .description('one line per dead letter, oldest first: id, when it failed, its queue, tries, event and last error')
    .option('--queue <queue>', 'only those that failed in this queue, e.g. handler.webhooks.fanout')
    .option('--url <url>', 'base URL of the running server (default: CARETAKER_PUBLIC_URL, else http://127.0.0.1:3000)')
    .action(async (opts: { queue?: string; url?: string }) => {
      const { listDeadLettersCommand } = await import('./cli/dead-letters.ts');
      state.code = await listDeadLettersCommand({ ...(await target(opts.url)), queue: opts.queue }, out, err);
    });
  for (const action of ['retry', 'purge'] as const) {
    deadLetters
      .command(action)
      .description(action === 'retry' ? 'put dead letters back on the queues they failed in, to run again' : 'delete dead letters for good')
      .option('--id <id>', 'a dead letter id from `list` (repeatable)', collect)
      .option('--queue <queue>', 'those that failed in this queue')
      .option('--all', 'every dead letter')
      .option('--url <url>', 'base URL of the running server (default: CARETAKER_PUBLIC_URL, else http://127.0.0.1:3000)')
      .action(async (opts: { id?: string[]; queue?: string; all?: boolean; url?: string }) => {
        const { changeDeadLettersCommand } = await import('./cli/dead-letters.ts');
        state.code = await changeDeadLettersCommand(action, { ...(await target(opts.url)), ids: opts.id, queue: opts.queue, all: opts.all }, out, err);
      });
  }

  const configCmd = cli.command('config').description('configuration commands');
  configCmd
    .command('check')
    .description('validate the environment and reach the database, Redis and SMTP when configured; exit 1 on a problem')
    .action(async () => {
      const { configCheck } = await import('./cli/config-check.ts');
      state.code = await configCheck(process.env, out);
    });

  cli
    .command('doctor')
    .description("ask a running instance over HTTP: liveness, readiness, status and the queue (SysOps token in CARETAKER_TOKEN)")
    .option('--url <url>', 'base URL of the instance (default: CARETAKER_PUBLIC_URL, else http://HOST:PORT)')
    .addHelpText(
      'after',
      '\nThe status details and the queue need authentication: set CARETAKER_TOKEN to the bearer token of a SysOps\n' +
        'account (POST /api/auth/login). It is read from the environment so it stays out of shell history.\n' +
        'Exit code 0 when ready and status ok, 1 otherwise.',
    )
    .action(async (opts: { url?: string }) => {
      const c = await configIfValid();
      const token = process.env.CARETAKER_TOKEN?.trim() || undefined;
      const { doctor, doctorDefaultUrl } = await import('./cli/doctor.ts');
      state.code = await doctor(opts.url ?? doctorDefaultUrl(c), token, out);
    });

  cli
    .command('mcp')
    .description('the MCP server over stdio for AI assistants, through a running instance (bearer token in CARETAKER_MCP_TOKEN)')
    .option('--url <url>', 'base URL of the instance (default: CARETAKER_MCP_URL, else CARETAKER_PUBLIC_URL, else http://127.0.0.1:3000)')
    .addHelpText(
      'after',
      '\nPasses each message of the assistant (stdin/stdout) to the instance\'s POST /mcp with the bearer token of\n' +
        'CARETAKER_MCP_TOKEN: the assistant acts as that token\'s user (docs/integrations.md "AI assistants (MCP)").',
    )
    .action(async (opts: { url?: string }) => {
      const token = process.env.CARETAKER_MCP_TOKEN?.trim();
      if (!token) {
        err('caretaker: set CARETAKER_MCP_TOKEN to a bearer token (POST /api/auth/login or /api/security/mobile-auth)');
        throw new Exit(2);
      }
      const c = await configIfValid();
      const { doctorDefaultUrl } = await import('./cli/doctor.ts');
      const { runStdioBridge } = await import('../modules/platform/mcp/index.ts');
      await runStdioBridge({ baseUrl: opts.url ?? (process.env.CARETAKER_MCP_URL?.trim() || doctorDefaultUrl(c)), token });
      state.code = 0;
    });

  const push = cli.command('push').description('push notification commands (docs/push.md)');
  push
    .command('vapid-keys')
    .description('print a new Web Push VAPID key pair as environment lines')
    .action(async () => {
      const { generateVapidKeys } = await import('../modules/messaging/push/index.ts');
      const keys = generateVapidKeys();
      out(`CARETAKER_VAPID_PUBLIC_KEY=${keys.publicKey}\nCARETAKER_VAPID_PRIVATE_KEY=${keys.privateKey}\nCARETAKER_VAPID_SUBJECT=mailto:ops@example.com`);
      state.code = 0;
    });

  const storage = cli.command('storage').description('file storage commands (docs/operations.md "File storage")');
  storage
    .command('migrate')
    .description('copy stored files to the other backend, verifying each hash')
    .addOption(new Option('--from <backend>', 'where the files are now').choices(['local', 's3']).makeOptionMandatory())
    .addOption(new Option('--to <backend>', 'where they go').choices(['local', 's3']).makeOptionMandatory())
    .action(async (opts: { from: string; to: string }) => {
      const { storageCommand } = await import('./cli/storage.ts');
      state.code = await storageCommand(await config(), ['migrate', '--from', opts.from, '--to', opts.to], out, err);
    });

  const history = cli.command('history').description('monthly partitions of the history tables (docs/operations.md "History partitions and retention")');
  const historyRun = (args: string[]) => async () => {
    const { historyCommand } = await import('./cli/history.ts');
    state.code = await historyCommand(await config(), args, out, err);
  };
  history.command('status').description('every partition of the history tables and the rows waiting in DEFAULT').action(historyRun(['status']));
  history.command('maintain').description('create months ahead, sort DEFAULT, archive and drop months past retention (as the worker does daily)').action(historyRun(['maintain']));
  history.command('archives').description('the archived months: table, range, file store key, rows, size').action(historyRun(['archives']));
  history
    .command('restore')
    .description('put an archived month back into the plain table <partition>_restored, to read with SQL')
    .argument('<partition>', 'the archived partition, e.g. activity_log_p2026_01')
    .action(async (partition: string) => historyRun(['restore', partition])());
  return cli;
}

async function main(argv: string[]): Promise<number | undefined> {
  const state: { code: number | undefined } = { code: undefined };
  try {
    // No words at all means serve (npm start, containers); anything else is parsed as given, so a
    // misspelt command is an "unknown command", not arguments of serve.
    await program(state).parseAsync(argv.length === 0 ? ['serve'] : argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof Exit) return e.code;
    if (e instanceof (await startup()).StartupError) {
      err(e.message);
      return 1;
    }
    throw e;
  }
  return state.code;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (e: unknown) => {
    // Never a bare "caretaker: ": an error without a message is named by its kind.
    const text = e instanceof Error ? e.message || `${e.name} (no message)` : String(e);
    process.stderr.write(`caretaker: ${text || 'unknown error'}\n`);
    process.exit(1);
  },
);
