/**
 * SQL of the backfills' bookkeeping (table `data_backfills`, migration 2026_11_26_0800): which are
 * unfinished, the lease a worker takes on one (so two workers do not run the same one at once),
 * its progress after each batch, and its end.
 */
import type { Db } from '../../../db/database.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** One backfill's row. */
export interface BackfillRow {
  name: string;
  started_at: Date | null;
  finished_at: Date | null;
  cursor_id: number;
  done: number;
  total: number | null;
  last_error: string | null;
}

const COLUMNS = ['name', 'started_at', 'finished_at', 'cursor_id', 'done', 'total', 'last_error'] as const;

/** Every backfill, finished or not, by name. */
export function listBackfills(db: Db): Promise<BackfillRow[]> {
  return db.selectFrom('data_backfills').select(COLUMNS).orderBy('name').execute();
}

/** Names of the unfinished backfills. */
export async function unfinishedNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('data_backfills').select('name').where('finished_at', 'is', null).orderBy('name').execute();
  return rows.map((r) => r.name);
}

/**
 * Takes the lease of an unfinished backfill until `until`, unless another worker holds it.
 * @returns its row, or undefined when it is finished or leased by someone else
 */
export function lease(db: Db, name: string, now: Date, until: Date): Promise<BackfillRow | undefined> {
  return db
    .updateTable('data_backfills')
    .set((eb) => ({ leased_until: until, started_at: eb.fn.coalesce('started_at', eb.val(now)) }))
    .where('name', '=', name)
    .where('finished_at', 'is', null)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', now)]))
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Records the row count to do (once, when it starts). */
export async function setTotal(db: Db, name: string, total: number): Promise<void> {
  await db.updateTable('data_backfills').set({ total }).where('name', '=', name).execute();
}

/** Records one batch: the cursor moves to `cursorId`, `count` more rows are done, the lease is renewed. */
export async function advance(db: Db, name: string, cursorId: number, count: number, until: Date): Promise<void> {
  await db
    .updateTable('data_backfills')
    .set((eb) => ({ cursor_id: cursorId, done: eb('done', '+', count), leased_until: until, last_error: null }))
    .where('name', '=', name)
    .execute();
}

/** Marks it finished and frees the lease. */
export async function finish(db: Db, name: string, now: Date): Promise<void> {
  await db.updateTable('data_backfills').set({ finished_at: now, leased_until: null }).where('name', '=', name).execute();
}

/** Records a failure and frees the lease (the next tick tries again from the cursor). */
export async function fail(db: Db, name: string, message: string): Promise<void> {
  await db.updateTable('data_backfills').set({ last_error: cutGraphemes(message, 1000), leased_until: null }).where('name', '=', name).execute();
}
