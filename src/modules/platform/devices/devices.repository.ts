/** SQL for push-notification device tokens (spec 2.4, 4.12). */
import { sql } from 'kysely';
import type { DeviceTokenTable } from '../../../db/schema.ts';
import type { Insertable } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';

const COLUMNS = ['id', 'user_id', 'device_token', 'platform', 'registered_at'] as const;

/** One page of a user's tokens, newest registration first, and the total. */
export async function listUserTokens(db: DbOrTrx, userId: number, page: { limit: number; offset: number }) {
  const q = db.selectFrom('device_tokens').where('user_id', '=', userId);
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy('registered_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type DeviceTokenRow = Awaited<ReturnType<typeof listUserTokens>>['rows'][number];

/** The row holding a token (by its SHA-256), whoever owns it. */
export function findByHash(db: DbOrTrx, tokenHash: string) {
  return db.selectFrom('device_tokens').select([...COLUMNS, 'token_hash']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Registers a token: inserts it, or (same token already stored) moves it to this user with the new
 * platform and registration time. One row per token whatever the concurrency.
 */
export function upsertToken(db: DbOrTrx, row: Insertable<DeviceTokenTable>) {
  return db
    .insertInto('device_tokens')
    .values(row)
    .onConflict((oc) =>
      oc.column('token_hash').doUpdateSet((eb) => ({
        user_id: eb.ref('excluded.user_id'),
        platform: eb.ref('excluded.platform'),
        registered_at: eb.ref('excluded.registered_at'),
      })),
    )
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Deletes a token row by id. */
export async function deleteToken(db: DbOrTrx, id: number): Promise<void> {
  await db.deleteFrom('device_tokens').where('id', '=', id).execute();
}
