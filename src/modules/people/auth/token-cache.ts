/**
 * The per-process cache of token lookups (docs/security.md, "Token lookup cache"): the row that
 * `findTokenWithIdentity` returned for a token hash, kept for at most `ttlMs` of real time and
 * used only under the auth epoch it was loaded under (src/core/auth-epoch.ts). Every rule of
 * `authenticate` (revoked, expired, idle, account status, token kind) is still checked on each
 * request against the cached row; the cache only saves the database round trip.
 */
export interface CachedToken<Row> {
  row: Row;
  /** The epoch read before the row was loaded. */
  epoch: string;
  /** Date.now() when loaded. */
  loadedAt: number;
}

/** Whose a cached token is: its account and that account's agency (null for SysOps). */
export interface CachedAccount {
  userId: number;
  agencyId: number | null;
}

export class TokenCache<Row extends { user_id: number; agency_id: number | null }> {
  private readonly entries = new Map<string, CachedToken<Row>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  /**
   * @param ttlMs how long (milliseconds of real time) a lookup may be reused; 0 turns the cache off
   * @param maxEntries entries kept at most (the oldest go first)
   */
  constructor(ttlMs: number, maxEntries = 10_000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  /** The cached row for a token hash when still fresh and loaded under `epoch`, else undefined. */
  get(hash: string, epoch: string | null): Row | undefined {
    if (epoch === null || this.ttlMs <= 0) return undefined;
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || Date.now() - entry.loadedAt >= this.ttlMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.row;
  }

  /**
   * The account a cached token belongs to and its agency, whatever the entry's age or epoch (a
   * token never changes account): lets the pipeline count the account's and the agency's rate
   * limits in the same round trip as the address's before the lookup is confirmed.
   */
  accountOf(hash: string): CachedAccount | undefined {
    const row = this.entries.get(hash)?.row;
    return row ? { userId: row.user_id, agencyId: row.agency_id } : undefined;
  }

  /** Keeps `row` for `hash`, loaded under `epoch` (read before the lookup). */
  set(hash: string, row: Row, epoch: string | null): void {
    if (epoch === null || this.ttlMs <= 0) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { row, epoch, loadedAt: Date.now() });
  }

  /** Forgets a token (it failed a check, or this process revoked it). */
  delete(hash: string): void {
    this.entries.delete(hash);
  }
}
