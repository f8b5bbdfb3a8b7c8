/**
 * docs/operations.md "Shutdown and health", docs/security.md promise 21: the background worker under
 * SIGTERM. It stops taking work at once; a webhook being sent to an endpoint that never answers is
 * ended and given back (due again, its attempt not counted), nothing goes to the dead-letter queue,
 * and the process exits 0 within CARETAKER_SHUTDOWN_TIMEOUT_S, although the webhook's own deadline
 * (CARETAKER_WEBHOOKS_TIMEOUT_MS) is far longer.
 */
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses, type ProcessWorld } from '../helpers/process.ts';

const TIMEOUT_S = 4;

describe('SIGTERM while the worker holds work', () => {
  let world: ProcessWorld | undefined;
  const sockets = new Set<net.Socket>();
  // A webhook receiver that takes the request and never answers.
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  afterAll(async () => {
    await stopAllProcesses();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await world?.drop();
  });

  it('ends the send in flight, gives it back, dead-letters nothing and exits 0 in time', async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const hookPort = (silent.address() as net.AddressInfo).port;
    world = await createProcessWorld(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    const server = await startCaretaker({
      ...world.env,
      CARETAKER_SHUTDOWN_TIMEOUT_S: String(TIMEOUT_S),
      CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true',
      CARETAKER_WEBHOOKS_TIMEOUT_MS: '60000',
      CARETAKER_QUEUE_SEND_INTERVAL_MS: '200',
    });
    await server.waitReady();
    const { token } = await httpLogin(server.url, world.admin.email, world.admin.password);
    const post = async (url: string, body: Record<string, unknown>) => {
      const csrf = await httpCsrf(server.url, token);
      const res = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, csrf_token: csrf }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return res.json();
    };
    await post('/api/webhooks/endpoints', { url: `http://127.0.0.1:${hookPort}/hook`, events: ['job.created'] });
    await post('/api/jobs/manage', { title: 'Boiler fault', priority: 3 });
    // The worker is sending the webhook: the receiver holds the connection.
    await expect.poll(() => sockets.size, { timeout: 30_000 }).toBeGreaterThan(0);

    const signalledAt = Date.now();
    server.signal('SIGTERM');
    const exit = await server.waitExit((TIMEOUT_S + 5) * 1000);
    const tookMs = Date.now() - signalledAt;
    expect(exit.code, server.log.slice(-3000)).toBe(0);
    expect(tookMs, server.lines.filter((l) => /shutting down|stopped|worker|grace/.test(l)).join('\n')).toBeLessThan(TIMEOUT_S * 1000);

    const db = world.open();
    try {
      // Given back: pending, due now, the cut-off attempt not counted.
      const deliveries = await db.db.selectFrom('webhook_deliveries').select(['status', 'attempts', 'next_attempt_at']).execute();
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: 'pending', attempts: 0 });
      expect(new Date(deliveries[0]!.next_attempt_at!).getTime()).toBeLessThanOrEqual(Date.now());
      // Nothing failed into the dead-letter queue, nothing was failed by the shutdown.
      const dead = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'dead-letter' or output::text like '%shut down while active%'`.execute(db.db);
      expect(dead.rows[0]?.n).toBe(0);
    } finally {
      await db.close();
    }
  }, 120_000);
});
