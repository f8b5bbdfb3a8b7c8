/** SQL of the security blacklist (table security_blacklist). No rules here. */
import type { Insertable } from 'kysely';
import type { SecurityBlacklistTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../core/activity/index.ts';

function base(db: DbOrTrx) {
  return db
    .selectFrom('security_blacklist as b')
    .leftJoin('users as u', 'u.id', 'b.user_id')
    .leftJoin('users as by', 'by.id', 'b.added_by_user_id')
    .where('b.removed_at', 'is', null);
}

const COLUMNS = [
  'b.id', 'b.uuid', 'b.kind', 'b.value', 'b.user_id', 'b.agency_id', 'b.reason', 'b.automatic', 'b.expires_at', 'b.created_at',
  'u.uuid as user_uuid', 'u.email as user_email', 'by.uuid as added_by_uuid',
] as const;

/** Live (not removed, not expired at `now`) entries, for the in-process cache. */
export function liveEntries(db: DbOrTrx, now: Date) {
  return db.selectFrom('security_blacklist').select(['kind', 'value', 'user_id', 'expires_at'])
    .where('removed_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/** One page of live entries (agencyId: only that agency's account entries; undefined: all). */
export async function listEntries(db: DbOrTrx, f: { agencyId?: number | undefined; kind?: string | undefined; limit: number; offset: number }) {
  let q = base(db);
  if (f.agencyId !== undefined) q = q.where('b.agency_id', '=', f.agencyId);
  if (f.kind !== undefined) q = q.where('b.kind', '=', f.kind as 'ip');
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy('b.id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
export type EntryRow = Awaited<ReturnType<typeof listEntries>>['rows'][number];

/** One live entry by uuid. */
export function findEntry(db: DbOrTrx, uuid: string) {
  return base(db).select(COLUMNS).where('b.uuid', '=', uuid).executeTakeFirst();
}

/** A live entry with the same target, if any (no duplicates). */
export function findSame(db: DbOrTrx, kind: string, value: string | null, userId: number | null) {
  let q = db.selectFrom('security_blacklist').select(['id', 'uuid']).where('removed_at', 'is', null).where('kind', '=', kind as 'ip');
  q = value === null ? q.where('user_id', '=', userId) : q.where('value', '=', value);
  return q.executeTakeFirst();
}

/** Inserts an entry; returns its id. */
export async function insertEntry(db: DbOrTrx, row: Insertable<SecurityBlacklistTable>): Promise<number> {
  return (await db.insertInto('security_blacklist').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Marks an entry removed. */
export async function removeEntry(db: DbOrTrx, id: number, byUserId: number, at: Date): Promise<void> {
  await db.updateTable('security_blacklist').set({ removed_at: at, removed_by_user_id: byUserId }).where('id', '=', id).execute();
}

/** A user by uuid with agency (any agency when agencyId is undefined). */
export function findUser(db: DbOrTrx, uuid: string, agencyId: number | undefined) {
  let q = db.selectFrom('users').select(['id', 'agency_id']).where('uuid', '=', uuid);
  if (agencyId !== undefined) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}
