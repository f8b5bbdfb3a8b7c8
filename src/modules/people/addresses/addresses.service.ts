/**
 * Address rules (docs/tenants.md): UK postcodes checked, never rewritten (only case and spacing
 * normalised: "ls6 3hn" -> "LS6 3HN"), looked up at postcodes.io where the agency enables it
 * (postcode-lookup.ts); the PAF parts and the old lines kept together (address-parts.ts); the
 * building a unit belongs to (a flat of a block: its parts fill the unit's, and a flat given with
 * a building's parts joins that building, made on first use); latitude and longitude given
 * together; the branch of the caller's agency; no second address of the agency with the same
 * whole address (every part and the postcode). Every write is logged in its transaction.
 */
import { cleanText as clean } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency, sameAgency, writeAgency } from '../../../core/agency-scope.ts';
import * as repo from './addresses.repository.ts';
import type { AddressDto, CreateAddressInput, ListAddressesQuery, UpdateAddressInput } from './addresses.schemas.ts';
import { normalisePostcode, postcodePrefix, postcodeProblem } from './postcode.ts';
import { addressKey, linesFromParts, namesBuilding, PART_NAMES, partsFromLines, type AddressParts } from './address-parts.ts';
import * as buildingsRepo from './buildings.repository.ts';
import { lookUpPostcode } from './postcode-lookup.ts';

/**
 * The PAF parts of a stored address: its own, or read from its lines while the backfill
 * `addresses.parts` has not reached it (every part null).
 */
export function partsOf(r: Pick<repo.AddressRow, 'line1' | 'line2' | 'line3' | (typeof PART_NAMES)[number]>): AddressParts {
  if (PART_NAMES.some((k) => r[k] !== null)) {
    return { sub_building: r.sub_building, building_name: r.building_name, building_number: r.building_number, street: r.street, locality: r.locality };
  }
  return partsFromLines([r.line1, r.line2, r.line3]);
}

