/**
 * docs/operations.md, docs/security.md promise 21: SIGTERM under load. Requests in flight finish; a request
 * that reaches the process afterwards on a connection still open gets 503 in the envelope; new
 * connections are refused (the listener closes at once); the process exits within
 * CARETAKER_SHUTDOWN_TIMEOUT_S with code 0.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { REDACT } from '../../src/main/app.ts';
import { createLogger } from '../../src/main/startup.ts';
import { buildTestApp, logLines } from '../helpers/app.ts';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, type ProcessWorld } from '../helpers/process.ts';

const TIMEOUT_S = 5;
const DRAINING = { success: false, error: 'The service is shutting down. Please retry.' };

/** An HTTP/1.1 connection written by hand, so a request can be left half-sent. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d) => (data += d.toString('utf8')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    socket,
    closed,
    write: (text: string) => socket.write(text),
    /** Status codes and bodies of the responses received so far. */
    responses: () =>
      [...data.matchAll(/HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n([^]*?)(?=HTTP\/1\.1 |$)/g)].map((m) => ({ status: Number(m[1]), body: m[2] ?? '' })),
  };
}

describe('SIGTERM under load', () => {
  let world: ProcessWorld | undefined;
  afterAll(async () => {
    await stopAllProcesses();
    await world?.drop();
  });

  it('finishes requests in flight, answers 503 to late ones, refuses new connections, exits in time', async () => {
    world = await createProcessWorld(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    const server = await startCaretaker({ ...world.env, CARETAKER_SHUTDOWN_TIMEOUT_S: String(TIMEOUT_S) });
    await server.waitReady();
    const { token } = await httpLogin(server.url, world.admin.email, world.admin.password);

    // Eight job creations in flight: headers and half of each body sent before SIGTERM.
    const inFlight = [];
    for (let i = 0; i < 8; i++) {
      const csrf = await httpCsrf(server.url, token);
      const body = JSON.stringify({ title: `In flight ${i}`, priority: 3, csrf_token: csrf });
      const conn = rawConnection(server.port);
      conn.write(
        `POST /api/jobs/manage HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      inFlight.push({ conn, rest: body.slice(20) });
    }
    // Plus a load of quick reads running through the shutdown.
    const readsStatuses: Array<number | string> = [];
    let loading = true;
    const reader = (async () => {
      while (loading) {
        const r = await fetch(`${server.url}/api/jobs/manage?limit=5`, { headers: { authorization: `Bearer ${token}` } }).then(
          (res) => res.status,
          (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? 'error',
        );
        readsStatuses.push(r);
        if (typeof r === 'string') break;
      }
    })();
    await expect.poll(() => server.lines.filter((l) => l.includes('"url":"/api/jobs/manage"') && l.includes('"method":"POST"')).length, { timeout: 15_000 }).toBe(8);

    const signalledAt = Date.now();
    server.signal('SIGTERM');
    await expect.poll(() => server.log.includes('shutting down: finishing requests in flight'), { timeout: 5_000 }).toBe(true);

    // New connections are refused once the listener is closed.
    const fresh = await new Promise<string>((resolve) => {
      const probe = net.connect(server.port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve('connected');
      });
      probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(fresh).toBe('ECONNREFUSED');

    // Finish the bodies; on the first connection pipeline one more request behind it.
    for (const [i, { conn, rest }] of inFlight.entries()) {
      conn.write(rest);
      if (i === 0) conn.write(`GET /api/jobs/manage HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    }
    const exit = await server.waitExit((TIMEOUT_S + 3) * 1000);
    const tookMs = Date.now() - signalledAt;
    loading = false;
    await reader;
    await Promise.all(inFlight.map(({ conn }) => Promise.race([conn.closed, new Promise((r) => setTimeout(r, 2000))])));

    expect(exit.code, server.log.slice(-3000)).toBe(0);
    // On failure, where the time went: the signal's delivery, the drain (the server's "Caretaker
    // stopped" line breaks it down) and the exit, from the times the server logged.
    const logged = (msg: string) => JSON.parse(server.lines.find((l) => l.includes(msg)) ?? '{}') as { time?: number; shutdown_ms?: Record<string, unknown> };
    const last = logged('Caretaker stopped');
    const handled = logged('shutting down: finishing').time;
    const stopped = last.time;
    const phases = handled && stopped ? `signal to handler ${handled - signalledAt} ms, drain ${stopped - handled} ms, exit ${signalledAt + tookMs - stopped} ms` : 'no "Caretaker stopped" line';
    expect(tookMs, `${phases}\n${server.lines.filter((l) => /shutting down|stopped|worker/.test(l)).join('\n')}`).toBeLessThan((TIMEOUT_S + 1) * 1000);
    // The last line says when each part of the drain finished, in ms since it began.
    expect(Object.keys(last.shutdown_ms ?? {}).sort()).toEqual(['database', 'requests', 'worker']);
    for (const { conn } of inFlight) expect(conn.responses()[0]?.status).toBe(201);
    // Each answer during the drain says Connection: close; the request pipelined behind the first
    // one is either answered 503 in the envelope or left unanswered on the closed connection
    // (HTTP lets the client retry it elsewhere), never served.
    const late = inFlight[0]!.conn.responses()[1];
    if (late) expect({ status: late.status, body: JSON.parse(late.body) }).toEqual({ status: 503, body: DRAINING });
    // The reads before SIGTERM succeeded; the ones after it ended with 503 or a refused connection.
    expect(readsStatuses[0]).toBe(200);
    expect(readsStatuses.every((s) => s === 200 || s === 503 || s === 'ECONNREFUSED' || s === 'ECONNRESET' || s === 'UND_ERR_SOCKET')).toBe(true);

    // Every 201 is stored (PGlite: read after the process has gone).
    const db = world.open();
    try {
      const titles = await db.db.selectFrom('jobs').select('title').where('title', 'like', 'In flight %').execute();
      expect(titles).toHaveLength(8);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('answers a request that arrives while draining with 503 in the envelope and Connection: close', async () => {
    const lifecycle = { draining: false };
    const { lines, stream } = logLines();
    const t = await buildTestApp({}, { lifecycle, loggerInstance: createLogger({ logLevel: 'info' }, REDACT, stream) });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
      lifecycle.draining = true;
      const res = await t.app.inject({ method: 'GET', url: '/livez' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual(DRAINING);
      expect(res.headers.connection).toBe('close');
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      // Logged as the server's own state, one warning without a stack (docs/security.md), not as an outside service's failure.
      const warned = lines.filter((l) => l.status === 503);
      expect(warned.length).toBeGreaterThan(0);
      for (const l of warned) expect(l).toMatchObject({ level: 40, msg: 'service unavailable', error: DRAINING.error });
      expect(lines.some((l) => l.msg === 'outside service failed' || 'stack' in l)).toBe(false);
    } finally {
      await t.close();
    }
  });
});
