/**
 * Reads retried once on a connection the database server terminated (docs/operations.md "Under
 * load and faults"): a GET or HEAD handler that fails because PostgreSQL ended its connection
 * (administrator command or crash recovery: 57P01, 57P02, 57P03; the socket closed: 08003,
 * 08006, "Connection terminated") runs once more, on a fresh connection from the pool, before
 * anything was sent. Writes are never retried by the server: the client retries them under an
 * Idempotency-Key. A database that cannot be reached at all (connection refused, pool timeout) is
 * not retried: the answer stays 503.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './route-types.ts';
import { isTerminatedConnection } from '../db/errors.ts';

/** Pause before the second run, in milliseconds. */
const RETRY_DELAY_MS = 50;

/** Wraps every GET and HEAD route registered after this call (register before the modules). */
export function registerReadRetry(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map((m) => String(m).toUpperCase());
    if (!methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const handler = route.handler;
    route.handler = async function retryingRead(this: unknown, request: FastifyRequest, reply: FastifyReply) {
      try {
        // A handler that sends later (a callback-style one such as @fastify/static's, which
        // returns undefined and streams the file after its stat) is told apart by returning the
        // reply, Fastify's signal for "the answer is sent elsewhere"; otherwise this async
        // wrapper's undefined would end the request with an empty body.
        const out: unknown = await handler.call(this as never, request, reply);
        return out === undefined ? reply : out;
      } catch (err) {
        if (!isTerminatedConnection(err) || reply.sent) throw err;
        request.log.warn({ err: (err as Error).message }, 'read failed on a terminated database connection; running it once more');
        // A short pause before the second run: the driver has destroyed the dead connection
        // (src/db/pg-driver.ts); a server restarting after a crash gets a moment to accept again.
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        const again: unknown = await handler.call(this as never, request, reply);
        return again === undefined ? reply : again;
      }
    };
  });
}
