/** The Fastify instance type every module registers its routes on (TypeBox type provider). */
import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthContext } from '../core/auth-context.ts';
import { AppError } from '../core/errors.ts';
import type { FastifyRequest } from 'fastify';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The caller of a route that requires authentication (never null there). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('unauthenticated');
  return request.auth;
}

/** The actor of an activity-log entry: caller and IP. */
export function actorOf(request: FastifyRequest) {
  return { auth: request.auth, ip: request.ip };
}

/** Description of the body field `csrf_token` the pipeline adds to every CSRF-checked write (spec 5.3; src/http/csrf.ts). */
export const CSRF_FIELD_DESCRIPTION = 'CSRF token from GET /api/security/csrf-token (or send X-CSRF-Token)';
