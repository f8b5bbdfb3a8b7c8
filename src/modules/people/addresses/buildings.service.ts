/**
 * Buildings (docs/tenants.md "Buildings"): a block of flats or a house in flats, its address
 * without the sub-building. Its units are addresses with its building_id: flats and communal
 * areas (is_communal), where the building's shared certificates (fire risk assessment, communal
 * electrics) are kept. A change of the building's parts, town, county or postcode is carried to
 * every unit in the same transaction, lines recomposed (address-parts.ts). Every write is logged.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { cleanText as clean } from '../../../lib/fields.ts';
import { buildingKey, linesFromParts, partsFromLines } from './address-parts.ts';
import * as repo from './addresses.repository.ts';
import type { BuildingDto, CreateBuildingInput, ListBuildingsQuery, UpdateBuildingInput } from './addresses.schemas.ts';
import { checkedPostcode, getBuildingRow, lookUp, toAddressDto } from './addresses.service.ts';
import * as brepo from './buildings.repository.ts';

/** Wire shape of a building row (ISO timestamps, unit count). */
export function toBuildingDto(r: brepo.BuildingRow): BuildingDto {
  return {
    uuid: r.uuid, external_ref: r.external_ref, building_name: r.building_name, building_number: r.building_number, street: r.street, locality: r.locality,
    town: r.town, county: r.county, postcode: r.postcode, latitude: r.latitude, longitude: r.longitude, branch_uuid: r.branch_uuid, branch_name: r.branch_name,
    units: r.units, created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** GET /api/buildings: one page of the agency's buildings. @returns { rows: BuildingDto[], total } */
export async function listBuildings(deps: AppDeps, auth: AuthContext, q: ListBuildingsQuery) {
  const { rows, total } = await brepo.listBuildings(deps.db, { agencyId: readAgency(auth), q: q.q?.trim() || undefined, limit: q.limit, offset: q.offset });
  return { rows: rows.map(toBuildingDto), total };
}

/** GET /api/buildings/{uuid}: the building and its units (AddressDto[], by sub-building). @throws 404 */
export async function getBuilding(deps: AppDeps, auth: AuthContext, uuid: string) {
  const agencyId = readAgency(auth);
  const b = await getBuildingRow(deps, agencyId, uuid);
  const { rows } = await repo.listAddresses(deps.db, { agencyId, buildingId: b.id, sort: 'line1', order: 'asc', limit: 1000, offset: 0 });
  const units = rows.map(toAddressDto).sort((x, y) => (x.sub_building ?? '').localeCompare(y.sub_building ?? '', 'en-GB', { numeric: true }));
  return { ...toBuildingDto(b), unit_addresses: units };
}

async function branchOf(deps: AppDeps, agencyId: number, uuid: string | null | undefined): Promise<number | null | undefined> {
  if (uuid === undefined || uuid === null) return uuid;
  const branch = await repo.findBranchOfAgency(deps.db, uuid, agencyId);
  if (!branch) throw notFound('Branch');
  return branch.id;
}

async function checkUniqueBuilding(deps: AppDeps, agencyId: number, parts: Parameters<typeof buildingKey>[0], postcode: string, exceptId?: number) {
  const key = buildingKey(parts, postcode);
  const same = (await brepo.buildingsAtPostcode(deps.db, agencyId, postcode)).find((b) => b.id !== exceptId && buildingKey(b, b.postcode) === key);
  if (same) throw conflict('A building with the same name, number, street and postcode already exists');
}

/**
 * POST /api/buildings: creates a building (no units yet; add them with POST /api/addresses and its building_uuid).
 * @returns the BuildingDto
 * @throws 400 postcode (with why), building_name (neither a name nor a street), town; 404 branch; 409 same building
 */
export async function createBuilding(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateBuildingInput): Promise<BuildingDto> {
  const agencyId = writeAgency(auth);
  const postcode = checkedPostcode(input.postcode);
  const parts = { building_name: clean(input.building_name) ?? null, building_number: clean(input.building_number) ?? null, street: clean(input.street) ?? null, locality: clean(input.locality) ?? null };
  if (!parts.building_name && !parts.street) throw invalidParam('building_name');
  if ((input.latitude ?? null) === null !== ((input.longitude ?? null) === null)) throw invalidParam(input.latitude == null ? 'latitude' : 'longitude');
  const facts = await lookUp(deps, agencyId, postcode);
  const town = input.town?.trim() || (facts?.found ? facts.district : null);
  if (!town) throw invalidParam('town');
  const branch = (await branchOf(deps, agencyId, input.branch_uuid)) ?? null;
  await checkUniqueBuilding(deps, agencyId, parts, postcode);
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await brepo.insertBuilding(trx, {
      uuid: newUuid(), agency_id: agencyId, branch_id: branch, external_ref: clean(input.external_ref) ?? null, ...parts, town, county: clean(input.county) ?? null, postcode,
      latitude: input.latitude ?? (facts?.found ? facts.latitude : null), longitude: input.longitude ?? (facts?.found ? facts.longitude : null), created_at: now, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'building.create', resourceType: 'building', resourceId: id, agencyId });
    return id;
  });
  return toBuildingDto((await brepo.findBuildingById(deps.db, id))!);
}

/**
 * PUT /api/buildings/{uuid}: changes the fields sent and carries the building's parts, town,
 * county and postcode to its units (their lines recomposed, their flats kept).
 * @returns the BuildingDto
 * @throws 400 bad field, 404 building or branch, 409 same building
 */
export async function updateBuilding(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateBuildingInput): Promise<BuildingDto> {
  const agencyId = writeAgency(auth);
  const b = await getBuildingRow(deps, agencyId, uuid);
  const postcode = input.postcode !== undefined ? checkedPostcode(input.postcode) : b.postcode;
  const pick = (k: 'building_name' | 'building_number' | 'street' | 'locality') => (input[k] !== undefined ? (clean(input[k]) ?? null) : b[k]);
  const parts = { building_name: pick('building_name'), building_number: pick('building_number'), street: pick('street'), locality: pick('locality') };
  if (!parts.building_name && !parts.street) throw invalidParam('building_name');
  if (input.town !== undefined && !input.town.trim()) throw invalidParam('town');
  if (postcode !== b.postcode) await lookUp(deps, agencyId, postcode);
  const branch = await branchOf(deps, agencyId, input.branch_uuid);
  await checkUniqueBuilding(deps, agencyId, parts, postcode, b.id);
  const town = input.town?.trim() ?? b.town;
  const county = input.county !== undefined ? (clean(input.county) ?? null) : b.county;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await brepo.updateBuilding(trx, b.id, {
      ...parts, town, county, postcode, updated_at: now,
      ...(input.external_ref !== undefined ? { external_ref: clean(input.external_ref) ?? null } : {}),
      ...(input.latitude !== undefined ? { latitude: input.latitude } : {}),
      ...(input.longitude !== undefined ? { longitude: input.longitude } : {}),
      ...(branch !== undefined ? { branch_id: branch } : {}),
    });
    for (const u of await brepo.unitsOfBuilding(trx, b.id)) {
      const sub = u.sub_building ?? partsFromLines([u.line1, u.line2, u.line3]).sub_building;
      const unitParts = { sub_building: sub, ...parts };
      await repo.updateAddress(trx, u.id, { ...unitParts, ...linesFromParts(unitParts), town, county, postcode, updated_at: now });
    }
    await recordActivity(trx, actor, now, { action: 'building.update', resourceType: 'building', resourceId: b.id, agencyId, details: { fields: Object.keys(input) } });
  });
  return toBuildingDto((await brepo.findBuildingById(deps.db, b.id))!);
}
