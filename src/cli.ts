/**
 * The `caretaker` command: `serve` (default), `migrate`, `demo` (load the demo data into an empty
 * database), `push vapid-keys` (a new Web Push key pair), `help`. Configuration comes from the environment (see README).
 */
import cluster from 'node:cluster';
import { parseWorkers, serveCluster, WORKERS_NEED_POSTGRES } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openRuntime } from './runtime.ts';
import { loadDemoIfEmpty } from './seed/demo/index.ts';
import { storageCommand } from './modules/storage/index.ts';
import { startServer } from './server.ts';
import { startWorkerProcess } from './worker-process.ts';

const USAGE = `Usage: caretaker <command>

Commands:
  serve      start the HTTP API and the background worker (default); migrates first
             --workers N   run N processes sharing the port (needs DATABASE_URL)
             --no-worker   serve HTTP only (run \`caretaker worker\` elsewhere)
  worker     run only the background work: outbox relay, event handlers, periodic tasks
  migrate    apply pending database migrations and exit
  demo       load the demo data set into an empty database and exit
  push vapid-keys
             print a new Web Push VAPID key pair as environment lines (docs/push.md)
  storage migrate --from local --to s3
             copy stored files to the other backend, verifying each hash
  help       show this text

Configuration is read from environment variables; see README.md.`;

async function main(argv: string[]): Promise<number> {
  const command = argv[0] ?? 'serve';
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === 'push') {
    if (argv[1] !== 'vapid-keys') {
      process.stderr.write(`Unknown push command '${argv[1] ?? ''}'.\n\n${USAGE}\n`);
      return 2;
    }
    const { generateVapidKeys } = await import('./modules/push/index.ts');
    const keys = generateVapidKeys();
    process.stdout.write(`CARETAKER_VAPID_PUBLIC_KEY=${keys.publicKey}\nCARETAKER_VAPID_PRIVATE_KEY=${keys.privateKey}\nCARETAKER_VAPID_SUBJECT=mailto:ops@example.com\n`);
    return 0;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  switch (command) {
    case 'serve': {
      let workers: number;
      try {
        workers = parseWorkers(argv.slice(1));
      } catch (err) {
        process.stderr.write(`${(err as Error).message}\n`);
        return 2;
      }
      if (workers > 1 && !config.databaseUrl) {
        process.stderr.write(`${WORKERS_NEED_POSTGRES}\n`);
        return 2;
      }
      const background = !argv.includes('--no-worker');
      if (workers > 1 || cluster.isWorker) await serveCluster(config, workers, background);
      else await startServer(config, { background });
      return -1;
    }
    case 'worker': {
      await startWorkerProcess(config);
      return -1;
    }
    case 'migrate': {
      const runtime = await openRuntime(config);
      process.stdout.write(`Database (${runtime.deps.engine}) is at the latest migration.\n`);
      await runtime.close();
      return 0;
    }
    case 'demo': {
      const runtime = await openRuntime(config);
      const result = await loadDemoIfEmpty(runtime.deps.db, config, runtime.deps.clock.now(), (m) => process.stdout.write(`${m}\n`));
      process.stdout.write(result.loaded ? 'Demo data loaded.\n' : 'The database already holds data; nothing loaded.\n');
      await runtime.close();
      return 0;
    }
    case 'storage':
      return storageCommand(config, argv.slice(1), (l) => process.stdout.write(`${l}\n`), (l) => process.stderr.write(`${l}\n`));
    default:
      process.stderr.write(`Unknown command '${command}'.\n\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`caretaker: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
