/**
 * Per-agency counters (table agency_counters): job references, invoice and credit-note numbers.
 * The row stays locked until the caller's transaction ends, so a rolled-back number is given out
 * again and the numbers have no gaps (docs/money.md, docs/jobs.md).
 */
import { sql } from 'kysely';
import type { DbOrTrx } from './types.ts';

/**
 * Takes the next value of counter `name` of an agency (1 for the first).
 * @param db the caller's transaction
 * @returns the new value
 */
export async function nextCounter(db: DbOrTrx, agencyId: number, name: string): Promise<number> {
  const row = await db
    .insertInto('agency_counters')
    .values({ agency_id: agencyId, name, value: 1 })
    .onConflict((oc) => oc.columns(['agency_id', 'name']).doUpdateSet({ value: sql`agency_counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}
