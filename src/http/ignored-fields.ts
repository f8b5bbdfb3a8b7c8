/**
 * Unknown body fields are dropped (no mass assignment, docs/security.md promise 9) but not silently:
 * their names go back in the `X-Ignored-Fields` response header (docs/api.md "Unknown fields").
 * Only top-level fields are listed; `csrf_token` is never listed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Response header naming the dropped fields, comma-separated, URI-encoded. */
export const IGNORED_FIELDS_HEADER = 'x-ignored-fields';
const MAX_LISTED = 20;

/** Top-level property names a body schema knows (through anyOf/oneOf/allOf), or null when it takes any. */
function knownFields(schema: unknown): Set<string> | null {
  if (!schema || typeof schema !== 'object') return null;
  const s = schema as Record<string, unknown>;
  const names = new Set<string>();
  let closed = false;
  if (s.properties && typeof s.properties === 'object') {
    for (const k of Object.keys(s.properties)) names.add(k);
    closed = s.additionalProperties === false;
  }
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    if (!Array.isArray(s[k])) continue;
    for (const inner of s[k] as unknown[]) {
      const sub = knownFields(inner);
      if (sub === null) return null;
      for (const n of sub) names.add(n);
      closed = true;
    }
  }
  return closed ? names : null;
}

/**
 * Names the body fields the route's schema will drop.
 * @returns the unknown top-level field names, in body order
 */
export function ignoredFields(request: FastifyRequest): string[] {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return [];
  // A route without a body schema reads no field: every one it was sent is dropped.
  const schema = request.routeOptions.schema as { body?: unknown } | undefined;
  const known = schema && schema.body === undefined ? new Set<string>() : knownFields(schema?.body);
  if (known === null) return [];
  return Object.keys(body).filter((k) => k !== 'csrf_token' && !known.has(k));
}

/** Sets X-Ignored-Fields when the body carries fields the route drops. */
export function reportIgnoredFields(request: FastifyRequest, reply: FastifyReply): void {
  const names = ignoredFields(request);
  if (names.length === 0) return;
  const listed = names.slice(0, MAX_LISTED).map((n) => encodeURIComponent(n.slice(0, 64)));
  void reply.header(IGNORED_FIELDS_HEADER, listed.join(', ') + (names.length > MAX_LISTED ? ', ...' : ''));
}
