/**
 * src/lib/concurrency.ts: `answersWithin` (the status and readiness checks' time limit) and
 * `forEachLimited` and `forEachSliced`.
 */
import { describe, expect, it } from 'vitest';
import { answersWithin, forEachLimited, forEachSliced } from '../../src/lib/concurrency.ts';

describe('answersWithin', () => {
  it('is true when the work resolves in time, false when it rejects or is late', async () => {
    expect(await answersWithin(Promise.resolve('yes'), 1_000)).toBe(true);
    expect(await answersWithin(Promise.reject(new Error('down')), 1_000)).toBe(false);
    const started = Date.now();
    expect(await answersWithin(new Promise(() => {}), 50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('leaves no timer behind once the work has answered', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await Promise.all(Array.from({ length: 100 }, () => answersWithin(Promise.resolve(1), 60_000)));
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });

  it('does not leave a late rejection unhandled', async () => {
    let reject: (err: Error) => void = () => {};
    const work = new Promise((_, r) => (reject = r));
    expect(await answersWithin(work, 10)).toBe(false);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    reject(new Error('too late'));
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', listener);
    expect(unhandled).toEqual([]);
  });
});

describe('forEachLimited', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      done.push(n);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });
});

describe('forEachSliced', () => {
  it('visits every item in order and lets other work run between slices, not inside one', async () => {
    const seen: string[] = [];
    // A callback queued for the next turn of the event loop: it runs between two slices.
    const other = new Promise<void>((resolve) => setImmediate(() => { seen.push('other'); resolve(); }));
    await forEachSliced([1, 2, 3, 4, 5, 6, 7], (n, i) => seen.push(`${n}@${i}`), 3);
    await other;
    expect(seen).toEqual(['1@0', '2@1', '3@2', 'other', '4@3', '5@4', '6@5', '7@6']);
  });

  it('stops at the first error of the callback', async () => {
    const seen: number[] = [];
    await expect(forEachSliced([1, 2, 3], (n) => { if (n === 2) throw new Error('bad row'); seen.push(n); }, 1)).rejects.toThrow('bad row');
    expect(seen).toEqual([1]);
  });
});
