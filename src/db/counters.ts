/**
 * Per-agency counters (table agency_counters): job references, invoice and credit-note numbers.
 * The row stays locked until the caller's transaction ends, so a rolled-back number is given out
 * again and the numbers have no gaps (docs/money.md, docs/jobs.md).
 */
import { sql } from 'kysely';
import { PreparedQuery, type Params } from './prepared.ts';
import type { DbOrTrx } from './types.ts';

/** Taken once per job, invoice and credit note: a named prepared statement (src/db/prepared.ts). */
const NEXT = new PreparedQuery('counter_next', (db, _shape: 'one', p: Params<{ agencyId: number; name: string }>) =>
  db
    .insertInto('agency_counters')
    .values({ agency_id: p.agencyId, name: p.name, value: 1 })
    .onConflict((oc) => oc.columns(['agency_id', 'name']).doUpdateSet({ value: sql`agency_counters.value + 1` }))
    .returning('value'),
);

/**
 * Takes the next value of counter `name` of an agency (1 for the first).
 * @param db the caller's transaction
 * @returns the new value
 */
export async function nextCounter(db: DbOrTrx, agencyId: number, name: string): Promise<number> {
  const [row] = await NEXT.run(db, 'one', { agencyId, name });
  return row!.value;
}

/** nextCounter's statement, not yet run (for src/db/pipeline.ts); its one row holds the new `value`. */
export function nextCounterQuery(db: DbOrTrx, agencyId: number, name: string) {
  return NEXT.statement(db, 'one', { agencyId, name });
}
