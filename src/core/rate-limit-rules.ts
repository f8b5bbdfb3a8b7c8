/**
 * Rate-limit overrides per route set by an administrator at run time (docs/api.md "Rate limits"; spec
 * 8 "Limits per endpoint are configurable by an administrator"). The table
 * `rate_limit_overrides` is the truth; each instance keeps a copy in a Map refreshed at most every
 * `ttlMs` (5 s) in the background, and the instance that makes a change refreshes at once. A
 * failed refresh keeps the last copy, so a database hiccup never blocks requests here.
 */
import type { Db } from '../db/database.ts';
import { listRateLimitOverrides } from './rate-limit-rules.repository.ts';

/** An override of one route; undefined fields fall back to the route's or the configured default. */
export interface RateLimitRule {
  ipMax?: number;
  accountMax?: number;
  windowS?: number;
}

/** Cache of the override table, consulted by the pipeline once per request. */
export class RateLimitRules {
  private rules = new Map<string, RateLimitRule>();
  private loadedAt = 0;
  private loaded = false;
  private inflight: Promise<void> | null = null;

  /**
   * @param db the database holding `rate_limit_overrides`
   * @param ttlMs how old (milliseconds of real time) the copy may get before a lookup reloads it
   */
  private readonly db: Db;
  private readonly ttlMs: number;

  constructor(db: Db, ttlMs = 5_000) {
    this.db = db;
    this.ttlMs = ttlMs;
  }

  /**
   * The override of a route key (`METHOD /path`). A stale copy starts a reload in the background
   * and is used meanwhile, so no request waits on the table except the very first one.
   * @returns the rule, or undefined when the route has none
   */
  async lookup(route: string): Promise<RateLimitRule | undefined> {
    if (Date.now() - this.loadedAt >= this.ttlMs) {
      this.inflight ??= this.load().finally(() => {
        this.inflight = null;
      });
      const pending = this.inflight.catch(() => undefined);
      if (!this.loaded) await pending;
    }
    return this.rules.get(route);
  }

  /**
   * Reloads the copy now, after any reload already under way, so that a change this instance
   * has just committed is seen by the next request.
   */
  async reload(): Promise<void> {
    await this.inflight?.catch(() => undefined);
    const run = this.load();
    const tracked: Promise<void> = run.finally(() => {
      if (this.inflight === tracked) this.inflight = null;
    });
    tracked.catch(() => undefined); // the caller sees the failure through `run`
    this.inflight = tracked;
    await run;
  }

  private async load(): Promise<void> {
    try {
      const rows = await listRateLimitOverrides(this.db);
      const next = new Map<string, RateLimitRule>();
      for (const r of rows) {
        const rule: RateLimitRule = {};
        if (r.ip_max !== null) rule.ipMax = r.ip_max;
        if (r.account_max !== null) rule.accountMax = r.account_max;
        if (r.window_s !== null) rule.windowS = r.window_s;
        next.set(r.route, rule);
      }
      this.rules = next;
      this.loaded = true;
    } finally {
      // A failed reload is retried after the same interval, not on every request.
      this.loadedAt = Date.now();
    }
  }
}
