/**
 * Method and media-type checks, decided from the registered routes before any authentication,
 * CSRF or rate-limit work (docs/api.md "Errors"):
 *   - a path that exists under other methods answers 405 with `Allow` listing them;
 *   - a body whose Content-Type the route does not take answers 415. A route takes the media
 *     types of its schema's `consumes` (the multipart uploads), else JSON and form-encoded bodies
 *     (spec 5.3: a form may carry `csrf_token`).
 * Both in the error envelope. Registered before the pipeline (src/http/pipeline.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.ts';

/** Methods a route can be registered under here (HEAD comes with every GET). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The media types a route takes when its schema says nothing else. */
export const DEFAULT_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The methods under which `path` (no query string) has a route, in METHODS order. */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  return METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/**
 * Registers the onRequest hook of the two checks.
 * @throws AppError 405 `Method PATCH is not allowed here` (header Allow: GET, HEAD, PUT, DELETE);
 *   415 `Unsupported Content-Type: text/plain (this operation takes application/json,
 *   application/x-www-form-urlencoded)`
 */
export function registerMethodChecks(app: FastifyInstance): void {
  // A callback hook (it awaits nothing): no promise and microtask turn per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    if (route === undefined) {
      const allowed = allowedMethods(app, request.url.split('?')[0]!);
      if (allowed.length === 0) return done();
      const err = new AppError('method_not_allowed', `Method ${request.method} is not allowed here`);
      err.headers = { allow: allowed.join(', ') };
      return done(err);
    }
    if (request.method === 'GET' || request.method === 'HEAD' || !hasBody(request)) return done();
    const type = mediaTypeOf(request.headers['content-type']);
    const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
    const accepted = consumes && consumes.length > 0 ? consumes : DEFAULT_BODY_TYPES;
    if (!accepted.includes(type)) {
      return done(new AppError('unsupported_media_type', `Unsupported Content-Type: ${type || 'none'} (this operation takes ${accepted.join(', ')})`));
    }
    done();
  });
}
