/**
 * Request ids (docs/security.md "Request ids"): the one place that decides a request's id. A
 * client's `X-Request-Id` is kept only when it is a bounded safe token: 1 to 128 characters of
 * `A-Z a-z 0-9 . _ : -`. Anything else (too long, spaces, control or non-ASCII characters, several
 * headers) is replaced by a generated UUID, and the client's value is logged apart, cut to 200
 * characters, in the field `client_request_id` of one info line, never as the request's id.
 *
 * With tracing on (docs/operations.md "Tracing") the request's id is its trace id (32 lower-case
 * hex characters), so a log line, an answer and a trace name the same thing; a client chooses it
 * by sending a W3C `traceparent`, and a client's `X-Request-Id` is logged as above. Every answer
 * carries the request's id in `X-Request-Id`.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { currentTraceId } from '../lib/tracing.ts';
import { cutGraphemes } from '../lib/text-cut.ts';

/** A client-supplied request id that is kept. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id for an incoming request: the trace id of its HTTP span while tracing is on, else
 * the client's `X-Request-Id` when safe, else a new UUID.
 */
export function requestIdFor(req: IncomingMessage): string {
  const traceId = currentTraceId();
  if (traceId !== undefined) return traceId;
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Sends the request's id in the `X-Request-Id` of every answer, and logs a client `X-Request-Id`
 * that was not kept, apart from the request's own id.
 */
export function registerRequestIdLog(app: FastifyInstance): void {
  // A callback hook, not an async one: it awaits nothing, and an async hook costs every request a
  // promise and a microtask turn.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    void reply.header('x-request-id', request.id);
    const given = request.headers['x-request-id'];
    if (given !== undefined && given !== request.id) {
      const text = Array.isArray(given) ? given.join(', ') : String(given);
      request.log.info({ client_request_id: cutGraphemes(text, 200), client_request_id_length: text.length }, 'client X-Request-Id replaced');
    }
    done();
  });
}
