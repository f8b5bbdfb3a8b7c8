/** SQL for per-user appearance settings (spec 2.5a). */
import type { UserAppearanceTable } from '../../../db/schema.ts';
import type { Updateable } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';

/** The user's appearance row, or undefined when never set. */
export function findAppearance(db: DbOrTrx, userId: number) {
  return db.selectFrom('user_appearance').selectAll().where('user_id', '=', userId).executeTakeFirst();
}
export type AppearanceRow = NonNullable<Awaited<ReturnType<typeof findAppearance>>>;

/** Creates or changes the user's row with `values` (updated_at included). */
export async function saveAppearance(db: DbOrTrx, userId: number, values: Updateable<UserAppearanceTable> & { updated_at: Date }): Promise<void> {
  await db
    .insertInto('user_appearance')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}
