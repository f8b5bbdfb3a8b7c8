/** SQL of notices and their read receipts (docs/messaging.md "Notices"). No rules here. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { NoticeTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

function base(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('notices as n')
    .leftJoin('branches as b', 'b.id', 'n.branch_id')
    .leftJoin('roles as r', 'r.id', 'n.role_id')
    .leftJoin('users as u', 'u.id', 'n.created_by_user_id')
    .where('n.agency_id', '=', agencyId)
    .where('n.deleted_at', 'is', null);
}

const COLUMNS = [
  'n.id', 'n.uuid', 'n.title', 'n.body', 'n.severity', 'n.branch_id', 'n.role_id', 'b.uuid as branch_uuid', 'b.name as branch_name', 'r.code as role_code',
  'n.starts_at', 'n.expires_at', 'u.name as created_by', 'n.created_at', 'n.updated_at',
] as const;

const readCount = sql<number>`(select count(*)::int from notice_reads nr where nr.notice_id = n.id)`.as('read_count');

/** One page of the agency's notices (newest start first) in a state at `now`, and the total. */
export async function listNotices(db: DbOrTrx, agencyId: number, f: { state?: string | undefined; now: Date; limit: number; offset: number }) {
  let q = base(db, agencyId);
  if (f.state === 'scheduled') q = q.where('n.starts_at', '>', f.now);
  if (f.state === 'expired') q = q.where('n.expires_at', '<=', f.now);
  if (f.state === 'active') q = q.where('n.starts_at', '<=', f.now).where((eb) => eb.or([eb('n.expires_at', 'is', null), eb('n.expires_at', '>', f.now)]));
  const rows = await q.select([...COLUMNS, readCount]).orderBy('n.starts_at', 'desc').orderBy('n.id', 'desc').limit(f.limit).offset(f.offset).execute();
  const { n } = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: n };
}
export type NoticeRow = Awaited<ReturnType<typeof listNotices>>['rows'][number];

/** One notice of the agency (not deleted), or undefined. */
export function findNotice(db: DbOrTrx, agencyId: number, uuid: string) {
  return base(db, agencyId).select([...COLUMNS, readCount]).where('n.uuid', '=', uuid).executeTakeFirst();
}

/** Who the current notices are for: the caller's agency, branch and role. */
export interface Audience {
  agencyId: number;
  branchId: number | null;
  roleId: number;
  userId: number;
}

/** Notices addressed to the audience and showing at `now`, critical first then newest, with the caller's read time. */
function currentQuery(db: DbOrTrx, a: Audience, now: Date) {
  return db
    .selectFrom('notices as n')
    .leftJoin('notice_reads as nr', (j) => j.onRef('nr.notice_id', '=', 'n.id').on('nr.user_id', '=', a.userId))
    .where('n.agency_id', '=', a.agencyId)
    .where('n.deleted_at', 'is', null)
    .where('n.starts_at', '<=', now)
    .where((eb) => eb.or([eb('n.expires_at', 'is', null), eb('n.expires_at', '>', now)]))
    .where((eb) => eb.or([eb('n.branch_id', 'is', null), eb('n.branch_id', '=', a.branchId ?? -1)]))
    .where((eb) => eb.or([eb('n.role_id', 'is', null), eb('n.role_id', '=', a.roleId)]));
}

/** One page of the current notices of the audience, and the total. */
export async function currentNotices(db: DbOrTrx, a: Audience, now: Date, f: { unread?: boolean | undefined; limit: number; offset: number }) {
  let q = currentQuery(db, a, now);
  if (f.unread === true) q = q.where('nr.read_at', 'is', null);
  if (f.unread === false) q = q.where('nr.read_at', 'is not', null);
  const rows = await q
    .select(['n.id', 'n.uuid', 'n.title', 'n.body', 'n.severity', 'n.starts_at', 'n.expires_at', 'nr.read_at'])
    .orderBy(sql`case n.severity when 'critical' then 0 when 'warning' then 1 else 2 end`)
    .orderBy('n.starts_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  const { n } = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: n };
}

/** The current notice `uuid` of the audience, or undefined. */
export function currentNotice(db: DbOrTrx, a: Audience, now: Date, uuid: string) {
  return currentQuery(db, a, now).select(['n.id', 'nr.read_at']).where('n.uuid', '=', uuid).executeTakeFirst();
}

/** Records a read receipt once; returns the stored read time. */
export async function markRead(db: DbOrTrx, noticeId: number, userId: number, at: Date): Promise<Date> {
  await db.insertInto('notice_reads').values({ notice_id: noticeId, user_id: userId, read_at: at }).onConflict((oc) => oc.columns(['notice_id', 'user_id']).doNothing()).execute();
  const row = await db.selectFrom('notice_reads').select('read_at').where('notice_id', '=', noticeId).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return new Date(row.read_at);
}

/** One page of the readers of a notice (first read first), and the total. */
export async function listReads(db: DbOrTrx, noticeId: number, limit: number, offset: number) {
  const q = db.selectFrom('notice_reads as nr').innerJoin('users as u', 'u.id', 'nr.user_id').where('nr.notice_id', '=', noticeId);
  const rows = await q.select(['u.uuid as user_uuid', 'u.name', 'nr.read_at']).orderBy('nr.read_at').orderBy('u.id').limit(limit).offset(offset).execute();
  const { n } = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: n };
}

/** Inserts a notice; returns its id. */
export async function insertNotice(db: DbOrTrx, row: Insertable<NoticeTable>): Promise<number> {
  return (await db.insertInto('notices').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a notice by id. */
export async function updateNotice(db: DbOrTrx, id: number, changes: Updateable<NoticeTable>): Promise<void> {
  await db.updateTable('notices').set(changes).where('id', '=', id).execute();
}

/** A branch of the agency by uuid (open or closed). */
export function findBranch(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('branches').select('id').where('uuid', '=', uuid).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** A role the agency can use, by code: built-in and global roles, or the agency's own. */
export function findRole(db: DbOrTrx, agencyId: number, code: string) {
  return db
    .selectFrom('roles')
    .select('id')
    .where('code', '=', code)
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)]))
    .executeTakeFirst();
}
