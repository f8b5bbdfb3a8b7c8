/** A small in-memory cache with a time to live per entry, read against the app clock. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  private readonly maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  /** The live value of `key`, or undefined. */
  get(key: string, now: Date): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= now.getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores `value` for `ttlS` seconds; the oldest entry goes when the cache is full. */
  set(key: string, value: V, ttlS: number, now: Date): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: now.getTime() + ttlS * 1000 });
  }
}
