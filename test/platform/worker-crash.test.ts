/**
 * Durability of a job across a crash (docs/events.md): a worker process is killed with SIGKILL
 * while a handler runs; after a restart the job's heartbeat has lapsed, the queue retries it and
 * the handler completes (attempt 2). Real processes on a real database folder (PGlite) or a fresh
 * PostgreSQL database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { COMPILE_CACHE_ENV, migratedDataFolder } from '../helpers/child-env.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/slow-worker.ts');

interface Child {
  proc: ChildProcess;
  lines: Array<Record<string, unknown>>;
  waitFor(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

function startChild(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [FIXTURE], { env: { ...process.env, ...COMPILE_CACHE_ENV, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Array<Record<string, unknown>> = [];
  let text = '';
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    for (const p of parts) {
      try {
        lines.push(JSON.parse(p) as Record<string, unknown>);
      } catch {
        lines.push({ msg: p });
      }
    }
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  return {
    proc,
    lines,
    async waitFor(msg, timeoutMs = 420_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const hit = lines.find((l) => l.msg === msg);
        if (hit) return hit;
        if (Date.now() > end || proc.exitCode !== null) throw new Error(`no '${msg}' from the worker:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

const exited = (p: ChildProcess) => new Promise<void>((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : p.once('exit', () => resolve())));

describe('a worker killed mid-job', () => {
  const children: Child[] = [];
  let database: TestDatabase | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    for (const c of children) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => exited(c.proc)));
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs the job again after a restart and completes it', { timeout: 900_000 }, async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'caretaker-crash-'));
    // PGlite: the folder starts migrated (the first-start test covers an empty one).
    if (!database.databaseUrl) await migratedDataFolder(dir);
    const env = {
      CARETAKER_DATA_DIR: dir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      CARETAKER_QUEUE_HEARTBEAT_S: '10',
      CARETAKER_QUEUE_SUPERVISE_S: '1',
      CARETAKER_QUEUE_RETRY_DELAY_S: '1',
      CARETAKER_RELAY_INTERVAL_MS: '100',
    };
    const first = startChild({ ...env, EMIT: '1' });
    children.push(first);
    const started = await first.waitFor('handler started');
    expect(started.attempt).toBe(1);
    first.proc.kill('SIGKILL');
    await exited(first.proc);

    const second = startChild(env);
    children.push(second);
    const done = await second.waitFor('completed');
    expect(done.event_id).toBe(started.event_id);
    const attempts = second.lines.filter((l) => l.msg === 'handler started').map((l) => l.attempt);
    expect(attempts).toEqual([2]);
  });
});
