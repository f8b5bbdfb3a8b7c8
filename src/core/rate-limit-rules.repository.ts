/** SQL of the rate-limit overrides (src/core/rate-limit-rules.ts keeps the cached copy). */
import type { DbOrTrx } from '../db/types.ts';

/** Every override row: route, ip_max, account_max, window_s (null: the default). */
export function listRateLimitOverrides(db: DbOrTrx) {
  return db.selectFrom('rate_limit_overrides').select(['route', 'ip_max', 'account_max', 'window_s']).execute();
}
