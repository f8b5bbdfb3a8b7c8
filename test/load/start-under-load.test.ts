/**
 * Starts under immediate load (docs/operations.md "Under load and faults"): an instance on
 * PostgreSQL and Redis is started again and again, and authenticated requests hit it from the
 * moment it listens, so the first requests of each account meet limiters that
 * were never used. Every start must serve every request and stop cleanly. A fatal error outside
 * any request exits with code 1 within a few seconds even with requests in flight that will never
 * finish and a long shutdown limit.
 *
 * START_UNDER_LOAD_STARTS sets the number of starts (default 10; `npm run soak` runs 50).
 */
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FATAL_DRAIN_MS } from '../../src/main/server.ts';
import { createProcessWorld, httpLogin, startCaretaker, stopAllProcesses, type CaretakerProcess, type ProcessWorld } from '../helpers/process.ts';
import { skipWithout } from '../helpers/skip.ts';

const STARTS = Number(process.env.START_UNDER_LOAD_STARTS ?? 10);
const FATAL_PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fatal-on-signal.mjs');

/**
 * Resolves as soon as the child logs that it listens (polling its output every 5 ms). A bare TCP
 * connect to the port could reach another process holding the same port on a shared machine.
 */
async function serving(server: CaretakerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!server.running) throw new Error(`caretaker exited while starting:\n${server.log}`);
    if (server.lines.some((l) => l.includes('Caretaker is serving'))) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`caretaker did not listen within ${timeoutMs} ms:\n${server.log}`);
}

describe.skipIf(skipWithout(process.env.DATABASE_URL && process.env.REDIS_URL, 'needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL'))(
  'starting under load',
  () => {
    let world: ProcessWorld | undefined;
    afterAll(async () => {
      await stopAllProcesses();
      await world?.drop();
    });

    it(`serves every request of ${STARTS} starts under immediate load`, { timeout: 60_000 + STARTS * 30_000 }, async () => {
      world = await createProcessWorld('postgres');
      const env = { ...world.env, REDIS_URL: process.env.REDIS_URL ?? '', CARETAKER_SHUTDOWN_TIMEOUT_S: '5' };
      // Tokens live in the database: several accounts' tokens, taken once, are valid at every start.
      const first = await startCaretaker(env, ['--no-worker']);
      await first.waitReady();
      const tokens: string[] = [];
      for (let i = 0; i < 3; i++) tokens.push((await httpLogin(first.url, world.admin.email, world.admin.password)).token);
      first.signal('SIGTERM');
      expect((await first.waitExit()).code).toBe(0);
      const token = tokens.at(-1)!;

      const paths = ['/api/jobs/manage?limit=5', '/api/users/permissions', '/api/jobs/statuses', '/livez', '/api/tenants?limit=5'];
      const failures: string[] = [];
      for (let start = 0; start < STARTS; start++) {
        const server = await startCaretaker(env, ['--no-worker']);
        await serving(server);
        const statuses: Array<number | string> = [];
        // Three waves of 40 concurrent requests, the first sent as soon as it listens.
        for (let wave = 0; wave < 3; wave++) {
          const results = await Promise.all(
            Array.from({ length: 40 }, (_, i) =>
              fetch(`${server.url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${token}` } }).then(
                async (res) => {
                  await res.arrayBuffer();
                  return res.status;
                },
                (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
              ),
            ),
          );
          statuses.push(...results);
        }
        const bad = statuses.filter((s) => s !== 200);
        if (bad.length > 0 || !server.running) failures.push(`start ${start + 1}: ${JSON.stringify(bad)} running=${server.running}\n${server.log.slice(-3000)}`);
        server.signal('SIGTERM');
        const exit = await server.waitExit(15_000);
        if (exit.code !== 0) failures.push(`start ${start + 1}: exit ${JSON.stringify(exit)}\n${server.log.slice(-3000)}`);
        if (server.log.includes('fatal error')) failures.push(`start ${start + 1}: fatal error logged\n${server.log.slice(-3000)}`);
      }
      expect(failures).toEqual([]);
    });

    it('exits with 1 within the fatal drain limit after an uncaught error, with a request in flight', { timeout: 90_000 }, async () => {
      world ??= await createProcessWorld('postgres');
      const server = await startCaretaker({
        ...world.env,
        REDIS_URL: process.env.REDIS_URL ?? '',
        CARETAKER_SHUTDOWN_TIMEOUT_S: '30',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${FATAL_PRELOAD}`,
      });
      await server.waitReady();
      // A request that never completes: headers and half a body.
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
      await new Promise((r) => setTimeout(r, 200));
      const at = Date.now();
      server.signal('SIGWINCH');
      const exit = await server.waitExit(20_000);
      const took = Date.now() - at;
      socket.destroy();
      expect(exit.code, server.log).toBe(1);
      expect(server.log).toContain('fatal error, shutting down');
      expect(took).toBeLessThan(FATAL_DRAIN_MS + 4_000);
    });
  },
);
