/**
 * Address rules (docs/tenants.md): UK postcodes validated and normalised ("ls6 3hn" -> "LS6 3HN"),
 * latitude and longitude given together, the branch of the caller's agency, no second address of
 * the agency with the same first line and postcode. Every write is logged in its transaction.
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
import { normalisePostcode, postcodePrefix } from './postcode.ts';

/** Wire shape of an address row (ID and uuid, ISO timestamps). */
export function toAddressDto(r: repo.AddressRow): AddressDto {
  return {
    ID: r.id,
    uuid: r.uuid,
    line1: r.line1,
    line2: r.line2,
    line3: r.line3,
    town: r.town,
    county: r.county,
    postcode: r.postcode,
    latitude: r.latitude,
    longitude: r.longitude,
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
 * @throws 404 'Branch not found' for a branch_uuid of another agency
 */
export async function listAddresses(deps: AppDeps, auth: AuthContext, q: ListAddressesQuery) {
  const agencyId = readAgency(auth);
  let branchId: number | undefined;
  if (q.branch_uuid) {
    const branch = await repo.findBranchOfAgency(deps.db, q.branch_uuid, agencyId);
    if (!branch) throw notFound('Branch');
    branchId = branch.id;
  }
  const { rows, total } = await repo.listAddresses(deps.db, {
    agencyId,
    q: q.q?.trim() || undefined,
    postcodePrefix: q.postcode ? postcodePrefix(q.postcode) || undefined : undefined,
    branchId,
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

function checkedPostcode(value: string): string {
  const normal = normalisePostcode(value);
  if (!normal) throw invalidParam('postcode');
  return normal;
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


/**
 * POST /api/addresses: creates an address of the caller's agency.
 * @returns the AddressDto
 * @throws 400 postcode/latitude/longitude, 403 without an agency, 404 branch, 409 duplicate
 */
export async function createAddress(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateAddressInput): Promise<AddressDto> {
  const agencyId = writeAgency(auth);
  const postcode = checkedPostcode(input.postcode);
  const line1 = input.line1.trim();
  const town = input.town.trim();
  if (!line1) throw invalidParam('line1');
  if (!town) throw invalidParam('town');
  checkCoordinates(input.latitude, input.longitude);
  const branch = await branchId(deps, agencyId, input.branch_uuid);
  if (await repo.findDuplicate(deps.db, agencyId, line1, postcode)) {
    throw conflict('An address with this first line and postcode already exists');
  }
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertAddress(trx, {
      uuid: newUuid(),
      agency_id: agencyId,
      branch_id: branch ?? null,
      line1,
      line2: clean(input.line2) ?? null,
      line3: clean(input.line3) ?? null,
      town,
      county: clean(input.county) ?? null,
      postcode,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      created_at: now,
      updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'address.create', resourceType: 'address', resourceId: id, agencyId });
    return id;
  });
  return toAddressDto((await repo.findAddressById(deps.db, id))!);
}

/**
 * PUT /api/addresses/{uuid}: changes the fields sent.
 * @returns the updated AddressDto
 * @throws 400 bad field, 404 address or branch, 409 duplicate
 */
export async function updateAddress(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateAddressInput): Promise<AddressDto> {
  const row = await getAddressRow(deps.db, auth, uuid);
  const postcode = input.postcode !== undefined ? checkedPostcode(input.postcode) : row.postcode;
  const line1 = input.line1 !== undefined ? input.line1.trim() : row.line1;
  if (!line1) throw invalidParam('line1');
  if (input.town !== undefined && !input.town.trim()) throw invalidParam('town');
  const lat = input.latitude !== undefined ? input.latitude : row.latitude;
  const lon = input.longitude !== undefined ? input.longitude : row.longitude;
  checkCoordinates(lat, lon);
  const branch = await branchId(deps, row.agency_id, input.branch_uuid);
  if (await repo.findDuplicate(deps.db, row.agency_id, line1, postcode, row.id)) {
    throw conflict('An address with this first line and postcode already exists');
  }
  const now = deps.clock.now();
  const changed = Object.keys(input);
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateAddress(trx, row.id, {
      line1,
      postcode,
      latitude: lat,
      longitude: lon,
      ...(input.line2 !== undefined ? { line2: clean(input.line2) } : {}),
      ...(input.line3 !== undefined ? { line3: clean(input.line3) } : {}),
      ...(input.town !== undefined ? { town: input.town.trim() } : {}),
      ...(input.county !== undefined ? { county: clean(input.county) } : {}),
      ...(branch !== undefined ? { branch_id: branch } : {}),
      updated_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: 'address.update', resourceType: 'address', resourceId: row.id, agencyId: row.agency_id, details: { fields: changed },
    });
  });
  return toAddressDto((await repo.findAddressById(deps.db, row.id))!);
}
