/** SQL for buildings, the blocks units belong to (docs/tenants.md "Buildings"), and the agency's postcode lookup setting. No rules here. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { BuildingTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { likeEscape } from '../../../db/text-match.ts';

const COLUMNS = [
  'bd.id', 'bd.uuid', 'bd.agency_id', 'bd.external_ref', 'bd.building_name', 'bd.building_number', 'bd.street', 'bd.locality', 'bd.town', 'bd.county',
  'bd.postcode', 'bd.latitude', 'bd.longitude', 'bd.branch_id', 'b.uuid as branch_uuid', 'b.name as branch_name', 'bd.created_at', 'bd.updated_at',
  sql<number>`(select count(*)::int from addresses u where u.building_id = bd.id)`.as('units'),
] as const;

function base(db: DbOrTrx) {
  return db.selectFrom('buildings as bd').leftJoin('branches as b', 'b.id', 'bd.branch_id');
}

/** One building by uuid (any agency), or undefined. */
export function findBuildingByUuid(db: DbOrTrx, uuid: string) {
  return base(db).select(COLUMNS).where('bd.uuid', '=', uuid).executeTakeFirst();
}

/** One building by id (any agency), or undefined. */
export function findBuildingById(db: DbOrTrx, id: number) {
  return base(db).select(COLUMNS).where('bd.id', '=', id).executeTakeFirst();
}

export type BuildingRow = NonNullable<Awaited<ReturnType<typeof findBuildingById>>>;

/** The agency's buildings at a postcode, for matching a unit to its building by its parts. */
export function buildingsAtPostcode(db: DbOrTrx, agencyId: number, postcode: string) {
  return base(db).select(COLUMNS).where('bd.agency_id', '=', agencyId).where('bd.postcode', '=', postcode).orderBy('bd.id').execute();
}

/** One page of the agency's buildings (every agency's for null) (q: name, street, number, town or postcode), by postcode then name, and the total. */
export async function listBuildings(db: DbOrTrx, f: { agencyId: number | null; q?: string | undefined; limit: number; offset: number }) {
  let q = base(db);
  if (f.agencyId !== null) q = q.where('bd.agency_id', '=', f.agencyId);
  if (f.q) {
    const pattern = `%${likeEscape(f.q)}%`;
    const compact = `%${likeEscape(f.q.replace(/\s+/g, '').toUpperCase())}%`;
    q = q.where((eb) =>
      eb.or([
        eb('bd.building_name', 'ilike', pattern),
        eb('bd.street', 'ilike', pattern),
        eb(sql<string>`concat_ws(' ', bd.building_number, bd.street)`, 'ilike', pattern),
        eb('bd.town', 'ilike', pattern),
        eb(sql<string>`replace(bd.postcode, ' ', '')`, 'like', compact),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy('bd.postcode').orderBy('bd.building_name').orderBy('bd.id').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Inserts a building; returns its id. */
export async function insertBuilding(db: DbOrTrx, row: Insertable<BuildingTable>): Promise<number> {
  return (await db.insertInto('buildings').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a building by id. */
export async function updateBuilding(db: DbOrTrx, id: number, patch: Updateable<BuildingTable>): Promise<void> {
  await db.updateTable('buildings').set(patch).where('id', '=', id).execute();
}

/** The units of a building (id, sub-building, lines), for carrying a change of the building to them. */
export function unitsOfBuilding(db: DbOrTrx, buildingId: number) {
  return db.selectFrom('addresses').select(['id', 'sub_building', 'line1', 'line2', 'line3']).where('building_id', '=', buildingId).orderBy('id').execute();
}

/** Whether the agency looks postcodes up at postcodes.io (agencies.postcode_lookup). */
export async function postcodeLookupEnabled(db: DbOrTrx, agencyId: number): Promise<boolean> {
  const row = await db.selectFrom('agencies').select('postcode_lookup').where('id', '=', agencyId).executeTakeFirst();
  return row?.postcode_lookup ?? false;
}
