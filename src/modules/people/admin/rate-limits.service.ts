/**
 * Rate-limit settings per route (docs/api.md "Rate limits"; spec 8): defaults come from the
 * configuration (CARETAKER_RATE_LIMIT_*) or the route's own `config.rateLimit`; a SysOps account
 * overrides them per route at run time. Overrides live in `rate_limit_overrides` and reach the
 * pipeline through the RateLimitRules cache (at most 5 s late on other instances, at once here).
 */
import type { RouteOptions } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './rate-limits.repository.ts';

/** Effective settings of one route as listed by GET /api/admin/rate-limits. */
export interface RouteLimits {
  route: string;
  method: string;
  path: string;
  ip_max: number;
  account_max: number;
  window_s: number;
  overridden: boolean;
  defaults: { ip_max: number; account_max: number; window_s: number };
}

/** Input of PUT /api/admin/rate-limits: null or absent values use the default. */
export interface RouteLimitsInput {
  route: string;
  ip_max?: number | null | undefined;
  account_max?: number | null | undefined;
  window_s?: number | null | undefined;
  reset?: boolean | undefined;
}

/** `METHOD /path` keys of the API routes (HEAD twins left out), sorted by path then method. */
export function routeKeys(routes: RouteOptions[]): Array<{ key: string; method: string; path: string; route: RouteOptions }> {
  const out = new Map<string, { key: string; method: string; path: string; route: RouteOptions }>();
  for (const route of routes) {
    if (!route.url.startsWith('/api/')) continue;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const key = `${method} ${route.url}`;
      out.set(key, { key, method, path: route.url, route });
    }
  }
  return [...out.values()].sort((a, b) => (a.path === b.path ? (a.method < b.method ? -1 : 1) : a.path < b.path ? -1 : 1));
}

/**
 * The effective settings of every API route.
 * @param routes the routes registered on the app
 * @param filter optional part of the route key (case-insensitive)
 */
export async function listRouteLimits(deps: AppDeps, routes: RouteOptions[], filter?: string): Promise<RouteLimits[]> {
  await deps.rateLimitRules.reload();
  const needle = filter?.toLowerCase();
  const out: RouteLimits[] = [];
  for (const r of routeKeys(routes)) {
    if (needle && !r.key.toLowerCase().includes(needle)) continue;
    const own = (r.route.config as { rateLimit?: { ipMax?: number; accountMax?: number; windowS?: number } } | undefined)?.rateLimit;
    const defaults = {
      ip_max: own?.ipMax ?? deps.config.rateLimit.ipMax,
      account_max: own?.accountMax ?? deps.config.rateLimit.accountMax,
      window_s: own?.windowS ?? deps.config.rateLimit.windowS,
    };
    const rule = await deps.rateLimitRules.lookup(r.key);
    out.push({
      route: r.key,
      method: r.method,
      path: r.path,
      ip_max: rule?.ipMax ?? defaults.ip_max,
      account_max: rule?.accountMax ?? defaults.account_max,
      window_s: rule?.windowS ?? defaults.window_s,
      overridden: rule !== undefined,
      defaults,
    });
  }
  return out;
}

/**
 * PUT /api/admin/rate-limits: sets or resets the override of one route.
 * @returns the route's effective settings afterwards
 * @throws 400 `route` unknown, 400 `ip_max` when neither a value nor reset is given
 */
export async function setRouteLimits(deps: AppDeps, routes: RouteOptions[], actor: Actor, input: RouteLimitsInput): Promise<RouteLimits> {
  const key = input.route.trim().replace(/\s+/, ' ');
  const known = routeKeys(routes).find((r) => r.key.toUpperCase() === key.toUpperCase());
  if (!known) throw invalidParam('route');
  const values = { ip_max: input.ip_max ?? null, account_max: input.account_max ?? null, window_s: input.window_s ?? null };
  const reset = input.reset === true;
  if (!reset && Object.values(values).every((v) => v === null)) throw invalidParam('ip_max');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (reset) {
      await repo.deleteOverride(trx, known.key);
    } else {
      await repo.upsertOverride(trx, known.key, values, now, actor.auth?.userId ?? null);
    }
    await recordActivity(trx, actor, now, {
      action: reset ? 'rate_limit.reset' : 'rate_limit.update',
      resourceType: 'rate_limit',
      agencyId: null,
      details: { route: known.key, ...(reset ? {} : values) },
    });
  });
  await deps.rateLimitRules.reload();
  const after = (await listRouteLimits(deps, [known.route])).find((r) => r.route === known.key);
  return after!;
}
