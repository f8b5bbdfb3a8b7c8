/** Small helpers for optional record fields on the way in and out (no project knowledge). */

/**
 * Trims an optional text field of a write body: undefined stays undefined (not sent), null and
 * blank become null (cleared), anything else is trimmed.
 */
export function cleanText(v: string | null | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  return v.trim() || null;
}

/** A timestamp as an ISO 8601 UTC string, or null. */
export function isoOrNull(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}
