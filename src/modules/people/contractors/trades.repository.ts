/** SQL for trades: platform-wide (agency_id null) and an agency's own (docs/contractors.md). */
import type { DbOrTrx } from '../../../db/types.ts';

const COLUMNS = ['id', 'code', 'name', 'agency_id', 'retired_at'] as const;

/** Trades visible to an agency (platform ones and its own; platform only for null), by name. */
export function listTrades(db: DbOrTrx, agencyId: number | null, includeRetired: boolean) {
  let q = db.selectFrom('trades').select(COLUMNS).where((eb) =>
    agencyId === null ? eb('agency_id', 'is', null) : eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)]));
  if (!includeRetired) q = q.where('retired_at', 'is', null);
  return q.orderBy('name').orderBy('id').execute();
}
export type TradeRow = Awaited<ReturnType<typeof listTrades>>[number];

/** One trade by id. */
export function findTrade(db: DbOrTrx, id: number) {
  return db.selectFrom('trades').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * The agency-scoped resolver of a trade id named in a body or query (docs/security.md promise 24):
 * a platform trade or one of the agency's own; another agency's trade answers like a missing one.
 * @param agencyId the agency whose view applies (null: platform trades only)
 * @returns the trade row, or undefined when missing or not visible
 */
export function findVisibleTrade(db: DbOrTrx, agencyId: number | null, id: number) {
  return db.selectFrom('trades').select(COLUMNS).where('id', '=', id)
    .where((eb) => (agencyId === null ? eb('agency_id', 'is', null) : eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)])))
    .executeTakeFirst();
}

/** A trade with this code visible to the agency (platform or its own), if any. */
export function findByCode(db: DbOrTrx, agencyId: number | null, code: string) {
  return db.selectFrom('trades').select(COLUMNS).where('code', '=', code)
    .where((eb) => (agencyId === null ? eb('agency_id', 'is', null) : eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)])))
    .orderBy('agency_id', 'desc')
    .executeTakeFirst();
}

/**
 * A trade clashing with a new code (when given) or name (case-insensitive): among the platform's
 * and the agency's trades, or among every trade for a platform trade (agencyId null).
 */
export function findClash(db: DbOrTrx, agencyId: number | null, name: string, code?: string, exceptId?: number) {
  let q = db.selectFrom('trades').select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['name']), '=', name.toLowerCase()), ...(code !== undefined ? [eb('code', '=', code)] : [])]))
    .where((eb) => (agencyId === null ? eb.lit(true) : eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)])));
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** Inserts a trade; returns its id. */
export async function insertTrade(db: DbOrTrx, row: { code: string; name: string; agency_id: number | null }): Promise<number> {
  return (await db.insertInto('trades').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Renames, retires or restores a trade. */
export async function updateTrade(db: DbOrTrx, id: number, patch: { name?: string; retired_at?: Date | null }): Promise<void> {
  await db.updateTable('trades').set(patch).where('id', '=', id).execute();
}
