/**
 * Security headers on every response, as helmet computes them (docs/security.md promise 23;
 * docs/security.md "Security headers"). The content-security policy lets the /docs page
 * (swagger-ui: its own scripts and styles from /docs/static, SVG icons as data: URLs, inline
 * style attributes set by the UI) and the console's installable app (its service worker /sw.js
 * and manifest, from this origin) work and nothing else: no inline or foreign script, no
 * framing, no plugins. HSTS is sent by the pipeline on HTTPS requests only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** The content-security policy directives (docs/security.md lists them). */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  workerSrc: ["'self'"],
};

/** Helmet's options (the plugin's before; HSTS is the pipeline's, on HTTPS only). */
const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  hsts: false,
  crossOriginEmbedderPolicy: false,
} as const;

/**
 * The headers helmet sets with HELMET_OPTIONS, computed once: helmet's middleware run against a
 * response that only records them. They depend on nothing in the request (no CSP nonces), so every
 * response can take the same object instead of helmet building its middleware and parsing the
 * policy again per request (as @fastify/helmet did).
 * @returns lower-case header names and their values
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
  });
  return Object.freeze(headers);
}

/**
 * Registers the security headers on the root instance, in an onRequest hook ahead of the
 * pipeline's, so refusals and unknown routes carry them too (docs/security.md "Security headers").
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