/** Wire shape of an address row (ID and uuid, ISO timestamps). */
export function toAddressDto(r: repo.AddressRow): AddressDto {
  return {
    ID: r.id,
    uuid: r.uuid,
    line1: r.line1,
    line2: r.line2,
    line3: r.line3,
    ...partsOf(r),
    town: r.town,
    county: r.county,
    postcode: r.postcode,
    latitude: r.latitude,
    longitude: r.longitude,
    building_uuid: r.building_uuid,
    is_communal: r.is_communal,
    is_hmo: r.is_hmo,
    branch_uuid: r.branch_uuid,
    branch_name: r.branch_name,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/**
 * GET /api/addresses: one page of the agency's addresses, sorted by `sort` (ADDRESS_SORTS, default
 * postcode) in `order` (default asc), the id breaking ties (docs/api.md).
 * @returns { rows: AddressDto[], total }
 * @throws 404 'Branch not found' / 'Building not found' for a branch_uuid or building_uuid of another agency
 */
export async function listAddresses(deps: AppDeps, auth: AuthContext, q: ListAddressesQuery) {
  const agencyId = readAgency(auth);
  let branchId: number | undefined;
  if (q.branch_uuid) {
    const branch = await repo.findBranchOfAgency(deps.db, q.branch_uuid, agencyId);
    if (!branch) throw notFound('Branch');
    branchId = branch.id;
  }
  const buildingId = q.building_uuid ? (await getBuildingRow(deps, agencyId, q.building_uuid)).id : undefined;
  const { rows, total } = await repo.listAddresses(deps.db, {
    agencyId,
    q: q.q?.trim() || undefined,
    postcodePrefix: q.postcode ? postcodePrefix(q.postcode) || undefined : undefined,
    branchId,
    buildingId,
    sort: q.sort ?? 'postcode',
    order: q.order ?? 'asc',
    limit: q.limit,
    offset: q.offset,
  });
  return { rows: rows.map(toAddressDto), total };
}

/** An address the caller may see, by uuid. @throws 404 'Address not found' */
export async function getAddressRow(db: DbOrTrx, auth: AuthContext, uuid: string) {
  const row = await repo.findAddressByUuid(db, uuid);
  if (!row || !sameAgency(auth, row.agency_id)) throw notFound('Address');
  return row;
}

/** GET /api/addresses/{uuid}. @throws 404 */
export async function getAddress(deps: AppDeps, auth: AuthContext, uuid: string): Promise<AddressDto> {
  return toAddressDto(await getAddressRow(deps.db, auth, uuid));
}

/**
 * A postcode checked and normalised.
 * @param field the field named in the error (postcode, or building.postcode)
 * @throws 400 naming the field and why: "Invalid or missing required parameter: postcode (the part
 *   after the space (the inward code) must be a digit and two letters, such as 3HN)"
 */
export function checkedPostcode(value: string, field = 'postcode'): string {
  const problem = postcodeProblem(value);
  if (problem !== null) throw invalidParam(`${field} (${value.trim() || 'empty'}: ${problem})`);
  return normalisePostcode(value)!;
}

/**
 * What postcodes.io says of a postcode when the agency enables the lookup (postcode-lookup.ts):
 * null when it is not enabled or the service is down (the format check alone stands).
 * @throws 400 'postcode (... not a live UK postcode ...)' when postcodes.io does not know it
 */
export async function lookUp(deps: AppDeps, agencyId: number, postcode: string, field = 'postcode') {
  if (!(await buildingsRepo.postcodeLookupEnabled(deps.db, agencyId))) return null;
  const w = deps.config.weather;
  const facts = await lookUpPostcode(w.geocodeUrl, postcode, w.timeoutMs);
  if (facts && !facts.found) throw invalidParam(`${field} (${postcode}: not a live UK postcode; postcodes.io does not know it)`);
  return facts;
}

function checkCoordinates(lat: number | null | undefined, lon: number | null | undefined): void {
  if ((lat === undefined || lat === null) !== (lon === undefined || lon === null)) {
    throw invalidParam(lat === undefined || lat === null ? 'latitude' : 'longitude');
  }
}

async function branchId(deps: AppDeps, agencyId: number, uuid: string | null | undefined): Promise<number | null | undefined> {
  if (uuid === undefined) return undefined;
  if (uuid === null) return null;
  const branch = await repo.findBranchOfAgency(deps.db, uuid, agencyId);
  if (!branch) throw notFound('Branch');
  return branch.id;
}

/** A building of the agency by uuid (any agency for null: SysOps reading). @throws 404 'Building not found' */
export async function getBuildingRow(deps: AppDeps, agencyId: number | null, uuid: string): Promise<buildingsRepo.BuildingRow> {
  const row = await buildingsRepo.findBuildingByUuid(deps.db, uuid);
  if (!row || (agencyId !== null && row.agency_id !== agencyId)) throw notFound('Building');
  return row;
}

const BUILDING_PARTS = ['building_name', 'building_number', 'street', 'locality'] as const;


/** 409 when another address of the agency has the same whole address (every part and the postcode). */
async function checkUnique(deps: AppDeps, agencyId: number, parts: AddressParts, postcode: string, exceptId?: number): Promise<void> {
  const key = addressKey(parts, postcode);
  const others = await repo.addressesAtPostcode(deps.db, agencyId, postcode, exceptId);
  if (others.some((o) => addressKey(partsOf(o), postcode) === key)) {
    throw conflict('An address with the same flat, building, street and postcode already exists');
  }
}

type Input = CreateAddressInput & UpdateAddressInput;
const LINE_NAMES = ['line1', 'line2', 'line3'] as const;

/**
 * The lines and parts a write ends with. Lines given and parts not: the parts are read from the
 * lines; parts given and lines not: the lines are composed from the parts; both: as given. The
 * building's parts fill the parts the write leaves empty.
 */
function placeOf(input: Input, current: { lines: Record<(typeof LINE_NAMES)[number], string | null>; parts: AddressParts } | null, building: buildingsRepo.BuildingRow | null) {
  const linesGiven = LINE_NAMES.some((k) => input[k] !== undefined);
  const partsGiven = PART_NAMES.some((k) => input[k] !== undefined);
  const lines = { line1: current?.lines.line1 ?? null, line2: current?.lines.line2 ?? null, line3: current?.lines.line3 ?? null };
  for (const k of LINE_NAMES) if (input[k] !== undefined) lines[k] = clean(input[k]) ?? null;
  let parts: AddressParts = linesGiven && !partsGiven ? partsFromLines([lines.line1, lines.line2, lines.line3]) : { ...(current?.parts ?? partsFromLines([])) };
  for (const k of PART_NAMES) if (input[k] !== undefined) parts[k] = clean(input[k]) ?? null;
  if (building && (!current || input.building_uuid !== undefined)) {
    parts = { ...parts, ...Object.fromEntries(BUILDING_PARTS.map((k) => [k, parts[k] ?? building[k]])) };
  }
  if (!linesGiven && (partsGiven || (building && input.building_uuid !== undefined) || !current)) Object.assign(lines, linesFromParts(parts));
  if (!lines.line1) throw invalidParam('line1');
  return { lines: lines as { line1: string; line2: string | null; line3: string | null }, parts };
}

/**
 * The building a flat joins when none is named: the agency's building at the postcode whose parts
 * the flat's building parts name (namesBuilding), made when there is none yet. Only a unit with a sub-building
 * and a building name or street joins one.
 * @returns the building id, or null
 */
async function buildingFor(
  trx: DbOrTrx, agencyId: number, parts: AddressParts, place: { town: string; county: string | null; postcode: string; branch_id: number | null; latitude: number | null; longitude: number | null }, now: Date,
): Promise<number | null> {
  if (!parts.sub_building || !(parts.building_name || parts.street)) return null;
  const known = (await buildingsRepo.buildingsAtPostcode(trx, agencyId, place.postcode)).find((b) => namesBuilding(parts, b));
  if (known) return known.id;
  return buildingsRepo.insertBuilding(trx, {
    uuid: newUuid(), agency_id: agencyId, external_ref: null, building_name: parts.building_name, building_number: parts.building_number, street: parts.street,
    locality: parts.locality, ...place, created_at: now, updated_at: now,
  });
}

/**
 * POST /api/addresses: creates an address of the caller's agency: a house, or a unit of a
 * building (building_uuid, or a flat given with its building's parts, which joins that building).
 * @returns the AddressDto
 * @throws 400 postcode (with why)/line1/town/latitude/longitude, 403 without an agency, 404 branch or building, 409 same whole address
 */
export async function createAddress(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateAddressInput): Promise<AddressDto> {
  const agencyId = writeAgency(auth);
  const building = input.building_uuid ? await getBuildingRow(deps, agencyId, input.building_uuid) : null;
  if (input.postcode === undefined && !building) throw invalidParam('postcode');
  const postcode = input.postcode !== undefined ? checkedPostcode(input.postcode) : building!.postcode;
  const { lines, parts } = placeOf(input, null, building);
  checkCoordinates(input.latitude, input.longitude);
  const facts = await lookUp(deps, agencyId, postcode);
  const town = input.town?.trim() || building?.town || (facts?.found ? facts.district : null);
  if (!town) throw invalidParam('town');
  const given = await branchId(deps, agencyId, input.branch_uuid);
  const branch = given !== undefined ? given : (building?.branch_id ?? null);
  await checkUnique(deps, agencyId, parts, postcode);
  const latitude = input.latitude ?? building?.latitude ?? (facts?.found ? facts.latitude : null);
  const longitude = input.longitude ?? building?.longitude ?? (facts?.found ? facts.longitude : null);
  const county = input.county !== undefined ? (clean(input.county) ?? null) : (building?.county ?? null);
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const buildingId = building?.id ?? (await buildingFor(trx, agencyId, parts, { town, county, postcode, branch_id: branch, latitude, longitude }, now));
    const id = await repo.insertAddress(trx, {
      uuid: newUuid(),
      agency_id: agencyId,
      branch_id: branch,
      ...lines,
      ...parts,
      building_id: buildingId,
      is_communal: input.is_communal ?? false,
      town,
      county,
      postcode,
      latitude,
      longitude,
      created_at: now,
      updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'address.create', resourceType: 'address', resourceId: id, agencyId });
    return id;
  });
  return toAddressDto((await repo.findAddressById(deps.db, id))!);
}

