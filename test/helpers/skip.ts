/**
 * Skips that say why. `skipWithout(condition, reason)` is true when the condition is missing, and
 * then prints `skipped: <reason>` once when the file is collected, so the reason appears in the
 * run's output under the file's name (vitest's `skipIf` alone shows only a count). Use it as
 * `describe.skipIf(skipWithout(process.env.DATABASE_URL, 'needs PostgreSQL: ...'))(title, ...)`.
 */
export function skipWithout(condition: unknown, reason: string): boolean {
  if (condition) return false;
  console.info(`skipped: ${reason}`);
  return true;
}
