/** The signing keys of links to people without accounts (table `link_signing_keys`). */
import type { DbOrTrx } from '../db/types.ts';

/** The signing key of `name`, created once with `fresh` (concurrent first uses agree on one row). */
export async function signingKey(db: DbOrTrx, name: string, fresh: string, now: Date): Promise<string> {
  await db.insertInto('link_signing_keys').values({ name, secret: fresh, created_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
  return (await db.selectFrom('link_signing_keys').select('secret').where('name', '=', name).executeTakeFirstOrThrow()).secret;
}
