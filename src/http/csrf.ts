/**
 * CSRF tokens (spec 5.3; docs/api.md "Decisions on the spec's gaps"; docs/security.md promise 6): single-use, bound to the bearer token or
 * session they were issued to, stored as SHA-256, consumed by one atomic UPDATE so two concurrent
 * requests with one token cannot both pass.
 */
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { addSeconds, SECONDS } from '../lib/clock.ts';
import { hashToken, isTokenShaped, newToken } from '../lib/crypto.ts';
import type { AuthContext } from './auth-context.ts';
import { AppError } from './errors.ts';
import { markCsrfTokenUsed, replaceCsrfTokens } from './csrf.repository.ts';

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
  // One statement: the caller's spent and expired tokens go, the new one comes.
  await replaceCsrfTokens(deps.db, { authTokenId: auth.tokenId, tokenHash: hashToken(token), now, expiresAt });
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
  if (!(await markCsrfTokenUsed(deps.db, { authTokenId: auth.tokenId, tokenHash: hashToken(presented), now }))) throw new AppError('csrf');
}
