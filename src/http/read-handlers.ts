/**
 * What wraps a read's handler, in the order declared once by `registerReadHandlers`
 * (docs/architecture.md "Request flow"): outermost the retry on a terminated connection, inside it
 * the overlapped read on a read-only handle. Hooks cannot run a handler twice, so these two are
 * handler wrappers; each is a plain function of the handler, named where `registerReadHandlers`
 * composes them.
 *
 * - **Retry on a terminated connection** (docs/operations.md "Under load and faults"): a GET or
 *   HEAD handler that fails because PostgreSQL ended its connection (administrator command or
 *   crash recovery: 57P01, 57P02, 57P03; the socket closed: 08003, 08006, "Connection
 *   terminated") runs once more, on a fresh connection from the pool, before anything was sent.
 *   Writes are never retried by the server: the client retries them under an Idempotency-Key. A
 *   database that cannot be reached at all (connection refused, pool timeout) is not retried: the
 *   answer stays 503.
 * - **Overlapped read** (src/db/admission-gate.ts): a read admitted while its rate-limit round trip
 *   is still on the way runs on a read-only handle; a write it tries is refused by the database,
 *   and the handler runs once more after the admission, as an ordinary read.
 */
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { App } from './route-types.ts';
import { isTerminatedConnection } from '../db/errors.ts';
import { readOnlyScope, type ReadOnlyRun } from '../db/admission-gate.ts';

/** Pause before the second run, in milliseconds. */
const RETRY_DELAY_MS = 50;

type Handler = (this: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * The handler's answer as Fastify expects it from an async handler: a handler that sends later (a
 * callback-style one such as @fastify/static's, which returns undefined and streams the file after
 * its stat) is told apart by returning the reply, Fastify's signal for "the answer is sent
 * elsewhere"; otherwise the wrapper's undefined would end the request with an empty body.
 */
function answer(out: unknown, reply: FastifyReply): unknown {
  return out === undefined ? reply : out;
}

/** `handler`, run once more on a fresh connection when the first run's connection was terminated. */
export function retryOnTerminatedConnection(handler: Handler): Handler {
  return async function retryingRead(this: unknown, request, reply) {
    try {
      return answer(await handler.call(this, request, reply), reply);
    } catch (err) {
      if (!isTerminatedConnection(err) || reply.sent) throw err;
      request.log.warn({ err: (err as Error).message }, 'read failed on a terminated database connection; running it once more');
      // A short pause before the second run: the driver has destroyed the dead connection
      // (src/db/pg-driver.ts); a server restarting after a crash gets a moment to accept again.
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      return answer(await handler.call(this, request, reply), reply);
    }
  };
}

/** `handler` on a read-only handle while its admission is pending; run again after it if it tried to write. */
export function overlappedRead(handler: Handler): Handler {
  return async function admittedRead(this: unknown, request, reply) {
    const admission = request.admission;
    if (!admission) return handler.call(this, request, reply);
    const run: ReadOnlyRun = { refusedWrite: false };
    try {
      const out = await readOnlyScope.run(run, () => handler.call(this, request, reply));
      if (!run.refusedWrite || reply.sent) return answer(out, reply);
    } catch (err) {
      if (!run.refusedWrite || reply.sent) throw err;
    }
    // It tried to write: once admitted (a refusal throws here), it runs as an ordinary read.
    await admission;
    return answer(await handler.call(this, request, reply), reply);
  };
}

/**
 * Wraps every GET and HEAD route registered after this call (register before the modules):
 * `retryOnTerminatedConnection(overlappedRead(handler))`, or the retry alone on a read that
 * declares `config.overlap: false` (the event stream, whose answer is sent outside onSend).
 */
export function registerReadHandlers(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map((m) => String(m).toUpperCase());
    if (!methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const handler = route.handler as Handler;
    const overlaps = (route.config as { overlap?: boolean } | undefined)?.overlap !== false;
    route.handler = retryOnTerminatedConnection(overlaps ? overlappedRead(handler) : handler) as RouteHandlerMethod;
  });
}
