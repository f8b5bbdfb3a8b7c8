/** SQL of the rate-limit overrides per route (rate-limits.service.ts has the rules). */
import type { DbOrTrx } from '../../../db/types.ts';

/** Removes a route's override (back to the defaults). */
export async function deleteOverride(db: DbOrTrx, route: string): Promise<void> {
  await db.deleteFrom('rate_limit_overrides').where('route', '=', route).execute();
}

/** Sets a route's override (null: that value's default), inserting or replacing it. */
export async function upsertOverride(
  db: DbOrTrx,
  route: string,
  values: { ip_max: number | null; account_max: number | null; window_s: number | null },
  now: Date,
  byUserId: number | null,
): Promise<void> {
  const set = { ...values, updated_at: now, updated_by_user_id: byUserId };
  await db
    .insertInto('rate_limit_overrides')
    .values({ route, ...set })
    .onConflict((oc) => oc.column('route').doUpdateSet(set))
    .execute();
}
