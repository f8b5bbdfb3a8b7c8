/**
 * SQL of the heavy-work gate (docs/operations.md "Fairness between agencies"): the tickets of
 * heavy_work and the count of an agency's running heavy work (its running tickets and its
 * committing imports), read under a transaction-scoped advisory lock of the agency, so two
 * instances never both take the agency's last slot.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/types.ts';

/** Takes the agency's heavy-work lock until the end of the transaction (null: the instance's own work). */
export async function lockAgencyHeavyWork(trx: DbOrTrx, agencyId: number | null): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`caretaker heavy work:${agencyId ?? 'instance'}`}))`.execute(trx);
}

/** An agency's heavy work running now: its running tickets and its committing imports, neither stale (touched at or after `fresh`). */
export async function countRunningHeavyWork(db: DbOrTrx, agencyId: number | null, fresh: Date): Promise<number> {
  const tickets = await db
    .selectFrom('heavy_work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => (agencyId === null ? eb('agency_id', 'is', null) : eb('agency_id', '=', agencyId)))
    .where('status', '=', 'running')
    .where('heartbeat_at', '>=', fresh)
    .executeTakeFirstOrThrow();
  if (agencyId === null) return Number(tickets.n);
  const imports = await db
    .selectFrom('imports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agency_id', '=', agencyId)
    .where('status', '=', 'committing')
    .where('updated_at', '>=', fresh)
    .executeTakeFirstOrThrow();
  return Number(tickets.n) + Number(imports.n);
}

/** A ticket's place among its agency's waiting tickets that are not stale, oldest first (1 is next); 0 when it no longer waits. */
export async function heavyWorkQueuePosition(db: DbOrTrx, agencyId: number | null, id: number, fresh: Date): Promise<number> {
  const row = await db
    .selectFrom('heavy_work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => (agencyId === null ? eb('agency_id', 'is', null) : eb('agency_id', '=', agencyId)))
    .where('status', '=', 'waiting')
    .where('heartbeat_at', '>=', fresh)
    .where('id', '<=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores a waiting ticket; returns its id. */
export async function insertHeavyWork(db: DbOrTrx, row: { uuid: string; agency_id: number | null; kind: string; now: Date }): Promise<number> {
  const r = await db
    .insertInto('heavy_work')
    .values({ uuid: row.uuid, agency_id: row.agency_id, kind: row.kind, status: 'waiting', created_at: row.now, heartbeat_at: row.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Marks a ticket running from `now`. */
export async function startHeavyWork(db: DbOrTrx, id: number, now: Date): Promise<void> {
  await db.updateTable('heavy_work').set({ status: 'running', started_at: now, heartbeat_at: now }).where('id', '=', id).execute();
}

/** Moves a ticket's heartbeat (and its progress, when given). */
export async function touchHeavyWork(db: DbOrTrx, id: number, now: Date, progress?: { done: number; total: number | null }): Promise<void> {
  await db
    .updateTable('heavy_work')
    .set({ heartbeat_at: now, ...(progress ? { steps_done: progress.done, steps_total: progress.total } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Removes a ticket (its work ended, or its wait gave up); also every ticket stale since before `stale`. */
export async function deleteHeavyWork(db: DbOrTrx, id: number, stale: Date): Promise<void> {
  await db.deleteFrom('heavy_work').where((eb) => eb.or([eb('id', '=', id), eb('heartbeat_at', '<', stale)])).execute();
}

/** An agency's tickets that are not stale, running first, then waiting in order. */
export function listHeavyWork(db: DbOrTrx, agencyId: number | null, fresh: Date) {
  return db
    .selectFrom('heavy_work')
    .select(['id', 'uuid', 'kind', 'status', 'steps_done', 'steps_total', 'created_at', 'started_at'])
    .where((eb) => (agencyId === null ? eb('agency_id', 'is', null) : eb('agency_id', '=', agencyId)))
    .where('heartbeat_at', '>=', fresh)
    .orderBy('status')
    .orderBy('id')
    .execute();
}
