/**
 * Per-agency counters (table agency_counters): job references, invoice and credit-note numbers.
 * The row stays locked until the caller's transaction ends, so a rolled-back number is given out
 * again and the numbers have no gaps (docs/money.md, docs/jobs.md).
 */
import { sql, type QueryCreator } from 'kysely';
import { PreparedQuery, type Params, type Value } from './prepared.ts';
import type { Database } from './schema.ts';
import type { DbOrTrx } from './types.ts';

/**
 * The upsert that takes the next value of counter `name` of an agency, returning it as `value`:
 * NEXT's statement, and a common table expression where a counter is taken inside another statement
 * (a job's insert: src/modules/jobs/jobs/jobs.repository.ts).
 */
export function counterUpsert(db: QueryCreator<Database>, agencyId: Value<number>, name: Value<string>) {
  return db
    .insertInto('agency_counters')
    .values({ agency_id: agencyId, name, value: 1 })
    .onConflict((oc) => oc.columns(['agency_id', 'name']).doUpdateSet({ value: sql`agency_counters.value + 1` }))
    .returning('value');
}

/** Taken once per invoice and credit note: a named prepared statement (src/db/prepared.ts). */
const NEXT = new PreparedQuery('counter_next', (db, _shape: 'one', p: Params<{ agencyId: number; name: string }>) => counterUpsert(db, p('agencyId'), p('name')));

/**
 * Takes the next value of counter `name` of an agency (1 for the first).
 * @param db the caller's transaction
 * @returns the new value
 */
export async function nextCounter(db: DbOrTrx, agencyId: number, name: string): Promise<number> {
  const [row] = await NEXT.run(db, 'one', { agencyId, name });
  return row!.value;
}
