/** Running work over a list with a bounded number at once (no library needed for one loop). */

/**
 * Calls `fn` for every item, at most `limit` calls running at once, and waits for all of them.
 * @param limit calls at once (1 or more)
 * @throws the first error of `fn` (the calls already started still run to their end)
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
