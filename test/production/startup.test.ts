/**
 * Start-up messages (README "Start-up messages"): each failure found before any database work is
 * ONE line on stderr naming the variable, its value (secrets masked) and the fix, with exit code 1;
 * an unreachable Redis is a loud warning and fails readiness; a first start says what it is doing;
 * CARETAKER_DEMO on a database that holds data says why nothing was loaded; logs are JSON when
 * stdout is not a terminal and human-readable when it is.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PREPARED_DIR } from '../../src/main/prepared-database.ts';
import { EMBEDDED_GLIBC_TUNABLES, EMBEDDED_SEMI_SPACE_MB } from '../../src/main/process-sizing.ts';
import { COMPILE_CACHE_ENV } from '../helpers/child-env.ts';
import { freePort, runCaretaker, startCaretaker, stopAllProcesses } from '../helpers/process.ts';

const dirs: string[] = [];
async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-start-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await stopAllProcesses();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Runs `serve`, expects exit 1 and exactly one stderr line; returns it. */
async function failure(env: Record<string, string>): Promise<string> {
  const run = await runCaretaker(['serve'], env, 60_000);
  const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, run.stdout + run.stderr).toHaveLength(1);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  return lines[0]!;
}

describe('start-up failures: one line naming the variable, its value and the fix', () => {
  it('a port in use is found before the database is opened', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = await scratch();
    try {
      const line = await failure({ PORT: String(port), CARETAKER_DATA_DIR: dataDir });
      expect(line).toBe(
        `caretaker: cannot start: PORT=${port}: port ${port} on 127.0.0.1 is already in use (EADDRINUSE). ` +
          'Fix: stop the process using it (another caretaker?) or set PORT to a free port',
      );
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('a HOST that is no address of this machine', async () => {
    const line = await failure({ HOST: '999.1.1.1', PORT: String(await freePort()), CARETAKER_DATA_DIR: await scratch() });
    expect(line).toMatch(/^caretaker: cannot start: HOST=999\.1\.1\.1: cannot listen on this address \((ENOTFOUND|EAI_AGAIN)\)\. Fix: set HOST to 127\.0\.0\.1 /);
  });

  it('a data folder that cannot be created fails at once instead of hanging', async () => {
    const line = await failure({ CARETAKER_DATA_DIR: '/proc/caretaker-data', PORT: String(await freePort()) });
    expect(line).toBe(
      'caretaker: cannot start: CARETAKER_DATA_DIR=/proc/caretaker-data: the data folder /proc/caretaker-data cannot be created or written (ENOENT). ' +
        'Fix: point CARETAKER_DATA_DIR to a writable folder on a real file system (it holds the embedded database, files and mail)',
    );
  });

  it('an unreachable DATABASE_URL, its password masked', async () => {
    const dbPort = await freePort();
    const line = await failure({
      DATABASE_URL: `postgres://app:db-s3cret@127.0.0.1:${dbPort}/caretaker`,
      PORT: String(await freePort()),
      CARETAKER_DATA_DIR: await scratch(),
    });
    expect(line).toBe(
      `caretaker: cannot start: DATABASE_URL=postgres://app:****@127.0.0.1:${dbPort}/caretaker: unreachable (ECONNREFUSED). ` +
        'Fix: start PostgreSQL at that host and port, or correct DATABASE_URL (unset it to use the embedded database in CARETAKER_DATA_DIR)',
    );
  });
});

describe('first start, restart and log format', () => {
  it('prints progress, warns loudly about Redis and fails readiness; a restart with CARETAKER_DEMO says why it skipped', async () => {
    const dataDir = await scratch();
    const redisPort = await freePort();
    const first = await startCaretaker({
      CARETAKER_DATA_DIR: dataDir,
      CARETAKER_ADMIN_PASSWORD: 'first start password',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    await expect.poll(() => first.lines.some((l) => l.includes('Caretaker is serving')) || !first.running, { timeout: 120_000, interval: 200 }).toBe(true);
    const messages = first.json().map((l) => String(l.msg));
    // With the migrated copy that `npm install` prepares (src/main/prepared-database.ts) the first
    // start loads it and has nothing to migrate; without it, it creates the database and migrates.
    const prepared = existsSync(path.join(PREPARED_DIR, 'pglite-migrated.json'));
    const order = [
      prepared
        ? messages.findIndex((m) => m.startsWith('creating the embedded database in ') && m.endsWith('from the migrated copy prepared at install (first start only)'))
        : messages.findIndex((m) => m.startsWith('creating the embedded database in ') && m.includes('(first start only; it takes a while')),
      ...(prepared
        ? []
        : [messages.findIndex((m) => /^migrating the database: \d+ migrations to apply$/.test(m)), messages.indexOf('database migrated')]),
      messages.indexOf('creating the SysOps account sysops@caretaker.test (the database holds no account yet)'),
      messages.indexOf('Caretaker is serving'),
      messages.indexOf(`open ${first.url}/ for the console, ${first.url}/docs for the API`),
    ];
    expect(order.every((i) => i >= 0), first.log).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const warning =
      `WARNING: REDIS_URL=redis://127.0.0.1:${redisPort} is unreachable: logins answer 503 and readiness fails until it answers. ` +
      'Fix: start Redis there, correct REDIS_URL, or unset it (a single instance then keeps its counters in memory)';
    expect(first.lines).toContain(warning);
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ success: false, error: 'Redis unreachable' });
    // Not a terminal: every log line is JSON (the warning also goes to stderr as plain text).
    expect(first.lines.filter((l) => l !== warning).every((l) => l.startsWith('{'))).toBe(true);
    first.signal('SIGTERM');
    await first.waitExit(30_000);

    const second = await startCaretaker({ CARETAKER_DATA_DIR: dataDir, CARETAKER_DEMO: 'true' });
    await second.waitReady();
    const again = second.json().map((l) => String(l.msg));
    expect(again).toContain('demo skipped: the database already holds data (CARETAKER_DEMO loads only into an empty database)');
    expect(again.some((m) => m.startsWith('migrating'))).toBe(false);
    expect(again.some((m) => m.startsWith('creating the SysOps account'))).toBe(false);
    // The second start opens the database it made the first time, and says so.
    expect(again.some((m) => m.startsWith('opening the embedded database in '))).toBe(true);
    expect(again.some((m) => m.startsWith('creating the embedded database'))).toBe(false);
    // The background worker starts after the first answer, so its first statements do not go ahead
    // of it on the embedded database's one connection (src/main/server.ts).
    await expect.poll(() => second.json().some((l) => l.msg === 'background worker started'), { timeout: 15_000 }).toBe(true);
    const secondLog = second.json().map((l) => String(l.msg));
    expect(secondLog.indexOf('request completed')).toBeGreaterThan(-1);
    expect(secondLog.indexOf('request completed')).toBeLessThan(secondLog.indexOf('background worker started'));
    // On the embedded database the server started itself again in the same process with glibc's
    // mmap threshold and 8 MiB semi-spaces (src/main/process-sizing.ts): same pid, the new
    // environment and node flags are its own.
    if (process.platform === 'linux') {
      const environ = readFileSync(`/proc/${second.child.pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain(`GLIBC_TUNABLES=${EMBEDDED_GLIBC_TUNABLES}`);
      const cmdline = readFileSync(`/proc/${second.child.pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline).toContain(`--max-semi-space-size=${EMBEDDED_SEMI_SPACE_MB}`);
      expect(cmdline.at(-2)).toBe('serve');
    }
    second.signal('SIGTERM');
    await second.waitExit(30_000);

    // In a terminal (script(1) gives the child a pseudo-terminal) the lines are human-readable.
    if (!existsSync('/usr/bin/script')) {
      console.info('skipped the terminal half: it needs script(1) from util-linux to give the child a terminal');
      return;
    }
    const port = await freePort();
    const child = spawn('/usr/bin/script', ['-qec', `${process.execPath} bin/caretaker.js serve`, '/dev/null'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, ...COMPILE_CACHE_ENV, DATABASE_URL: '', REDIS_URL: '', CARETAKER_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    try {
      await expect.poll(() => text.includes('Caretaker is serving'), { timeout: 60_000, interval: 200 }).toBe(true);
      const serving = text.split('\n').find((l) => l.includes('Caretaker is serving'))!;
      expect(serving).toMatch(/^\[\d{2}:\d{2}:\d{2}\] .*INFO.*Caretaker is serving/);
      expect(serving.trim().startsWith('{')).toBe(false);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 240_000);
});
