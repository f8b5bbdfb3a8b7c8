/**
 * CSRF tokens (spec 5.3; docs/api.md "Decisions on the spec's gaps"; docs/security.md promise 6): single-use, bound to the bearer token or
 * session they were issued to, stored as SHA-256 (in Redis, else the database: src/core/csrf-store.ts),
 * used up atomically so two concurrent requests with one token cannot both pass.
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../app-deps.ts';
import { addSeconds, SECONDS } from '../lib/clock.ts';
import { hashToken, isTokenShaped, newToken } from '../lib/crypto.ts';
import type { AuthContext } from '../core/auth-context.ts';
import { AppError } from '../core/errors.ts';
import { CSRF_FIELD_DESCRIPTION } from './route-types.ts';

/** Lifetime of an unused CSRF token in seconds. */
export const CSRF_TTL_S = 2 * SECONDS.hour;

/**
 * Issues a CSRF token for the caller's current token or session.
 * @returns the raw token (64 hex) and its expiry
 */
export async function issueCsrfToken(deps: AppDeps, auth: AuthContext): Promise<{ token: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const token = newToken();
  const expiresAt = addSeconds(now, CSRF_TTL_S);
  await deps.csrf.issue({ authTokenId: auth.tokenId, tokenHash: hashToken(token) }, now, expiresAt);
  return { token, expiresAt };
}

/**
 * The CSRF token a request carries: header X-CSRF-Token, or body field csrf_token (JSON or form).
 * Never the query string.
 */
export function presentedCsrfToken(request: FastifyRequest): string | undefined {
  const header = request.headers['x-csrf-token'];
  if (typeof header === 'string' && header.length > 0) return header;
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const field = (body as Record<string, unknown>).csrf_token;
    if (typeof field === 'string') return field;
    // multipart bodies attached as fields carry { value }
    if (field && typeof field === 'object' && typeof (field as { value?: unknown }).value === 'string') {
      return (field as { value: string }).value;
    }
  }
  return undefined;
}

/**
 * Consumes the presented token for the caller's session.
 * @throws 403 'Invalid or missing CSRF token' when missing, unknown, used, expired or issued to
 *   another session
 */
export async function consumeCsrfToken(deps: AppDeps, auth: AuthContext, presented: string | undefined): Promise<void> {
  if (!presented || !isTokenShaped(presented)) throw new AppError('csrf');
  const now = deps.clock.now();
  if (!(await deps.csrf.use({ authTokenId: auth.tokenId, tokenHash: hashToken(presented) }, now))) throw new AppError('csrf');
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * True for the routes whose writes need a CSRF token from a logged-in caller: POST, PUT, PATCH
 * and DELETE behind a login (not 'public'), except the token-issuing writes (`config.csrf: false`).
 */
export function takesCsrfToken(route: Pick<RouteOptions, 'method' | 'config'>): boolean {
  const config = route.config as { permission?: string; csrf?: boolean } | undefined;
  if ((config?.permission ?? 'public') === 'public' || config?.csrf === false) return false;
  return [route.method].flat().some((m) => WRITE_METHODS.has(String(m).toUpperCase()));
}

/** The optional body field every CSRF-checked JSON or form body may carry (spec 5.3). */
const CSRF_FIELD = Type.Optional(Type.String({ description: CSRF_FIELD_DESCRIPTION }));

/**
 * The body schema with the optional `csrf_token` property added: to an object schema's
 * properties, or to each branch of an `anyOf`/`oneOf`. A schema that already declares the field,
 * or that is not an object schema, is returned unchanged. The route schemas themselves do not
 * declare the field: the pipeline adds it (here, for validation and the OpenAPI document) and
 * removes it from the body before validation (`dropCsrfField`), so handlers never see it.
 */
export function withCsrfField(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const schema = body as { properties?: Record<string, unknown>; anyOf?: unknown[]; oneOf?: unknown[] };
  if (schema.properties && typeof schema.properties === 'object') {
    if ('csrf_token' in schema.properties) return body;
    return { ...schema, properties: { ...schema.properties, csrf_token: CSRF_FIELD } };
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: schema.anyOf.map(withCsrfField) };
  if (Array.isArray(schema.oneOf)) return { ...schema, oneOf: schema.oneOf.map(withCsrfField) };
  return body;
}

/** Removes the `csrf_token` field from a parsed JSON or form body, once the token has been checked. */
export function dropCsrfField(body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return;
  if (Object.hasOwn(body, 'csrf_token')) delete (body as Record<string, unknown>).csrf_token;
}
