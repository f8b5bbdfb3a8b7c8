/**
 * Tracing (docs/operations.md "Tracing"): the SDK started as bin/caretaker.js starts it, spans to an
 * in-memory exporter. One job created over real HTTP makes one trace: the HTTP server span, the
 * Fastify request span, the SQL spans of the request, the pg-boss job that delivers the outbox
 * event to the webhook fan-out, and the webhook delivery (a real POST to a local receiver), the
 * last two in the request's trace through the traceparent stored with the outbox event and the
 * delivery. Every log line of the request carries its trace id, and X-Request-Id is that trace id.
 * Runs on PGlite and, with DATABASE_URL and REDIS_URL, on PostgreSQL and Redis.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT } from '../../src/main/app.ts';
import { backgroundHandlers, periodicTasks } from '../../src/main/background.ts';
import { startBackgroundWorker, type BackgroundWorker } from '../../src/events/worker.ts';
import { tracingEnabled, tracingWanted } from '../../src/lib/tracing.ts';
import { createLogger } from '../../src/main/startup.ts';
import { startTracing } from '../../src/main/telemetry.ts';
import { buildTestApp, csrf, logLines, standardWorld, type TestApp } from '../helpers/app.ts';
import { createProcessWorld, startCaretaker, stopAllProcesses, type ProcessWorld } from '../helpers/process.ts';
import { startReceiver } from '../messaging/webhooks/receiver.ts';

const quiet = { info: () => {}, error: () => {} };

describe('tracing: one job creation is one trace from the HTTP request to the webhook delivery', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const { lines, stream: sink } = logLines();
  let stop: (() => Promise<void>) | undefined;
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let worker: BackgroundWorker | undefined;
  let traceId = '';

  beforeAll(async () => {
    // As bin/caretaker.js does, before the database and the app are made; the loader hook is not
    // registered here (the test runner has loaded the modules already, and the SQL spans come
    // from the database layer on both engines).
    stop = await startTracing({ spanProcessors: [processor], loader: false });
    // node:http was loaded before the SDK here: one require now lets the HTTP instrumentation patch
    // it (in the server, bin/caretaker.js starts the SDK before anything loads it).
    createRequire(import.meta.url)('node:http');
    rx = await startReceiver();
    t = await buildTestApp(
      { CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true', CARETAKER_WEBHOOKS_TIMEOUT_MS: '5000' },
      { loggerInstance: createLogger({ logLevel: 'info' }, REDACT, sink) },
    );
    w = await standardWorld(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await worker?.stop(2_000);
    await t?.close();
    await rx?.close();
    await stop?.();
  });

  it('starts only when the environment asks for it', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false); // its default: still needs an endpoint
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingEnabled()).toBe(true);
  });

  it('traces POST /api/jobs/manage, its SQL, the outbox job and the webhook delivery in one trace', async () => {
    const endpoint = await w.adminA.client.post('/api/webhooks/endpoints', { url: `${rx.url}/hook`, events: ['job.created'] });
    expect(endpoint.statusCode).toBe(201);
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const token = w.agentA1.token;
    exporter.reset();
    lines.length = 0;

    const res = await fetch(`${base}/api/jobs/manage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-csrf-token': await csrf(t.app, token), 'content-type': 'application/json', 'x-request-id': 'client-chosen-1' },
      body: JSON.stringify({ title: 'Leaking tap', priority: 3 }),
    });
    expect(res.status).toBe(201);
    traceId = res.headers.get('x-request-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    // The server span ends as the answer finishes; wait for it, not on the clock.
    for (let i = 0; i < 100 && !exporter.getFinishedSpans().some((s) => s.spanContext().traceId === traceId && s.kind === 1); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await processor.forceFlush();

    // The request's spans: HTTP server span, Fastify's request span under it, SQL under that.
    const ofTrace = () => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const http = ofTrace().find((s) => s.instrumentationScope.name === '@opentelemetry/instrumentation-http' && s.kind === 1)!;
    expect(http, 'HTTP server span').toBeDefined();
    expect(http.attributes['http.response.status_code']).toBe(201);
    const request = ofTrace().find((s) => s.instrumentationScope.name === '@fastify/otel' && s.name === 'request')!;
    expect(request.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    const sql = ofTrace().filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(sql.map((s) => s.name)).toEqual(expect.arrayContaining(['INSERT jobs', 'INSERT outbox']));
    expect(sql.every((s) => typeof s.attributes['db.query.text'] === 'string' && !String(s.attributes['db.query.text']).includes('Leaking tap'))).toBe(true);
    expect(sql[0]!.attributes['caretaker.db.engine']).toBe(t.deps.engine);
    expect(new Set(sql.map((s) => s.parentSpanContext?.spanId)).has(undefined)).toBe(false);

    // The outbox row carries the request's traceparent.
    const row = await t.db.selectFrom('outbox').select(['name', 'traceparent']).where('name', '=', 'job.created').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // The real queue: the relay moves the event to pg-boss, the fan-out job queues the delivery.
    worker = await startBackgroundWorker(t.deps, t.database, backgroundHandlers(), [], quiet);
    const handled = async () => ofTrace().find((s) => s.name === 'webhooks.fanout job.created');
    for (let i = 0; i < 200 && !(await handled()); i++) {
      await worker.relayOnce();
      await new Promise((r) => setTimeout(r, 50));
    }
    const fanout = (await handled())!;
    expect(fanout, 'the outbox job span').toBeDefined();
    expect(fanout.kind).toBe(4); // consumer
    expect(fanout.attributes['messaging.system']).toBe('pg-boss');
    expect(fanout.attributes['messaging.destination.name']).toBe('handler.webhooks.fanout');
    expect(fanout.links.map((l) => l.context.traceId).length).toBeGreaterThan(0); // pg-boss's own `process` span
    expect(ofTrace().some((s) => s.name === 'INSERT webhook_deliveries' && s.parentSpanContext?.spanId === fanout.spanContext().spanId)).toBe(true);

    // The delivery (the minute task, run now) is in the same trace, and its POST carries traceparent.
    const before = rx.received.length;
    await periodicTasks().find((p) => p.name === 'webhooks.deliver')!.run(t.deps);
    expect(rx.received.length - before).toBe(1);
    await processor.forceFlush();
    const delivery = ofTrace().find((s) => s.name === 'webhook job.created')!;
    expect(delivery, 'the webhook delivery span').toBeDefined();
    expect(delivery.parentSpanContext?.spanId).toBe(fanout.spanContext().spanId);
    const post = ofTrace().find((s) => s.kind === 2 && s.parentSpanContext?.spanId === delivery.spanContext().spanId && s.attributes['http.request.method'] === 'POST');
    expect(post, 'the outgoing POST').toBeDefined();
    expect(post!.attributes['http.response.status_code']).toBe(200);
    expect(rx.received.at(-1)!.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-`));

    // Every span of the trace hangs from the HTTP span (once the other handlers of job.created,
    // in the same trace, have finished too).
    await worker.stop(10_000);
    worker = undefined;
    await processor.forceFlush();
    const ids = new Set(ofTrace().map((s: ReadableSpan) => s.spanContext().spanId));
    for (const s of ofTrace()) if (s !== http) expect(ids.has(s.parentSpanContext!.spanId), s.name).toBe(true);
  });

  it('puts the trace id in every log line of the request, and keeps a client X-Request-Id apart', () => {
    const ofRequest = lines.filter((l) => l.reqId === traceId);
    expect(ofRequest.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'client X-Request-Id replaced', 'request completed']));
    for (const line of ofRequest) {
      expect(line.trace_id, String(line.msg)).toBe(traceId);
      expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(ofRequest.find((l) => l.msg === 'client X-Request-Id replaced')).toMatchObject({ client_request_id: 'client-chosen-1' });
  });
});

/** An OTLP/HTTP receiver speaking the JSON encoding: keeps every span with its scope, and the headers. */
async function startOtlpReceiver() {
  const spans: Array<{ scope: string; service: unknown; name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number; attributes: Record<string, unknown> }> = [];
  const headers: Array<Record<string, string | string[] | undefined>> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      headers.push(req.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        resourceSpans?: Array<{
          resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans: Array<{ scope: { name: string }; spans: Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number; attributes?: Array<{ key: string; value: Record<string, unknown> }> }> }>;
        }>;
      };
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            const attributes = Object.fromEntries((s.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
            spans.push({ scope: ss.scope.name, service, name: s.name, traceId: s.traceId, spanId: s.spanId, ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}), kind: s.kind, attributes });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('tracing from the entry point: `caretaker serve` exports over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
  const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  let world: ProcessWorld;
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    world = await createProcessWorld(engine);
  });
  afterAll(async () => {
    await stopAllProcesses();
    await otlp?.close();
    await world?.drop();
  });

  it('sends the HTTP, Fastify and SQL spans of a login, with ioredis spans on Redis, honouring the OTEL_* variables', async () => {
    const server = await startCaretaker({
      ...world.env,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=test-key',
      OTEL_SERVICE_NAME: 'caretaker-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    await server.waitReady();
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: world.admin.email, password: world.admin.password }),
    });
    expect(res.status, server.log).toBe(200);
    const traceId = res.headers.get('x-request-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const ofTrace = () => otlp.spans.filter((s) => s.traceId === traceId);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !ofTrace().some((s) => s.scope === '@opentelemetry/instrumentation-http')) await new Promise((r) => setTimeout(r, 50));

    const spans = ofTrace();
    const serverSpan = spans.find((s) => s.scope === '@opentelemetry/instrumentation-http' && s.kind === 2)!; // OTLP: 2 = server
    expect(serverSpan, JSON.stringify(spans.map((s) => [s.scope, s.name]))).toBeDefined();
    expect(serverSpan.name).toBe('POST /api/auth/login');
    expect(serverSpan.service).toBe('caretaker-test');
    expect(spans.some((s) => s.scope === '@fastify/otel' && s.parentSpanId === serverSpan.spanId)).toBe(true);
    expect(spans.filter((s) => s.attributes['db.system.name'] === 'postgresql').map((s) => s.attributes['caretaker.db.engine'])).toContain(engine);
    // The pg instrumentation is suppressed under the database layer's spans: one span per statement.
    expect(spans.filter((s) => s.scope === '@opentelemetry/instrumentation-pg')).toEqual([]);
    // ioredis is an ES module here: its spans prove the loader hook was registered before it loaded.
    if (process.env.REDIS_URL) expect(spans.some((s) => s.scope === '@opentelemetry/instrumentation-ioredis')).toBe(true);
    expect(otlp.headers.every((h) => h['x-collector-key'] === 'test-key')).toBe(true);

    // The child's log comes through a pipe, and may arrive after the spans, which come over HTTP.
    const ofRequest = () => server.json().filter((l) => l.reqId === traceId);
    const logDeadline = Date.now() + 10_000;
    while (Date.now() < logDeadline && !ofRequest().some((l) => l.msg === 'request completed')) await new Promise((r) => setTimeout(r, 50));
    const lines = ofRequest();
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(lines.every((l) => l.trace_id === traceId)).toBe(true);
    server.signal('SIGTERM');
    expect((await server.waitExit(20_000)).code).toBe(0);
  });
});
