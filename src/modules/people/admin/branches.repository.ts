/** SQL for branches. No rules here. */
import { sql } from 'kysely';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import { PreparedQuery, type Params } from '../../../db/prepared.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { containsPattern } from '../../../db/text-match.ts';

const COLUMNS = [
  'b.id', 'b.uuid', 'b.name', 'b.agency_id', 'b.sharing_enabled', 'b.closed_at', 'b.created_at', 'b.updated_at',
  'a.uuid as agency_uuid', 'a.name as agency_name',
] as const;

function base(db: DbOrTrx, agencyId: number | null) {
  let q = db.selectFrom('branches as b').innerJoin('agencies as a', 'a.id', 'b.agency_id');
  if (agencyId !== null) q = q.where('b.agency_id', '=', agencyId);
  return q;
}

/** The columns each sort field of the branches list orders by: `agency` is the agency's name, then the branch's. */
const BRANCH_SORT_KEYS: Record<'name' | 'agency', SortKey[]> = {
  name: ['b.name'],
  agency: ['a.name', 'b.name'],
};

/**
 * One page of branches (agencyId null: every agency) in `f.sort` order (`f.order`; the id breaks
 * ties in the same direction), and the total. The default, agency ascending (then name), is the
 * list's order of old.
 */
export async function listBranches(
  db: DbOrTrx,
  f: {
    agencyId: number | null; q?: string | undefined; includeClosed: boolean;
    /** the sort field (GET /api/admin/branches `sort`) and direction */
    sort: 'name' | 'agency'; order: SortDirection;
    limit: number; offset: number;
  },
) {
  let q = base(db, f.agencyId);
  if (!f.includeClosed) q = q.where('b.closed_at', 'is', null);
  if (f.q) q = q.where(sql`lower(b.name)`, 'like', containsPattern(f.q, { lowerCase: true }));
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy(sortOrderSql(BRANCH_SORT_KEYS[f.sort], f.order, 'b.id')).limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** One branch by uuid within the scope (agencyId null: any agency), or undefined. */
export function findBranch(db: DbOrTrx, uuid: string, agencyId: number | null) {
  return base(db, agencyId).select(COLUMNS).where('b.uuid', '=', uuid).executeTakeFirst();
}

export type BranchRow = NonNullable<Awaited<ReturnType<typeof findBranch>>>;

/** True when another branch of the agency has this name (case-insensitive). */
export async function branchNameTaken(db: DbOrTrx, agencyId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('branches').select('id').where('agency_id', '=', agencyId).where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Inserts a branch; returns its id. */
export async function insertBranch(db: DbOrTrx, b: { uuid: string; agencyId: number; name: string; sharing: boolean; now: Date }) {
  const row = await db
    .insertInto('branches')
    .values({ uuid: b.uuid, agency_id: b.agencyId, name: b.name, sharing_enabled: b.sharing, created_at: b.now, updated_at: b.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates fields of a branch. */
export async function updateBranch(db: DbOrTrx, id: number, set: { name?: string; sharing_enabled?: boolean; closed_at?: Date | null; now: Date }) {
  const { now, ...fields } = set;
  await db.updateTable('branches').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}

/** Number of jobs of the branch in an open status (job_statuses.is_open) and not deleted. */
export async function openJobCount(db: DbOrTrx, branchId: number): Promise<number> {
  const row = await db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('j.branch_id', '=', branchId)
    .where('s.is_open', '=', true)
    .where('j.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Takes a row lock on the branch for the rest of the transaction. */
export async function lockBranch(db: DbOrTrx, id: number): Promise<void> {
  await db.selectFrom('branches').select('id').where('id', '=', id).forUpdate().execute();
}

/** An agency (id, name) by uuid, or undefined; shared by the branches, roles and users areas. */
export function findAgency(db: DbOrTrx, uuid: string) {
  return db.selectFrom('agencies').select(['id', 'name']).where('uuid', '=', uuid).executeTakeFirst();
}

/**
 * THE lookup of a branch by uuid for other modules (jobs, users, addresses, SLA rules): id, agency
 * and closed_at of the branch, within one agency (agencyId null: any agency), open or closed.
 */
export async function findBranchRef(db: DbOrTrx, uuid: string, agencyId: number | null = null) {
  const [row] = agencyId === null ? await BRANCH_REF.run(db, 'any', { uuid }) : await BRANCH_REF.run(db, 'agency', { uuid, agencyId });
  return row;
}

/** findBranchRef's statement, run by every job creation: named and prepared (src/db/prepared.ts). */
const BRANCH_REF = new PreparedQuery('branch_ref', (db, shape: 'any' | 'agency', p: Params<{ uuid: string; agencyId?: number }>) => {
  const q = db.selectFrom('branches').select(['id', 'agency_id', 'closed_at']).where('uuid', '=', p('uuid'));
  return shape === 'agency' ? q.where('agency_id', '=', p('agencyId')) : q;
});

/** One branch by id (any agency), or undefined. */
export function findBranchById(db: DbOrTrx, id: number) {
  return base(db, null).select(COLUMNS).where('b.id', '=', id).executeTakeFirst();
}
