/**
 * Starts OpenTelemetry tracing (docs/operations.md "Tracing"). Loaded only when tracing is wanted
 * (`tracingWanted` of src/lib/tracing.ts: `OTEL_EXPORTER_OTLP_ENDPOINT` set), by a dynamic import
 * in bin/caretaker.js before the application's modules load; with tracing off this file and the
 * SDK are never imported.
 *
 * - The SDK is the project's official Node SDK (`@opentelemetry/sdk-node`), configured from the
 *   standard `OTEL_*` variables (exporter, endpoint, headers, protocol, service name, resource
 *   attributes, sampler, batch sizes). Only traces are exported: no metrics (those are Prometheus,
 *   docs/operations.md "Metrics") and no log records (the trace id is in each log line instead).
 * - Instrumentations: HTTP (server and outgoing calls, `@opentelemetry/instrumentation-http`),
 *   Fastify (`@fastify/otel`, the instrumentation the Fastify project maintains), pg (pg-boss's
 *   own queries on PostgreSQL) and ioredis. The application's SQL spans come from the database
 *   layer on both engines (src/db/query-tracing.ts), which suppresses the pg instrumentation under
 *   them so a query is one span.
 * - pg, pg-boss and ioredis are loaded as ES modules, so the import-in-the-middle loader hook is
 *   registered here (`module.register`), limited to the modules the instrumentations hook, before
 *   any of them loads.
 */
import { register } from 'node:module';
import * as api from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { installTracing } from '../lib/tracing.ts';

/** Options of startTracing (tests). */
export interface StartTracingOptions {
  /** Span processors to use instead of the exporter the environment names (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
  /** Register the import-in-the-middle loader hook (default true; false where modules are already loaded). */
  loader?: boolean;
}

/** The service name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one. */
export const DEFAULT_SERVICE_NAME = 'caretaker';

/**
 * Starts the SDK and the instrumentations and installs them for src/lib/tracing.ts.
 * @returns a function that flushes, stops the SDK and turns the instrumentations off
 */
export async function startTracing(options: StartTracingOptions = {}): Promise<() => Promise<void>> {
  let acknowledged: (() => Promise<void>) | undefined;
  if (options.loader !== false) {
    const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
    register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
    acknowledged = waitForAllMessagesAcknowledged;
  }
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }, fastifyOtel] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@fastify/otel'),
  ]);
  const instrumentations = [
    new HttpInstrumentation({
      // Probes and metrics scrapes are not traced: they would be most of the spans.
      ignoreIncomingRequestHook: (req) => /^\/(livez|readyz|metrics)(\?|$)/.test(req.url ?? ''),
    }),
    // The request span with its route. No span per plugin hook (they would be most of a trace's
    // spans) and none for the route handler (it would repeat the request span's start and end).
    new fastifyOtel.FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      instrumentHandler: false,
      ignorePaths: (o) => /^\/(livez|readyz|metrics)(\?|$)/.test(o.url),
    }),
    // Only inside a span (a request, a job): pg-boss's polling makes no root spans.
    new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
  const env = process.env;
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '') ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    instrumentations: instrumentations as ConstructorParameters<typeof NodeSDK>[0] extends infer C ? C extends { instrumentations?: infer I } ? I : never : never,
    metricReaders: [],
    logRecordProcessors: [],
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
  });
  sdk.start();
  await acknowledged?.();
  installTracing({
    api,
    tracer: api.trace.getTracer('caretaker'),
    suppress: (context) => suppressTracing(context),
    shutdown: () => sdk.shutdown(),
  });
  return async () => {
    installTracing(undefined);
    await sdk.shutdown().catch(() => undefined);
    for (const instrumentation of instrumentations) instrumentation.disable();
    api.trace.disable();
    api.context.disable();
    api.propagation.disable();
  };
}
