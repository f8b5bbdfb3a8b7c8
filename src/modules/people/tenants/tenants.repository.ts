/** SQL for tenants and their address links (docs/tenants.md, spec 4.9). No rules here. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { TenantTable } from '../../../db/schema.ts';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { likeEscape } from '../../../db/text-match.ts';

export interface TenantFilter {
  agencyId: number | null;
  q?: string;
  postcodePrefix?: string;
  /** Only tenants linked to this address id. */
  addressId?: number;
  includeErased: boolean;
  /** the sort field (GET /api/tenants `sort`) and direction */
  sort: 'name' | 'email' | 'address_count';
  order: SortDirection;
  limit: number;
  offset: number;
}

function base(db: DbOrTrx) {
  return db
    .selectFrom('tenants as t')
    .select((eb) => [
      't.id', 't.uuid', 't.agency_id', 't.name', 't.email', 't.phone', 't.mobile', 't.preferred_contact', 't.notes',
      't.erased_at', 't.created_at', 't.updated_at',
      eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.tenant_id', '=', 't.id')).as('has_login'),
      eb.selectFrom('tenant_addresses as ta').select(sql<number>`count(*)::int`.as('n')).whereRef('ta.tenant_id', '=', 't.id').as('address_count'),
    ]);
}

/** The column each sort field of the tenants list orders by; no e-mail last either way. */
const TENANT_SORT_KEYS: Record<TenantFilter['sort'], SortKey> = {
  name: 't.name',
  email: { key: 't.email', nulls: 'last' },
  address_count: sql`(select count(*) from tenant_addresses ta where ta.tenant_id = t.id)`,
};

/**
 * One page of tenants in `f.sort` order (`f.order`; no e-mail last either way; the id breaks ties
 * in the same direction), and the total. The default, name ascending, is the list's order of old.
 */
export async function listTenants(db: DbOrTrx, f: TenantFilter) {
  let q = db.selectFrom('tenants as t');
  if (f.agencyId !== null) q = q.where('t.agency_id', '=', f.agencyId);
  if (!f.includeErased) q = q.where('t.erased_at', 'is', null);
  if (f.q) {
    const pattern = `%${likeEscape(f.q)}%`;
    q = q.where((eb) => eb.or([eb('t.name', 'ilike', pattern), eb('t.email', 'ilike', pattern)]));
  }
  if (f.postcodePrefix) {
    const prefix = `${likeEscape(f.postcodePrefix)}%`;
    q = q.where((eb) =>
      eb.exists(
        eb.selectFrom('tenant_addresses as ta')
          .innerJoin('addresses as a', 'a.id', 'ta.address_id')
          .select('ta.address_id')
          .whereRef('ta.tenant_id', '=', 't.id')
          .where(sql<string>`replace(a.postcode, ' ', '')`, 'like', prefix),
      ),
    );
  }
  if (f.addressId !== undefined) {
    const addressId = f.addressId;
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('tenant_addresses as ta').select('ta.address_id').whereRef('ta.tenant_id', '=', 't.id').where('ta.address_id', '=', addressId)),
    );
  }
  const [ids, total] = await Promise.all([
    q
      .select('t.id')
      .orderBy(sortOrderSql(TENANT_SORT_KEYS[f.sort], f.order, 't.id'))
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  if (ids.length === 0) return { rows: [], total: total.n };
  // The page's rows in the order of its ids.
  const byId = new Map((await base(db).where('t.id', 'in', ids.map((r) => r.id)).execute()).map((r) => [r.id, r]));
  const rows = ids.map((r) => byId.get(r.id)!);
  return { rows, total: total.n };
}

export type TenantRow = NonNullable<Awaited<ReturnType<typeof findTenantById>>>;

/**
 * THE lookup of a tenant by uuid for other modules (jobs, users): id and agency of a tenant not
 * erased, within one agency (agencyId null: any agency).
 */
export function findTenantRef(db: DbOrTrx, uuid: string, agencyId: number | null = null) {
  let q = db.selectFrom('tenants').select(['id', 'agency_id']).where('uuid', '=', uuid).where('erased_at', 'is', null);
  if (agencyId !== null) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** One tenant by uuid (any agency). */
export function findTenantByUuid(db: DbOrTrx, uuid: string) {
  return base(db).where('t.uuid', '=', uuid).executeTakeFirst();
}

/** One tenant by id. */
export function findTenantById(db: DbOrTrx, id: number) {
  return base(db).where('t.id', '=', id).executeTakeFirst();
}

/** The first login account linked to a tenant, if any. */
export function loginOf(db: DbOrTrx, tenantId: number) {
  return db.selectFrom('users').select(['uuid', 'email', 'status']).where('tenant_id', '=', tenantId).orderBy('id').executeTakeFirst();
}

/** Another live tenant of the agency with this e-mail (case-insensitive). */
export function findByEmail(db: DbOrTrx, agencyId: number, email: string, exceptId?: number) {
  let q = db.selectFrom('tenants').select('id').where('agency_id', '=', agencyId).where('erased_at', 'is', null)
    .where(sql`lower(email)`, '=', email.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** Inserts a tenant; returns its id. */
export async function insertTenant(db: DbOrTrx, row: Insertable<TenantTable>): Promise<number> {
  return (await db.insertInto('tenants').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a tenant by id. */
export async function updateTenant(db: DbOrTrx, id: number, patch: Updateable<TenantTable>): Promise<void> {
  await db.updateTable('tenants').set(patch).where('id', '=', id).execute();
}

/**
 * Links an address to a tenant unless linked already.
 * @returns true when a new link was written, false when it existed
 */
export async function linkAddress(db: DbOrTrx, tenantId: number, addressId: number, at: Date): Promise<boolean> {
  const rows = await db
    .insertInto('tenant_addresses')
    .values({ tenant_id: tenantId, address_id: addressId, created_at: at })
    .onConflict((oc) => oc.columns(['tenant_id', 'address_id']).doNothing())
    .returning('tenant_id')
    .execute();
  return rows.length > 0;
}

/** Removes a link; returns true when one was removed. */
export async function unlinkAddress(db: DbOrTrx, tenantId: number, addressId: number): Promise<boolean> {
  const res = await db.deleteFrom('tenant_addresses').where('tenant_id', '=', tenantId).where('address_id', '=', addressId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
