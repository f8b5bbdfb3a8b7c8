/**
 * Request ids (docs/security.md "Request ids", docs/api.md "Headers"): the one place that decides
 * a request's id. The server makes it, one per request: a client cannot give two requests the same
 * id. A client's `X-Request-Id` is never the request's id; it is logged apart as a correlation
 * field, `client_request_id` (cut to 200 characters, with `client_request_id_length`), on one info
 * line carrying the request's own id, so a client's value can be traced to the server's id.
 *
 * With tracing on (docs/operations.md "Tracing") the request's id is its trace id (32 lower-case
 * hex characters), so a log line, an answer and a trace name the same thing; a client continuing
 * its own trace shares it on purpose by sending a W3C `traceparent` (the span id stays the
 * server's). Every answer carries the request's id in `X-Request-Id`.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { currentTraceId } from '../lib/tracing.ts';
import { cutGraphemes } from '../lib/text-cut.ts';

/**
 * The request id for an incoming request: the trace id of its HTTP span while tracing is on, else
 * a new UUID; never the client's `X-Request-Id`.
 * @param _req the request (its headers are not read: the id is the server's)
 */
export function requestIdFor(_req: IncomingMessage): string {
  return currentTraceId() ?? randomUUID();
}

/**
 * Sends the request's id in the `X-Request-Id` of every answer, and logs a client's
 * `X-Request-Id` apart from the request's own id (`client_request_id`, one info line).
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
