/** SQL for job time ranges (spec 2.5, 4.13). Global slots have agency_id null. */
import type { Insertable, Updateable } from 'kysely';
import type { JobTimeRangeTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** Whose slots: every slot (SysOps), or the global ones plus one agency's (null: global only). */
export type RangeScope = { kind: 'all' } | { kind: 'agency'; agencyId: number | null };

function liveQuery(db: DbOrTrx, scope: RangeScope) {
  let q = db.selectFrom('job_time_ranges as r').leftJoin('agencies as a', 'a.id', 'r.agency_id').where('r.retired_at', 'is', null);
  if (scope.kind === 'agency') {
    const agencyId = scope.agencyId;
    q = q.where((eb) => (agencyId === null ? eb('r.agency_id', 'is', null) : eb.or([eb('r.agency_id', 'is', null), eb('r.agency_id', '=', agencyId)])));
  }
  return q.select(['r.id', 'r.range_label', 'r.starts_at', 'r.ends_at', 'r.sort_order', 'r.agency_id', 'a.uuid as agency_uuid']);
}

/** The live slots in scope, by sort_order then id. */
export function listRanges(db: DbOrTrx, scope: RangeScope) {
  return liveQuery(db, scope).orderBy('r.sort_order').orderBy('r.id').execute();
}
export type TimeRangeRow = Awaited<ReturnType<typeof listRanges>>[number];

/** One live slot in scope by id, or undefined. */
export function findRange(db: DbOrTrx, scope: RangeScope, id: number) {
  return liveQuery(db, scope).where('r.id', '=', id).executeTakeFirst();
}

/** Inserts a slot; returns its id. */
export async function insertRange(db: DbOrTrx, row: Insertable<JobTimeRangeTable>): Promise<number> {
  return (await db.insertInto('job_time_ranges').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Updates a live (not retired) slot by id.
 * @returns false when no live slot has the id (retired meanwhile by a concurrent request)
 */
export async function updateRange(db: DbOrTrx, id: number, changes: Updateable<JobTimeRangeTable>): Promise<boolean> {
  const res = await db.updateTable('job_time_ranges').set(changes).where('id', '=', id).where('retired_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
