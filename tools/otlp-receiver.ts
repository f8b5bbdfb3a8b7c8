/**
 * A collector-like OTLP/HTTP receiver for a look at Caretaker's traces without a tracing backend
 * (docs/operations.md "Tracing"): listens on 127.0.0.1:4318 (OTLP_RECEIVER_PORT), accepts
 * `POST /v1/traces` in the JSON encoding (start Caretaker with OTEL_EXPORTER_OTLP_PROTOCOL=http/json)
 * and prints each trace as an indented tree once no span of it has arrived for a second:
 * duration, span name, scope and a few attributes. Not for production: use an OpenTelemetry
 * Collector, Jaeger, Tempo or a vendor there.
 *
 *   node tools/otlp-receiver.ts
 */
import http from 'node:http';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  links?: Array<{ traceId: string; spanId: string }>;
}

const port = Number(process.env.OTLP_RECEIVER_PORT ?? 4318);
const SHOWN = ['http.response.status_code', 'db.query.text', 'messaging.destination.name', 'caretaker.event.name', 'server.address', 'url.full'];
const traces = new Map<string, { spans: Array<Span & { scope: string; service: string }>; timer?: NodeJS.Timeout }>();

function value(v: Record<string, unknown>): unknown {
  return Object.values(v)[0];
}

function print(traceId: string): void {
  const trace = traces.get(traceId);
  traces.delete(traceId);
  if (!trace) return;
  const ids = new Set(trace.spans.map((s) => s.spanId));
  const children = new Map<string, typeof trace.spans>();
  for (const s of trace.spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : '';
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const lines: string[] = [`trace ${traceId} (${trace.spans.length} spans, service ${trace.spans[0]?.service})`];
  const walk = (parent: string, depth: number) => {
    const list = (children.get(parent) ?? []).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
    for (const s of list) {
      const ms = Number(BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1e6;
      const attrs = (s.attributes ?? []).filter((a) => SHOWN.includes(a.key)).map((a) => `${a.key}=${JSON.stringify(value(a.value)).slice(0, 80)}`);
      const linked = s.links?.length ? ` links=${s.links.length}` : '';
      lines.push(`${'  '.repeat(depth + 1)}${ms.toFixed(1).padStart(7)} ms  ${s.name}  [${s.scope}]${attrs.length ? `  ${attrs.join(' ')}` : ''}${linked}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk('', 0);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
      res.writeHead(415, { 'content-type': 'text/plain' });
      res.end('POST /v1/traces with OTLP JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)\n');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      resourceSpans?: Array<{ resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> }; scopeSpans: Array<{ scope: { name: string }; spans: Span[] }> }>;
    };
    for (const rs of body.resourceSpans ?? []) {
      const service = String(value(rs.resource.attributes.find((a) => a.key === 'service.name')?.value ?? { s: '?' }));
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          const trace = traces.get(span.traceId) ?? { spans: [] };
          trace.spans.push({ ...span, scope: ss.scope.name, service });
          clearTimeout(trace.timer);
          trace.timer = setTimeout(() => print(span.traceId), 1_000);
          traces.set(span.traceId, trace);
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`OTLP/HTTP JSON receiver on http://127.0.0.1:${port}/v1/traces\n`));
