/** Running work over a list with a bounded number at once, and waiting for an answer with a time limit (no library needed for either). */

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

/**
 * Whether `work` settles successfully within `timeoutMs` milliseconds. The timer is cleared as soon
 * as it settles, so a caller asking often (a status read per request) leaves no timers behind.
 * @returns true when `work` resolved in time; false when it rejected or took longer
 */
export function answersWithin(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const settle = (answered: boolean) => {
      clearTimeout(timer);
      resolve(answered);
    };
    work.then(
      () => settle(true),
      () => settle(false),
    );
  });
}
