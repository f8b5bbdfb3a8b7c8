/** SQL of push delivery: a user's device tokens and the removal of a dead one (spec 2.4, 4.12). */
import type { DbOrTrx } from '../../../db/types.ts';
import type { PushTarget } from './push.types.ts';

/** The user's device tokens, newest registration first, at most `limit`. */
export async function tokensOfUser(db: DbOrTrx, userId: number, limit: number): Promise<PushTarget[]> {
  const rows = await db
    .selectFrom('device_tokens')
    .select(['id', 'device_token', 'platform'])
    .where('user_id', '=', userId)
    .orderBy('registered_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, token: r.device_token, platform: r.platform }));
}

/** The owner's agency and name (for the activity entry of a removal). */
export function ownerOf(db: DbOrTrx, userId: number) {
  return db.selectFrom('users').select(['agency_id', 'name']).where('id', '=', userId).executeTakeFirst();
}

/**
 * Deletes a token row if it still holds the same token for the same user (it may have been
 * refreshed and moved to another account meanwhile).
 * @returns true when a row was deleted
 */
export async function deleteDeadToken(db: DbOrTrx, target: PushTarget, userId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('device_tokens')
    .where('id', '=', target.id)
    .where('user_id', '=', userId)
    .where('device_token', '=', target.token)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
