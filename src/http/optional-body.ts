/**
 * For writes whose body is optional (only an optional csrf_token, or optional paging fields):
 * a route-level preValidation hook that treats a missing body as `{}`, so the route keeps a strict
 * object schema (`additionalProperties: false`) yet accepts a request without any body.
 * Use as `preValidation: emptyBodyAsObject`.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { CSRF_FIELD_DESCRIPTION } from './route-types.ts';

export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/** Body of a write that carries nothing but an optional csrf_token (use with emptyBodyAsObject). */
export const CsrfOnlyBody = Type.Object(
  { csrf_token: Type.Optional(Type.String({ description: CSRF_FIELD_DESCRIPTION })) },
  { additionalProperties: false, description: 'optional: may be left out entirely' },
);
