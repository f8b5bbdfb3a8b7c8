/**
 * For writes whose body is optional (only an optional csrf_token, or optional paging fields):
 * a route-level preValidation hook that treats a missing body as `{}`, so the route keeps a strict
 * object schema (`additionalProperties: false`) yet accepts a request without any body.
 * Use as `preValidation: emptyBodyAsObject`.
 */
import type { FastifyRequest } from 'fastify';

export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
