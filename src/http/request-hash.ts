/**
 * The hash an Idempotency-Key is tied to (docs/api.md "Idempotency-Key"; src/http/idempotency.ts):
 * the route and the body, canonically.
 */
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .filter((k) => k !== 'csrf_token')
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** SHA-256 (hex) of "METHOD path" and the body as canonical JSON (sorted keys, no csrf_token). */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(`${route}\n${JSON.stringify(canonical(body ?? null))}`).digest('hex');
}
