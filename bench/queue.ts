/**
 * `npm run bench:queue` (bench/README.md "Queue under peak load"): one Caretaker instance on
 * PostgreSQL and Redis, a webhook endpoint (a local HTTP receiver) subscribed to every event and a
 * tenant with an e-mail address on every job (a local SMTP server), then job creations at
 * BENCH_QUEUE_RATE per second for BENCH_QUEUE_DURATION_S seconds. Every second it samples the
 * runnable backlog of the handler queues (created + retry) and the oldest waiting job; after the
 * load it measures how long the queues take to drain (nothing waiting or running, outbox relayed).
 *
 * Environment: DATABASE_URL and REDIS_URL (required), BENCH_QUEUE_RATE (default 30),
 * BENCH_QUEUE_DURATION_S (default 60), and any CARETAKER_QUEUE_* variable, passed to the instance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { queueFigures } from '../src/modules/platform/index.ts';
import { startFlakySmtp } from '../test/messaging/helpers.ts';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses } from '../test/helpers/process.ts';

const RATE = Number(process.env.BENCH_QUEUE_RATE ?? 30);
const DURATION_S = Number(process.env.BENCH_QUEUE_DURATION_S ?? 60);
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  process.stderr.write('bench:queue needs DATABASE_URL and REDIS_URL\n');
  process.exit(2);
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const log = (line: string) => process.stdout.write(`${line}\n`);

const world = await createProcessWorld('postgres');
const smtp = await startFlakySmtp();
let webhooks = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    webhooks += 1;
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const queueEnv = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('CARETAKER_QUEUE_') && e[1] !== undefined));
const server = await startCaretaker({
  ...world.env,
  REDIS_URL: process.env.REDIS_URL,
  SMTP_URL: smtp.url,
  CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true',
  ...queueEnv,
});
const handle = world.open();
try {
  await server.waitReady();
  const { token } = await httpLogin(server.url, world.admin.email, world.admin.password);
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-csrf-token': await httpCsrf(server.url, token) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data?: { uuid?: string } } };
  };
  const hook = await post('/api/webhooks/endpoints', { url: hookUrl, events: ['*'], description: 'bench' });
  const tenant = await post('/api/tenants', { name: 'Bench Tenant', email: 'bench.tenant@example.test' });
  if (hook.status !== 201 || tenant.status !== 201) throw new Error(`setup failed: ${JSON.stringify([hook, tenant])}`);

  const handlerBacklog = async () => {
    const queues = (await queueFigures(handle.db)).filter((q) => q.name.startsWith('handler.'));
    return {
      waiting: queues.reduce((n, q) => n + q.counts.created + q.counts.retry, 0),
      active: queues.reduce((n, q) => n + q.counts.active, 0),
      oldest: Math.max(0, ...queues.map((q) => q.oldest_waiting_s ?? 0)),
      handled: queues.reduce((n, q) => n + q.counts.completed, 0),
    };
  };
  const unpublished = async () => Number((await sql<{ n: number }>`select count(*)::int as n from outbox where published_at is null`.execute(handle.db)).rows[0]?.n ?? 0);

  log(`bench:queue: ${RATE} job creations/s for ${DURATION_S} s; load average at start ${load()}`);
  let created = 0;
  let failed = 0;
  let maxWaiting = 0;
  let maxOldest = 0;
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  const sampler = setInterval(() => {
    void handlerBacklog().then((b) => {
      maxWaiting = Math.max(maxWaiting, b.waiting);
      maxOldest = Math.max(maxOldest, b.oldest);
    });
  }, 1000);
  for (let i = 0; i < RATE * DURATION_S; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const p = post('/api/jobs/manage', { title: `Bench job ${i}`, priority: 3, tenant_uuid: tenant.body.data?.uuid }).then((r) => {
      if (r.status === 201) created += 1;
      else failed += 1;
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  const loadEnded = Date.now();
  const atEnd = await handlerBacklog();
  maxWaiting = Math.max(maxWaiting, atEnd.waiting);
  log(`load done in ${((loadEnded - started) / 1000).toFixed(1)} s: ${created} jobs created (${failed} failed); backlog now ${atEnd.waiting} waiting, ${atEnd.active} running; load average ${load()}`);
  let drainS: number | undefined;
  while (Date.now() - loadEnded < 600_000) {
    const b = await handlerBacklog();
    if (b.waiting === 0 && b.active === 0 && (await unpublished()) === 0) {
      drainS = (Date.now() - loadEnded) / 1000;
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  clearInterval(sampler);
  const final = await handlerBacklog();
  const elapsed = (loadEnded - started) / 1000;
  const perSecond = final.handled / elapsed;
  log(
    `handler jobs completed: ${final.handled} (${perSecond.toFixed(1)} per second of load); webhook requests received: ${webhooks}; ` +
      `largest backlog: ${maxWaiting} jobs (${(maxWaiting / Math.max(perSecond, 1)).toFixed(1)} s of production), oldest waiting job: ${maxOldest} s; ` +
      `drained ${drainS === undefined ? 'NOT within 600 s' : `${drainS.toFixed(1)} s after the load stopped`}; load average at end ${load()}`,
  );
} finally {
  await handle.close();
  await stopAllProcesses();
  await smtp.close();
  receiver.close();
  await world.drop();
}