/**
 * PUT /api/addresses/{uuid}: changes the fields sent (lines or parts, see placeOf).
 * @returns the updated AddressDto
 * @throws 400 bad field (a postcode with why), 404 address, branch or building, 409 same whole address
 */
export async function updateAddress(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateAddressInput): Promise<AddressDto> {
  const row = await getAddressRow(deps.db, auth, uuid);
  const building = input.building_uuid ? await getBuildingRow(deps, row.agency_id, input.building_uuid) : null;
  const postcode = input.postcode !== undefined ? checkedPostcode(input.postcode) : row.postcode;
  const { lines, parts } = placeOf(input, { lines: { line1: row.line1, line2: row.line2, line3: row.line3 }, parts: partsOf(row) }, building);
  if (input.town !== undefined && !input.town.trim()) throw invalidParam('town');
  const lat = input.latitude !== undefined ? input.latitude : row.latitude;
  const lon = input.longitude !== undefined ? input.longitude : row.longitude;
  checkCoordinates(lat, lon);
  if (input.postcode !== undefined && postcode !== row.postcode) await lookUp(deps, row.agency_id, postcode);
  const branch = await branchId(deps, row.agency_id, input.branch_uuid);
  await checkUnique(deps, row.agency_id, parts, postcode, row.id);
  const now = deps.clock.now();
  const changed = Object.keys(input);
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateAddress(trx, row.id, {
      ...lines,
      ...parts,
      postcode,
      latitude: lat,
      longitude: lon,
      ...(input.town !== undefined ? { town: input.town.trim() } : {}),
      ...(input.county !== undefined ? { county: clean(input.county) } : {}),
      ...(branch !== undefined ? { branch_id: branch } : {}),
      ...(input.building_uuid !== undefined ? { building_id: building?.id ?? null } : {}),
      ...(input.is_communal !== undefined ? { is_communal: input.is_communal } : {}),
      updated_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: 'address.update', resourceType: 'address', resourceId: row.id, agencyId: row.agency_id, details: { fields: changed },
    });
  });
  return toAddressDto((await repo.findAddressById(deps.db, row.id))!);
}

/**
 * One batch of the backfill `addresses.parts` (migration 2026_12_06_1100): the parts of addresses
 * that have none are read from their lines (partsFromLines) and stored; lines are left as they are.
 * Idempotent: an address with parts is skipped.
 * @returns how many addresses the batch passed and the last id
 */
export async function backfillAddressPartsBatch(deps: AppDeps, afterId: number, size: number): Promise<{ count: number; lastId: number }> {
  const rows = await repo.addressesAfter(deps.db, afterId, size);
  await deps.db.transaction().execute(async (trx) => {
    for (const r of rows) {
      if (PART_NAMES.some((k) => r[k] !== null)) continue;
      await repo.updateAddress(trx, r.id, partsFromLines([r.line1, r.line2, r.line3]));
    }
  });
  return { count: rows.length, lastId: rows.at(-1)?.id ?? afterId };
}

/** How many addresses the backfill `addresses.parts` passes over. */
export function countAddressesForBackfill(deps: AppDeps): Promise<number> {
  return repo.countAllAddresses(deps.db);
}
