/**
 * Request ids (docs/security.md "Request ids"): the one place that decides a request's id. A
 * client's `X-Request-Id` is kept only when it is a bounded safe token: 1 to 128 characters of
 * `A-Z a-z 0-9 . _ : -`. Anything else (too long, spaces, control or non-ASCII characters, several
 * headers) is replaced by a generated UUID, and the client's value is logged apart, cut to 200
 * characters, in the field `client_request_id` of one info line, never as the request's id.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** A client-supplied request id that is kept. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id for an incoming request: the client's when safe, else a new UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Logs a client `X-Request-Id` that was not kept, apart from the request's own id. */
export function registerRequestIdLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const given = request.headers['x-request-id'];
    if (given === undefined || given === request.id) return;
    const text = Array.isArray(given) ? given.join(', ') : String(given);
    request.log.info({ client_request_id: text.slice(0, 200), client_request_id_length: text.length }, 'client X-Request-Id replaced');
  });
}
