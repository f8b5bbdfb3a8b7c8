/** SQL for addresses (docs/tenants.md). No rules here. */
import { sql } from 'kysely';
import type { Insertable, Updateable } from 'kysely';
import type { AddressTable } from '../../../db/schema.ts';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { likeEscape } from '../../../db/text-match.ts';

export interface AddressFilter {
  /** null: every agency (SysOps). */
  agencyId: number | null;
  q?: string;
  /** Upper-case prefix without spaces. */
  postcodePrefix?: string;
  branchId?: number;
  buildingId?: number;
  /** the sort field (GET /api/addresses `sort`) and direction */
  sort: 'line1' | 'town' | 'postcode' | 'branch_name' | 'is_hmo';
  order: SortDirection;
  limit: number;
  offset: number;
}

const COLUMNS = [
  'a.id', 'a.uuid', 'a.agency_id', 'a.line1', 'a.line2', 'a.line3', 'a.town', 'a.county', 'a.postcode',
  'a.sub_building', 'a.building_name', 'a.building_number', 'a.street', 'a.locality', 'a.building_id', 'bd.uuid as building_uuid', 'a.is_communal',
  'a.latitude', 'a.longitude', 'a.is_hmo', 'a.branch_id', 'b.uuid as branch_uuid', 'b.name as branch_name', 'a.created_at', 'a.updated_at',
] as const;

function base(db: DbOrTrx) {
  return db.selectFrom('addresses as a').leftJoin('branches as b', 'b.id', 'a.branch_id').leftJoin('buildings as bd', 'bd.id', 'a.building_id');
}

/**
 * The columns each sort field of the addresses list orders by; no branch last either way. The
 * postcode's line 1 after it keeps the list's order of old (postcode, line 1, id) as the default.
 */
const ADDRESS_SORT_KEYS: Record<AddressFilter['sort'], SortKey[]> = {
  line1: ['a.line1'],
  town: ['a.town'],
  postcode: ['a.postcode', 'a.line1'],
  branch_name: [{ key: 'b.name', nulls: 'last' }],
  is_hmo: ['a.is_hmo'],
};

/**
 * One page of addresses in `f.sort` order (`f.order`; the id breaks ties in the same direction),
 * and the total. The default, postcode ascending (then line 1), is the list's order of old.
 */
export async function listAddresses(db: DbOrTrx, f: AddressFilter) {
  let q = base(db);
  if (f.agencyId !== null) q = q.where('a.agency_id', '=', f.agencyId);
  if (f.branchId !== undefined) q = q.where('a.branch_id', '=', f.branchId);
  if (f.buildingId !== undefined) q = q.where('a.building_id', '=', f.buildingId);
  if (f.q) {
    const pattern = `%${likeEscape(f.q)}%`;
    // The postcode compared without spaces, so "ls61ab", "LS6 1A" and "ls6" all find LS6 1AB.
    const compact = `%${likeEscape(f.q.replace(/\s+/g, '').toUpperCase())}%`;
    q = q.where((eb) =>
      eb.or([
        eb('a.line1', 'ilike', pattern),
        eb('a.line2', 'ilike', pattern),
        eb('a.line3', 'ilike', pattern),
        eb('a.building_name', 'ilike', pattern),
        eb('a.street', 'ilike', pattern),
        eb('a.town', 'ilike', pattern),
        eb(sql<string>`replace(a.postcode, ' ', '')`, 'like', compact),
        eb(sql<string>`concat_ws(', ', a.line2, a.line1, a.town, a.postcode)`, 'ilike', pattern),
      ]),
    );
  }
  if (f.postcodePrefix) {
    q = q.where(sql<string>`replace(a.postcode, ' ', '')`, 'like', `${likeEscape(f.postcodePrefix)}%`);
  }
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy(sortOrderSql(ADDRESS_SORT_KEYS[f.sort], f.order, 'a.id')).limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export type AddressRow = Awaited<ReturnType<typeof listAddresses>>['rows'][number];

/** One address by uuid (any agency), or undefined. */
export function findAddressByUuid(db: DbOrTrx, uuid: string) {
  return base(db).select(COLUMNS).where('a.uuid', '=', uuid).executeTakeFirst();
}

/** One address by id (any agency), or undefined. */
export function findAddressById(db: DbOrTrx, id: number) {
  return base(db).select(COLUMNS).where('a.id', '=', id).executeTakeFirst();
}

/** Addresses linked to a tenant, ordered by postcode. */
export function addressesOfTenant(db: DbOrTrx, tenantId: number) {
  return base(db)
    .innerJoin('tenant_addresses as ta', 'ta.address_id', 'a.id')
    .select(COLUMNS)
    .where('ta.tenant_id', '=', tenantId)
    .orderBy('a.postcode')
    .orderBy('a.id')
    .execute();
}

/** Addresses by id (any agency; the caller checks the agency), ordered by postcode. */
export function addressesByIds(db: DbOrTrx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return base(db).select(COLUMNS).where('a.id', 'in', ids).orderBy('a.postcode').orderBy('a.id').execute();
}

/**
 * The agency's other addresses at a postcode (their lines and parts), for the whole-address
 * uniqueness check the service makes (address-parts.ts, addressKey).
 */
export function addressesAtPostcode(db: DbOrTrx, agencyId: number, postcode: string, exceptId?: number) {
  let q = db
    .selectFrom('addresses')
    .select(['id', 'line1', 'line2', 'line3', 'sub_building', 'building_name', 'building_number', 'street', 'locality'])
    .where('agency_id', '=', agencyId)
    .where('postcode', '=', postcode);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.execute();
}

/** Inserts an address; returns its id. */
export async function insertAddress(db: DbOrTrx, row: Insertable<AddressTable>): Promise<number> {
  return (await db.insertInto('addresses').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates an address by id. */
export async function updateAddress(db: DbOrTrx, id: number, patch: Updateable<AddressTable>): Promise<void> {
  await db.updateTable('addresses').set(patch).where('id', '=', id).execute();
}

/** A branch of the agency by uuid (any agency when agencyId is null): the administration module's lookup. */
export { findBranchRef as findBranchOfAgency } from '../admin/index.ts';

/** How many addresses there are (every agency), for the backfill `addresses.parts`. */
export async function countAllAddresses(db: DbOrTrx): Promise<number> {
  return (await db.selectFrom('addresses').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
}

/** Addresses after an id, in id order (every agency): the lines and parts, for the backfill `addresses.parts`. */
export function addressesAfter(db: DbOrTrx, afterId: number, size: number) {
  return db.selectFrom('addresses')
    .select(['id', 'line1', 'line2', 'line3', 'sub_building', 'building_name', 'building_number', 'street', 'locality'])
    .where('id', '>', afterId).orderBy('id').limit(size).execute();
}
