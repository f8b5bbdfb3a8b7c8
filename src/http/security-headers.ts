/**
 * Security headers on every response through @fastify/helmet (docs/security.md promise 23;
 * docs/security.md "Security headers"). The content-security policy lets the /docs page
 * (swagger-ui: its own scripts and styles from /docs/static, SVG icons as data: URLs, inline
 * style attributes set by the UI) work and nothing else: no inline or foreign script, no
 * framing, no plugins. HSTS is sent by the pipeline on HTTPS requests only.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** The content-security policy directives (docs/security.md lists them). */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
};

/** Registers helmet on the root instance (before the pipeline, so refusals carry the headers too). */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });
}
