/**
 * Running work over a list with a bounded number at once, synchronous work over a long list in
 * slices that give the event loop back, and waiting for an answer with a time limit (no library
 * needed for any).
 */
import { setImmediate } from 'node:timers/promises';

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
 * Calls the synchronous `fn` for every item in order, giving the process's one thread back (a turn
 * of the event loop) after every `slice` items, so a loop over tens of thousands of rows (an
 * import's check, an agency's index of its records) does not hold every other request of the
 * process for its whole length (docs/operations.md "Fairness between agencies").
 * @param slice items between two turns (default 500: a few milliseconds of work each)
 * @throws the first error of `fn` (the items after it are not visited)
 */
export async function forEachSliced<T>(items: Iterable<T>, fn: (item: T, index: number) => void, slice = 500): Promise<void> {
  let i = 0;
  for (const item of items) {
    if (i > 0 && i % slice === 0) await setImmediate();
    fn(item, i++);
  }
}

/**
 * forEachLimited that stops starting calls once `signal` is aborted (a shutdown): the calls running
 * then go on to their end; the items never started are returned, for the caller to give back.
 * @param limit calls at once (1 or more)
 * @returns the items not started (empty when the signal was never aborted)
 * @throws the first error of `fn` (the calls already started still run to their end)
 */
export async function forEachUntil<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, fn: (item: T) => Promise<void>): Promise<T[]> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return items.slice(next);
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
