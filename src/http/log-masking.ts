/**
 * Secrets kept out of the request log (docs/security.md promise 18 and "Secrets never in logs"):
 * the one list of query parameters and path parameters whose value is a credential, and the `req`
 * serializer every logger uses, which writes the request line with those values replaced by
 * `****`. A link e-mailed to a tenant (`/visit?token=`, `/survey?token=`), an invitation or a
 * password reset (`/accept-invitation?token=`, `/reset-password?token=`), a signed link page
 * (`/api/.../link/{token}`) and a calendar feed (`/api/calendar/feed.ics?key=`) are all covered
 * by these two lists, as is the OpenID Connect authorization code of /api/auth/sso/callback?code=;
 * test/security/log-masking.test.ts walks every operation of the OpenAPI
 * document and every e-mailed link and fails on a credential-bearing parameter left off.
 */
import type { FastifyRequest } from 'fastify';

/** Query parameters whose value is a credential (names compared case-insensitively). */
export const SECRET_QUERY_PARAMETERS: readonly string[] = ['token', 'key', 'secret', 'signature', 'sig', 'password', 'api_key', 'access_token', 'refresh_token', 'code'];
/** Path parameters (`:name` in a route) whose value is a credential. */
export const SECRET_PATH_PARAMETERS: readonly string[] = ['token'];
/** What a masked value is written as. */
export const MASK = '****';

const QUERY_PATTERN = new RegExp(`([?&](?:${SECRET_QUERY_PARAMETERS.map((n) => n.replace(/[^a-z_]/g, '')).join('|')})=)[^&#]*`, 'gi');

/**
 * A URL as it may be logged: every SECRET_QUERY_PARAMETERS value masked, and the path segments
 * that the matched route (`routeUrl`, e.g. `/api/surveys/link/:token`) names after one of
 * SECRET_PATH_PARAMETERS masked; a `/link/<x>` segment is masked even when no route matched.
 * @param url the request's path and query as received
 * @param routeUrl the route pattern that matched, if any
 */
export function maskUrl(url: string, routeUrl?: string): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  if (routeUrl) {
    const pattern = routeUrl.split('/');
    const parts = path.split('/');
    if (pattern.length === parts.length) {
      path = parts.map((p, i) => (SECRET_PATH_PARAMETERS.includes(pattern[i]!.replace(/^:/, '')) && pattern[i]!.startsWith(':') ? MASK : p)).join('/');
    }
  }
  path = path.replace(/\/link\/[^/]+/i, `/link/${MASK}`);
  return path + query.replace(QUERY_PATTERN, `$1${MASK}`);
}

/** The `req` log serializer: method, masked url, host and remote address. */
export function maskedRequest(req: FastifyRequest): { method: string; url: string; host: string; remoteAddress: string } {
  return { method: req.method, url: maskUrl(req.url, req.routeOptions?.url), host: req.host, remoteAddress: req.ip };
}
