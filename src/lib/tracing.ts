/**
 * Tracing as the rest of the code sees it (docs/operations.md "Tracing"). This file loads nothing
 * of OpenTelemetry: when tracing is off (no `OTEL_EXPORTER_OTLP_ENDPOINT`), every function here is
 * a check of one variable and a direct call, and the SDK is never imported. When it is on,
 * src/main/telemetry.ts (imported dynamically by bin/caretaker.js before the application) starts the
 * SDK and hands its API here with `installTracing`.
 *
 * What crosses a process boundary is the W3C `traceparent` string
 * (`00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`): stored with an outbox event and with a
 * webhook delivery, so the job and the delivery made later are spans of the request's trace.
 */
import type * as OtelApi from '@opentelemetry/api';

/** What src/main/telemetry.ts installs once the SDK runs. */
export interface InstalledTracing {
  api: typeof OtelApi;
  tracer: OtelApi.Tracer;
  /** The context with instrumentation suppressed (`suppressTracing` of @opentelemetry/core). */
  suppress(context: OtelApi.Context): OtelApi.Context;
  /** Flushes and stops the SDK. */
  shutdown(): Promise<void>;
}

let installed: InstalledTracing | undefined;

/**
 * True when the environment asks for traces (the condition bin/caretaker.js checks before loading
 * the SDK): `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set, or
 * `OTEL_TRACES_EXPORTER` including `console`; never when `OTEL_SDK_DISABLED` is `true` or
 * `OTEL_TRACES_EXPORTER` is `none`. `OTEL_TRACES_EXPORTER=otlp` alone (its default) does not.
 * @param env the process environment
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase());
  if (exporters.includes('none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || exporters.includes('console'));
}

/** Called by src/main/telemetry.ts once the SDK runs; `undefined` turns tracing off again (tests). */
export function installTracing(tracing: InstalledTracing | undefined): void {
  installed = tracing;
}

/** True while the SDK runs in this process. */
export function tracingEnabled(): boolean {
  return installed !== undefined;
}

/** Flushes the spans not yet exported and stops the SDK (graceful shutdown); nothing when off. */
export async function shutdownTracing(): Promise<void> {
  const t = installed;
  if (!t) return;
  await t.shutdown().catch(() => undefined);
}

/** The active span's ids for a log line (`trace_id`, `span_id`: lower-case hex), or undefined. */
export function traceLogFields(): { trace_id: string; span_id: string } | undefined {
  if (!installed) return undefined;
  const span = installed.api.trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * pino options adding `trace_id` and `span_id` to each line written inside a span while tracing
 * is on (`{ mixin }`); `{}` when off, so the logger does no extra work.
 */
export function traceLogMixin(): { mixin?: () => object } {
  return installed ? { mixin: () => traceLogFields() ?? {} } : {};
}

/** The active trace id (32 lower-case hex characters), or undefined when off or outside a span. */
export function currentTraceId(): string | undefined {
  return installed?.api.trace.getActiveSpan()?.spanContext().traceId;
}

/** The active span as a W3C `traceparent` string, or null when off or outside a span. */
export function currentTraceparent(): string | null {
  if (!installed) return null;
  const { api } = installed;
  if (!api.trace.getActiveSpan()) return null;
  const carrier: Record<string, string> = {};
  api.propagation.inject(api.context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Options of `inSpan`. */
export interface SpanOptions {
  /** 'internal' (default), 'client' (outgoing call), 'consumer' (a queued job). */
  kind?: 'internal' | 'client' | 'consumer';
  attributes?: Record<string, string | number | boolean | undefined>;
  /**
   * A W3C `traceparent` stored with the work (outbox event, webhook delivery): the span becomes a
   * child of that span, in the request's trace, and keeps a link to the span active here (the
   * worker's task), if any.
   */
  traceparent?: string | null | undefined;
  /**
   * Start only inside an active span or with a `traceparent` (no root spans for polling), and only
   * when that parent is sampled (a request the sampler left out makes no SQL spans).
   */
  requireParent?: boolean;
  /** Suppress the instrumentations inside (the pg instrumentation under a database span). */
  suppressInside?: boolean;
}

/**
 * Runs `fn` inside a new span that ends when `fn` settles; an error is recorded on the span
 * (status ERROR) and rethrown unchanged. When tracing is off it is `fn()` and nothing else.
 * @param name span name, e.g. `process handler.webhooks.fanout`
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  if (!installed) return fn();
  const { api, tracer } = installed;
  let parent = api.context.active();
  const local = api.trace.getSpanContext(parent);
  const links: OtelApi.Link[] = [];
  if (options.traceparent) {
    const remote = api.propagation.extract(api.ROOT_CONTEXT, { traceparent: options.traceparent });
    if (api.trace.getSpanContext(remote)) {
      if (local) links.push({ context: local });
      parent = remote;
    }
  }
  if (options.requireParent) {
    const parentContext = api.trace.getSpanContext(parent);
    if (!parentContext) return fn();
    // A parent left out by the sampler (OTEL_TRACES_SAMPLER) has no recorded children: make none.
    if ((parentContext.traceFlags & api.TraceFlags.SAMPLED) === 0) return options.suppressInside ? api.context.with(installed.suppress(parent), fn) : fn();
  }
  const kind = options.kind === 'client' ? api.SpanKind.CLIENT : options.kind === 'consumer' ? api.SpanKind.CONSUMER : api.SpanKind.INTERNAL;
  const attributes: OtelApi.Attributes = {};
  for (const [k, v] of Object.entries(options.attributes ?? {})) if (v !== undefined) attributes[k] = v;
  const span = tracer.startSpan(name, { kind, attributes, links }, parent);
  let inner = api.trace.setSpan(parent, span);
  if (options.suppressInside) inner = installed.suppress(inner);
  return api.context.with(inner, fn).then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      span.end();
      throw err;
    },
  );
}
