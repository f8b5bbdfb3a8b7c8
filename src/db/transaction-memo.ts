/**
 * Reads remembered for the life of one transaction (docs/operations.md "Queue sizing"): the queue
 * runs a fetched batch of events in one transaction, and the events of a batch mostly read the
 * same few rows (an agency's templates, its webhook endpoints).
 */
import type { Trx } from './types.ts';

const memos = new WeakMap<Trx, Map<string, Promise<unknown>>>();

/**
 * The result of `read` for `key`, read once in `trx` and shared by later calls with the same key
 * in that transaction. A failed read is not kept (the caller's event fails and is retried in a new
 * transaction anyway).
 * @param key names what is read and its arguments, e.g. `endpoints|12`
 */
export function onceInTransaction<T>(trx: Trx, key: string, read: () => Promise<T>): Promise<T> {
  let memo = memos.get(trx);
  if (!memo) memos.set(trx, (memo = new Map()));
  let hit = memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = read();
    memo.set(key, hit);
    hit.catch(() => memo.delete(key));
  }
  return hit;
}
