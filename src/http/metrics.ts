/**
 * Prometheus metrics (docs/operations.md): GET /api/system/metrics in the text exposition format,
 * behind the permission key `api.system.metrics.view`.
 *
 * - caretaker_http_requests_total{method,route,status}: counter per route template (never the
 *   raw URL, so ids do not explode the label set);
 * - caretaker_http_request_duration_seconds{method,route,status}: latency histogram;
 * - caretaker_db_pool_connections{state=total|idle|waiting}: the pg pool (PostgreSQL only);
 * - caretaker_db_read_pool_connections{state=total|idle|waiting}: the read-only pool of the overlapped reads (PostgreSQL without a pooler);
 * - caretaker_rate_limit_refusals_total{route}: 429 answers;
 * - caretaker_process_* / caretaker_nodejs_*: prom-client's default process metrics.
 *
 * One registry per app (tests build many apps in one process). Counting is one Map lookup and two
 * increments per response: the label children are cached per (method, route, status).
 * With `serve --workers N` each worker keeps its own figures; a scrape reaches one worker.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';
import type { AppDeps } from '../app-deps.ts';
import type { App } from './route-types.ts';
import { fileResponse, responses } from './envelope.ts';

/** What the background-work gauges read, handed in by the composition root (src/modules/platform/platform). */
export interface BackgroundFigures {
  /** Jobs per queue and state, and the oldest waiting age in seconds. */
  queueFigures(): Promise<Array<{ name: string; counts: Record<string, number> & { created: number; retry: number; failed: number }; oldest_waiting_s: number | null }>>;
  /** Committed events not yet relayed, and the age of the oldest in seconds. */
  outboxLag(): Promise<{ unpublished: number; lag_s: number }>;
}

/**
 * Background-work gauges (docs/events.md), read from the database at scrape time:
 * caretaker_queue_depth{queue} (runnable jobs waiting), caretaker_queue_failed{queue} (jobs failed
 * for good), caretaker_queue_oldest_waiting_seconds{queue}, caretaker_outbox_unpublished and
 * caretaker_event_lag_seconds (age of the oldest committed event not yet relayed).
 */
function registerQueueGauges(register: Registry, background: BackgroundFigures): void {
  let pending: Promise<Awaited<ReturnType<BackgroundFigures['queueFigures']>>> | undefined;
  // One read per scrape serves the three per-queue gauges.
  const figures = () => {
    pending ??= background.queueFigures().finally(() => setTimeout(() => (pending = undefined), 0));
    return pending;
  };
  const perQueue = (name: string, help: string, pick: (q: Awaited<ReturnType<BackgroundFigures['queueFigures']>>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers: [register],
      async collect() {
        this.reset();
        for (const q of await figures().catch(() => [])) this.set({ queue: q.name }, pick(q));
      },
    });
  perQueue('caretaker_queue_depth', 'Runnable jobs waiting per queue (created + retry)', (q) => q.counts.created + q.counts.retry);
  perQueue('caretaker_queue_failed', 'Jobs failed for good per queue (after the last retry)', (q) => q.counts.failed);
  perQueue('caretaker_queue_oldest_waiting_seconds', 'Age of the oldest runnable job per queue', (q) => q.oldest_waiting_s ?? 0);
  let lag: Promise<{ unpublished: number; lag_s: number }> | undefined;
  const readLag = () => {
    lag ??= background.outboxLag().finally(() => setTimeout(() => (lag = undefined), 0));
    return lag;
  };
  new Gauge({
    name: 'caretaker_outbox_unpublished',
    help: 'Committed domain events not yet handed to the queue',
    registers: [register],
    async collect() {
      this.set((await readLag().catch(() => ({ unpublished: 0, lag_s: 0 }))).unpublished);
    },
  });
  new Gauge({
    name: 'caretaker_event_lag_seconds',
    help: 'Age of the oldest committed domain event not yet handed to the queue (0 when none)',
    registers: [register],
    async collect() {
      this.set((await readLag().catch(() => ({ unpublished: 0, lag_s: 0 }))).lag_s);
    },
  });
}

/** Latency buckets in seconds: 1 ms to 5 s. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Children {
  count: { inc(): void };
  latency: { observe(v: number): void };
}

/**
 * Registers the metrics: the onResponse counting hook (on the root instance, so it sees every
 * route) and the GET /api/system/metrics route.
 */
export function registerMetrics(app: App, deps: AppDeps, background?: BackgroundFigures): void {
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'caretaker_' });
  const requests = new Counter({
    name: 'caretaker_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [register],
  });
  const latency = new Histogram({
    name: 'caretaker_http_request_duration_seconds',
    help: 'Time from request received to response sent, in seconds',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [register],
  });
  const refusals = new Counter({
    name: 'caretaker_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by route template',
    labelNames: ['route'] as const,
    registers: [register],
  });
  const pool = deps.pool;
  /** A gauge of a pg pool's connections: total open, idle, and callers waiting (nothing without the pool). */
  const poolGauge = (name: string, help: string, counted: pg.Pool | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        if (!counted) return;
        this.set({ state: 'total' }, counted.totalCount);
        this.set({ state: 'idle' }, counted.idleCount);
        this.set({ state: 'waiting' }, counted.waitingCount);
      },
    });
  poolGauge('caretaker_db_pool_connections', 'PostgreSQL pool connections: total open, idle, and callers waiting for one', pool);
  poolGauge('caretaker_db_read_pool_connections', 'PostgreSQL read-only pool connections (the overlapped reads): total open, idle, and callers waiting for one', deps.readPool);
  new Gauge({
    name: 'caretaker_db_pool_max',
    help: 'Configured maximum of the PostgreSQL pool (DATABASE_POOL_MAX); 1 for PGlite',
    registers: [register],
    collect() {
      this.set(pool ? deps.config.databasePoolMax : 1);
    },
  });

  if (background) registerQueueGauges(register, background);

  const children = new Map<string, Children>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${request.method} ${route} ${status}`;
    let c = children.get(key);
    if (!c) {
      const labels = { method: request.method, route, status: String(status) };
      c = { count: requests.labels(labels), latency: latency.labels(labels) };
      children.set(key, c);
    }
    c.count.inc();
    c.latency.observe(reply.elapsedTime / 1000);
    if (status === 429) refusals.inc({ route });
    done();
  });

  /** GET /api/system/metrics: Prometheus text format (not the JSON envelope). */
  app.get('/api/system/metrics', {
    config: { permission: 'api.system.metrics.view' },
    schema: {
      tags: ['system'],
      summary: 'Prometheus metrics',
      description:
        'Text exposition format 0.0.4 for a Prometheus scraper (send the bearer token of an account holding ' +
        'api.system.metrics.view: SysOps or an API account). Request counts and latency histograms by method, ' +
        'route and status; PostgreSQL pool use; rate-limit refusals; process metrics. Errors use the JSON envelope.',
      response: responses(fileResponse(['text/plain; version=0.0.4'], 'Prometheus text exposition format'), [401, 403, 429]),
    },
    handler: async (_request, reply) => {
      const text = await register.metrics();
      void reply.type(register.contentType);
      return text;
    },
  });
}
