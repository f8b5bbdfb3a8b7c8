/**
 * A PostgreSQL primary and a streaming standby of it, made from the machine's own server binaries
 * (initdb, pg_ctl, pg_basebackup under /usr/lib/postgresql/<version>/bin), run as the `postgres`
 * user when this process is root (the server refuses root). Used by test/db/replica.test.ts and by
 * `npm run bench:sizes`' replica layouts (docs/operations.md "Read replicas" and "Deployment at
 * three sizes").
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './net.ts';

const run = promisify(execFile);

/** The folder of the server binaries (the newest of 15, 16, 17 found), or undefined when none is installed. */
export const PG_BIN = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((d) =>
  existsSync(path.join(d, 'pg_basebackup')),
);
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary of PG_BIN with `args`, as the `postgres` user when this process is root. Rejects when it exits non-zero. */
export async function pgBinary(name: string, args: string[]): Promise<void> {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin');
  const file = path.join(PG_BIN, name);
  if (asRoot) await run('runuser', ['-u', 'postgres', '--', file, ...args], { maxBuffer: 64 * 1024 * 1024 });
  else await run(file, args, { maxBuffer: 64 * 1024 * 1024 });
}

/** Runs one statement on a connection of its own; resolves with its rows. */
export async function queryOnce<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text)).rows;
  } finally {
    await c.end();
  }
}

/** A running primary and standby; `url(port, database)` names a database on either. */
export interface PrimaryAndStandby {
  /** The folder holding both clusters (removed by stop). */
  dir: string;
  /** The standby's data folder (`pg_ctl -D` stops it alone). */
  standbyDir: string;
  primaryPort: number;
  standbyPort: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(port: number, database: string): string;
  /** Stops both clusters (immediate shutdown) and removes their folder. Never throws. */
  stop(): Promise<void>;
}

/** Starts the cluster in `dir` on `port` (loopback only, its socket in `socketDir`); waits until it accepts connections. */
async function startCluster(dir: string, port: number, socketDir: string, settings: string): Promise<void> {
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 ${settings}`;
  await pgBinary('pg_ctl', ['-D', dir, '-o', options, '-l', `${dir}.log`, '-w', '-t', '60', 'start']);
}

/**
 * Makes a primary with `initdb` (trust authentication, replication included; wal_level replica by
 * default), runs `prepare(primaryUrlOf)` on it (create and fill databases), then a standby from a
 * `pg_basebackup -R -X stream` of it, and starts both on free loopback ports.
 * @param settings extra server settings for both, e.g. `-c fsync=off -c max_connections=60`
 * @throws when a binary fails (its stderr in the error); the clusters made so far are stopped first
 */
export async function startPrimaryAndStandby(
  prepare: (url: (database: string) => string) => Promise<void>,
  settings = '-c fsync=off -c full_page_writes=off -c max_connections=60 -c shared_buffers=16MB',
): Promise<PrimaryAndStandby> {
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-replica-'));
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'replica');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const stop = async () => {
    for (const d of [standbyDir, primaryDir]) {
      if (existsSync(d)) await pgBinary('pg_ctl', ['-D', d, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    }
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    await pgBinary('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    await startCluster(primaryDir, primaryPort, dir, settings);
    await prepare((database) => url(primaryPort, database));
    // The standby: a base backup (after an immediate checkpoint, not a spread one) streaming its WAL, with standby.signal and primary_conninfo (-R).
    await pgBinary('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    await startCluster(standbyDir, standbyPort, dir, settings);
  } catch (e) {
    await stop();
    throw e;
  }
  return { dir, standbyDir, primaryPort, standbyPort, url, stop };
}
