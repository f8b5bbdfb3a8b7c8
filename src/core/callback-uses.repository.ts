/** SQL of the used provider callbacks (src/core/callback-uses.ts, table provider_callback_uses). */
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/types.ts';

/**
 * Records (provider, key) as used until `expiresAt`, unless a use of it is still in force at `now`;
 * drops the expired uses first. One statement decides: of two concurrent claims exactly one wins.
 * @returns true when this call recorded the use (the callback was not used before)
 */
export async function claimUse(db: DbOrTrx, u: { provider: string; key: string; now: Date; expiresAt: Date }): Promise<boolean> {
  await db.deleteFrom('provider_callback_uses').where('expires_at', '<=', u.now).execute();
  const row = await db
    .insertInto('provider_callback_uses')
    .values({ provider: u.provider, key: u.key, expires_at: u.expiresAt })
    .onConflict((oc) =>
      oc.columns(['provider', 'key']).doUpdateSet({ expires_at: sql`excluded.expires_at` }).where('provider_callback_uses.expires_at', '<=', u.now),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets a use (the callback could not be handled: the provider may send it again). */
export async function releaseUse(db: DbOrTrx, provider: string, key: string): Promise<void> {
  await db.deleteFrom('provider_callback_uses').where('provider', '=', provider).where('key', '=', key).execute();
}

/** True when (provider, key) is recorded as used and in force at `now`. */
export async function isUsed(db: DbOrTrx, provider: string, key: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom('provider_callback_uses').select('key').where('provider', '=', provider).where('key', '=', key).where('expires_at', '>', now).executeTakeFirst();
  return row !== undefined;
}
