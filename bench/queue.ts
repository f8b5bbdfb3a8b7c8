/**
 * The queue scenario (bench/README.md "Queue under peak load"), run by `npm run bench:queue` alone
 * and by `npm run bench` after its HTTP scenarios: one Caretaker instance on PostgreSQL and Redis,
 * a webhook endpoint (a local HTTP receiver) subscribed to every event and a tenant with an e-mail
 * address on every job (a local SMTP server), then job creations at BENCH_QUEUE_RATE per second
 * for BENCH_QUEUE_DURATION_S seconds. Every second it samples the runnable backlog of the handler
 * queues (created + retry) and the oldest waiting job, and the messages planned but not yet sent
 * (e-mails queued, webhooks pending); after the load it measures how long the queues take to drain
 * (nothing waiting or running, outbox relayed) and how long until every e-mail and webhook is sent.
 *
 * Environment: DATABASE_URL and REDIS_URL (required), BENCH_QUEUE_RATE (default 30),
 * BENCH_QUEUE_DURATION_S (default 60), and any CARETAKER_QUEUE_* variable, passed to the instance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { queueFigures } from '../src/modules/platform/platform/index.ts';
import { startFlakySmtp } from '../test/messaging/messaging/helpers.ts';
import { createProcessWorld, httpCsrf, httpLogin, startCaretaker, stopAllProcesses } from '../test/helpers/process.ts';

/** What one run of the scenario measured. */
export interface QueueFigures {
  rate: number;
  durationS: number;
  loadStart: string;
  loadEnd: string;
  created: number;
  failed: number;
  loadS: number;
  /** Handler jobs completed, and per second of load (the production rate). */
  handled: number;
  perSecond: number;
  maxWaiting: number;
  maxWaitingS: number;
  maxOldestS: number;
  /** Seconds after the load until the handler queues were empty (undefined: not within 600 s). */
  drainS: number | undefined;
  /** Largest count of planned messages not yet sent (e-mails queued + webhooks pending). */
  maxUnsent: number;
  /** Seconds after the load until every planned message was sent. */
  sentS: number | undefined;
  emails: number;
  webhooks: number;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/**
 * Runs the scenario once.
 * @param log progress lines
 */
export async function runQueueScenario(rate: number, durationS: number, log: (line: string) => void): Promise<QueueFigures> {
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
    REDIS_URL: process.env.REDIS_URL ?? '',
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
    // Setup events (the endpoint, the tenant) are not part of the measure: wait until they are sent.
    const before = { webhooks: 0, emails: 0 };

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
    const unsent = async () =>
      Number(
        (
          await sql<{ n: number }>`select (select count(*) from message_deliveries where status = 'queued')::int
            + (select count(*) from webhook_deliveries where status = 'pending')::int as n`.execute(handle.db)
        ).rows[0]?.n ?? 0,
      );
    for (let i = 0; i < 100 && ((await unsent()) > 0 || (await unpublished()) > 0 || (await handlerBacklog()).waiting > 0); i++) await new Promise((r) => setTimeout(r, 200));
    before.webhooks = webhooks;
    before.emails = smtp.state.messages.length;
    const handledBefore = (await handlerBacklog()).handled;

    const loadStart = load();
    log(`queue scenario: ${rate} job creations/s for ${durationS} s; load average at start ${loadStart}`);
    let created = 0;
    let failed = 0;
    const failures = new Map<string, number>();
    let maxWaiting = 0;
    let maxOldest = 0;
    let maxUnsent = 0;
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    const sample = async () => {
      const b = await handlerBacklog();
      maxWaiting = Math.max(maxWaiting, b.waiting);
      maxOldest = Math.max(maxOldest, b.oldest);
      maxUnsent = Math.max(maxUnsent, await unsent());
      return b;
    };
    const sampler = setInterval(() => void sample().catch(() => undefined), 1000);
    for (let i = 0; i < rate * durationS; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const p = post('/api/jobs/manage', { title: `Bench job ${i}`, priority: 3, tenant_uuid: tenant.body.data?.uuid }).then(
        (r) => {
          if (r.status === 201) created += 1;
          else {
            failed += 1;
            failures.set(String(r.status), (failures.get(String(r.status)) ?? 0) + 1);
          }
        },
        (err: Error) => {
          failed += 1;
          failures.set(err.message, (failures.get(err.message) ?? 0) + 1);
        },
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await Promise.all(inFlight);
    const loadEnded = Date.now();
    const atEnd = await sample();
    log(`load done in ${((loadEnded - started) / 1000).toFixed(1)} s: ${created} jobs created (${failed} failed${failed ? `: ${JSON.stringify(Object.fromEntries(failures))}` : ''}); backlog now ${atEnd.waiting} waiting, ${atEnd.active} running; load average ${load()}`);
    let drainS: number | undefined;
    let sentS: number | undefined;
    while (Date.now() - loadEnded < 600_000 && sentS === undefined) {
      const b = await handlerBacklog();
      const queuesEmpty = b.waiting === 0 && b.active === 0 && (await unpublished()) === 0;
      if (queuesEmpty && drainS === undefined) drainS = (Date.now() - loadEnded) / 1000;
      if (queuesEmpty && (await unsent()) === 0) sentS = (Date.now() - loadEnded) / 1000;
      else await new Promise((r) => setTimeout(r, 200));
    }
    clearInterval(sampler);
    // The instance's own errors (a failed creation's cause: a pool wait, a timeout), most frequent first.
    const errors = new Map<string, number>();
    for (const l of server.json()) {
      if (Number(l.level) < 50) continue;
      const err = l.err as { message?: string } | string | undefined;
      const what = `${String(l.msg)}: ${(typeof err === 'string' ? err : err?.message) ?? ''}`.slice(0, 160);
      errors.set(what, (errors.get(what) ?? 0) + 1);
    }
    for (const [what, n] of [...errors].sort((a, b) => b[1] - a[1]).slice(0, 5)) log(`instance error x${n}: ${what}`);
    const final = await handlerBacklog();
    const loadS = (loadEnded - started) / 1000;
    const handled = final.handled - handledBefore;
    const perSecond = handled / loadS;
    return {
      rate, durationS, loadStart, loadEnd: load(), created, failed, loadS, handled, perSecond,
      maxWaiting, maxWaitingS: maxWaiting / Math.max(perSecond, 1), maxOldestS: maxOldest, drainS, maxUnsent, sentS,
      emails: smtp.state.messages.length - before.emails, webhooks: webhooks - before.webhooks,
    };
  } finally {
    // A graceful stop first (a profile asked for with NODE_OPTIONS=--cpu-prof is written on exit).
    server.signal('SIGTERM');
    await server.waitExit(30_000).catch(() => undefined);
    await handle.close();
    await stopAllProcesses();
    await smtp.close();
    receiver.close();
    await world.drop();
  }
}

/** The figures as the Markdown table of bench/README.md. */
export function queueTable(f: QueueFigures): string {
  const s = (v: number | undefined) => (v === undefined ? 'NOT within 600 s' : `${v.toFixed(1)} s after the load stopped`);
  return [
    '| | figure |',
    '|---|---|',
    `| load average | ${f.loadStart} at start, ${f.loadEnd} at end |`,
    `| jobs created | ${f.created} in ${f.loadS.toFixed(1)} s (${f.rate} per second asked; ${f.failed} failed) |`,
    `| handler jobs completed | ${f.handled} (${f.perSecond.toFixed(1)} per second of load) |`,
    `| largest runnable backlog | ${f.maxWaiting} jobs, ${f.maxWaitingS.toFixed(1)} s of production; oldest waiting job ${f.maxOldestS} s |`,
    `| queues drained | ${s(f.drainS)} |`,
    `| largest count of messages planned, not yet sent | ${f.maxUnsent} |`,
    `| every e-mail and webhook sent | ${s(f.sentS)} (${f.emails} e-mails, ${f.webhooks} webhook requests received) |`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
    process.stderr.write('bench:queue needs DATABASE_URL and REDIS_URL\n');
    process.exit(2);
  }
  const f = await runQueueScenario(Number(process.env.BENCH_QUEUE_RATE ?? 30), Number(process.env.BENCH_QUEUE_DURATION_S ?? 60), (l) => process.stdout.write(`${l}\n`));
  process.stdout.write(`\n${queueTable(f)}\n`);
}
