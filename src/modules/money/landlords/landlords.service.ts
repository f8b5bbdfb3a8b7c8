/**
 * Landlord rules (docs/landlords.md): landlord records of the caller's agency (person or
 * company), their bank details (only in the detail, only for holders of
 * api.landlords.bank-details.view), their ownership shares of properties (basis points; the
 * shares of one property sum to at most 10000), the spend limits (per landlord, per property,
 * the agency default) and the agency's approval settings. A record of another agency is the same
 * 404 as a missing one. Writes log in their transaction, field names only (never values).
 */
import { cleanText as clean, isoOrNull as iso } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { readAgency, sameAgency, writeAgency } from '../../../core/agency-scope.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { addressesByIds, getAddressRow, toAddressDto } from '../../people/addresses/index.ts';
import * as repo from './landlords.repository.ts';
import type {
  BankDetailsDto, CreateLandlordInput, LandlordDetailDto, LandlordDto, LandlordSettingsDto, LinkPropertyInput, ListLandlordsQuery,
  PropertyOwnershipDto, UpdateLandlordInput, UpdateLandlordSettingsInput,
} from './landlords.schemas.ts';

/** The permission key that shows bank details in a landlord's detail. */
export const BANK_DETAILS_KEY = 'api.landlords.bank-details.view';

/** Defaults of the approval settings when an agency saved none. */
export const DEFAULT_SETTINGS: LandlordSettingsDto = { default_approval_limit_pence: null, reminder_after_hours: 48, expires_after_hours: 120 };

/** Wire shape of a landlord row (never bank details). */
export function toLandlordDto(r: repo.LandlordRow): LandlordDto {
  return {
    uuid: r.uuid,
    kind: r.kind,
    name: r.name,
    external_ref: r.external_ref,
    email: r.email,
    phone: r.phone,
    correspondence_address: { line1: r.address_line1, line2: r.address_line2, town: r.address_town, postcode: r.address_postcode },
    vat_registered: r.vat_registered,
    vat_number: r.vat_number,
    approval_limit_pence: r.approval_limit_pence,
    notes: r.notes,
    property_count: Number(r.property_count ?? 0),
    has_bank_details: Boolean(r.has_bank_details),
    erased_at: iso(r.erased_at),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** A landlord the caller may see, by uuid. @throws 404 'Landlord not found' */
export async function getLandlordRow(db: DbOrTrx, auth: AuthContext, uuid: string): Promise<repo.LandlordRow> {
  const row = await repo.findLandlordByUuid(db, uuid);
  if (!row || !sameAgency(auth, row.agency_id)) throw notFound('Landlord');
  return row;
}

/**
 * GET /api/landlords: one page ordered by name; never bank details.
 * @returns { rows: LandlordDto[], total }
 * @throws 404 'Address not found' for an address_uuid filter outside the agency
 */
export async function listLandlords(deps: AppDeps, auth: AuthContext, q: ListLandlordsQuery) {
  const addressId = q.address_uuid ? (await getAddressRow(deps.db, auth, q.address_uuid)).id : undefined;
  const { rows, total } = await repo.listLandlords(deps.db, {
    agencyId: readAgency(auth),
    q: q.q?.trim() || undefined,
    ...(addressId !== undefined ? { addressId } : {}),
    includeErased: q.include_erased === true,
    limit: q.limit,
    offset: q.offset,
  });
  return { rows: rows.map(toLandlordDto), total };
}

/** The detail: properties with shares, and bank details when the caller holds the key. */
async function detail(db: DbOrTrx, auth: AuthContext, row: repo.LandlordRow): Promise<LandlordDetailDto> {
  const shares = await repo.sharesOfLandlord(db, row.id);
  const addresses = await addressesByIds(db, shares.map((s) => s.address_id));
  const share = new Map(shares.map((s) => [s.address_id, s.share_bp]));
  const out: LandlordDetailDto = {
    ...toLandlordDto(row),
    properties: addresses.map((a) => ({ address: toAddressDto(a), share_bp: share.get(a.id)! })),
  };
  if (auth.permissions.has(BANK_DETAILS_KEY)) {
    const b = await repo.bankDetailsOf(db, row.id);
    const bank: BankDetailsDto = { account_name: b.bank_account_name, sort_code: b.bank_sort_code, account_number: b.bank_account_number };
    out.bank_details = bank;
  }
  return out;
}

/** GET /api/landlords/{uuid}. @throws 404 */
export async function getLandlord(deps: AppDeps, auth: AuthContext, uuid: string): Promise<LandlordDetailDto> {
  return detail(deps.db, auth, await getLandlordRow(deps.db, auth, uuid));
}

/** 12-34-56 from 123456 or 12-34-56. */
function sortCode(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v;
  const d = v.replace(/-/g, '');
  return `${d.slice(0, 2)}-${d.slice(2, 4)}-${d.slice(4, 6)}`;
}

/** GB123456789 from 123456789 or GB123456789. */
function vatNumber(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v;
  return v.startsWith('GB') ? v : `GB${v}`;
}

/** The columns a create or update writes, from the fields sent. */
function columns(input: UpdateLandlordInput) {
  const postcode = clean(input.address_postcode);
  return {
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.email !== undefined ? { email: clean(input.email)?.toLowerCase() ?? null } : {}),
    ...(input.phone !== undefined ? { phone: clean(input.phone) } : {}),
    ...(input.address_line1 !== undefined ? { address_line1: clean(input.address_line1) } : {}),
    ...(input.address_line2 !== undefined ? { address_line2: clean(input.address_line2) } : {}),
    ...(input.address_town !== undefined ? { address_town: clean(input.address_town) } : {}),
    ...(postcode !== undefined ? { address_postcode: postcode === null ? null : postcode.toUpperCase() } : {}),
    ...(input.bank_account_name !== undefined ? { bank_account_name: clean(input.bank_account_name) } : {}),
    ...(input.bank_sort_code !== undefined ? { bank_sort_code: sortCode(input.bank_sort_code) } : {}),
    ...(input.bank_account_number !== undefined ? { bank_account_number: input.bank_account_number } : {}),
    ...(input.vat_registered !== undefined ? { vat_registered: input.vat_registered } : {}),
    ...(input.vat_number !== undefined ? { vat_number: vatNumber(input.vat_number) } : {}),
    ...(input.approval_limit_pence !== undefined ? { approval_limit_pence: input.approval_limit_pence } : {}),
    ...(input.notes !== undefined ? { notes: clean(input.notes) } : {}),
  };
}

/** A VAT-registered landlord needs a VAT number. @throws 400 vat_number */
function checkVat(registered: boolean, number: string | null): void {
  if (registered && !number) throw invalidParam('vat_number');
}

/**
 * POST /api/landlords: creates a landlord of the caller's agency.
 * @throws 400 name, vat_number (registered without one); 403 without an agency
 */
export async function createLandlord(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateLandlordInput): Promise<LandlordDetailDto> {
  const agencyId = writeAgency(auth);
  if (!input.name.trim()) throw invalidParam('name');
  const cols = columns(input);
  checkVat(input.vat_registered === true, cols.vat_number ?? null);
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertLandlord(trx, {
      email: null, phone: null, address_line1: null, address_line2: null, address_town: null, address_postcode: null, bank_account_name: null,
      bank_sort_code: null, bank_account_number: null, vat_number: null, approval_limit_pence: null, notes: null,
      ...cols, kind: input.kind ?? 'person', name: input.name.trim(), uuid: newUuid(), agency_id: agencyId, created_at: now, updated_at: now, erased_at: null,
    });
    await recordActivity(trx, actor, now, { action: 'landlord.create', resourceType: 'landlord', resourceId: id, agencyId });
    return id;
  });
  return detail(deps.db, auth, (await repo.findLandlordById(deps.db, id))!);
}

/**
 * PUT /api/landlords/{uuid}: changes the fields sent.
 * @throws 400 name or vat_number, 404 landlord, 409 erased
 */
export async function updateLandlord(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateLandlordInput): Promise<LandlordDetailDto> {
  const row = await getLandlordRow(deps.db, auth, uuid);
  if (row.erased_at !== null) throw conflict('Landlord has been erased');
  if (input.name !== undefined && !input.name.trim()) throw invalidParam('name');
  const cols = columns(input);
  checkVat(cols.vat_registered ?? row.vat_registered, cols.vat_number !== undefined ? cols.vat_number : row.vat_number);
  const now = deps.clock.now();
  const changed = Object.keys(input);
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateLandlord(trx, row.id, { ...cols, updated_at: now });
    await recordActivity(trx, actor, now, {
      action: 'landlord.update', resourceType: 'landlord', resourceId: row.id, agencyId: row.agency_id, details: { fields: changed },
    });
  });
  return detail(deps.db, auth, (await repo.findLandlordById(deps.db, row.id))!);
}

/**
 * POST /api/landlords/{uuid}/properties: links a property with an ownership share, or changes
 * the share of an existing link. The property's row is locked, so two concurrent links cannot
 * together pass 10000.
 * @returns { created } false when an existing share changed
 * @throws 404 landlord or address (missing or another agency's), 409 erased landlord or shares
 *   above 100 %
 */
export async function linkProperty(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: LinkPropertyInput): Promise<{ created: boolean; detail: LandlordDetailDto }> {
  const landlord = await getLandlordRow(deps.db, auth, uuid);
  const address = await getAddressRow(deps.db, auth, input.address_uuid);
  if (address.agency_id !== landlord.agency_id) throw notFound('Address');
  if (landlord.erased_at !== null) throw conflict('Landlord has been erased');
  const now = deps.clock.now();
  const created = await deps.db.transaction().execute(async (trx) => {
    await repo.lockAddress(trx, address.id);
    const others = await repo.sharesTotal(trx, address.id, landlord.id);
    if (others + input.share_bp > 10000) {
      throw conflict(`The shares of this property would be ${((others + input.share_bp) / 100).toFixed(2)} %: at most ${((10000 - others) / 100).toFixed(2)} % is left`);
    }
    const created = await repo.upsertShare(trx, landlord.id, address.id, input.share_bp, now);
    await recordActivity(trx, actor, now, {
      action: 'landlord.link_property', resourceType: 'landlord', resourceId: landlord.id, agencyId: landlord.agency_id,
      details: { address_id: address.id, share_bp: input.share_bp },
    });
    return created;
  });
  return { created, detail: await detail(deps.db, auth, (await repo.findLandlordById(deps.db, landlord.id))!) };
}

/**
 * DELETE /api/landlords/{uuid}/properties/{address_uuid}: removes the link.
 * @throws 404 landlord, address or no such link
 */
export async function unlinkProperty(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, addressUuid: string): Promise<void> {
  const landlord = await getLandlordRow(deps.db, auth, uuid);
  const address = await getAddressRow(deps.db, auth, addressUuid);
  if (address.agency_id !== landlord.agency_id) throw notFound('Address');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.unlinkProperty(trx, landlord.id, address.id))) throw notFound('Property link');
    await recordActivity(trx, actor, now, {
      action: 'landlord.unlink_property', resourceType: 'landlord', resourceId: landlord.id, agencyId: landlord.agency_id, details: { address_id: address.id },
    });
  });
}

/**
 * The agency's approval settings: the default limit is the agency's (agencies.default_approval_limit_pence,
 * also set by PUT /api/agencies/current); reminder and expiry hours default when none saved.
 */
export async function settingsFor(db: DbOrTrx, agencyId: number): Promise<LandlordSettingsDto> {
  const row = await repo.settingsOf(db, agencyId);
  return {
    default_approval_limit_pence: row?.default_approval_limit_pence ?? DEFAULT_SETTINGS.default_approval_limit_pence,
    reminder_after_hours: row?.reminder_after_hours ?? DEFAULT_SETTINGS.reminder_after_hours,
    expires_after_hours: row?.expires_after_hours ?? DEFAULT_SETTINGS.expires_after_hours,
  };
}

/**
 * The spend limit that applies to a property: its own limit wins; else the lowest limit of its
 * landlords (the strictest owner); else the agency default; else none (no approval needed).
 */
export async function effectiveLimit(db: DbOrTrx, agencyId: number, addressId: number | null) {
  const settings = await settingsFor(db, agencyId);
  const owners = addressId === null ? [] : await repo.ownersOfAddress(db, addressId);
  const property = addressId === null ? null : await repo.propertyLimit(db, addressId);
  if (property !== null) return { limit: property, source: 'property' as const, owners, property };
  const landlordLimits = owners.map((o) => o.approval_limit_pence).filter((l): l is number => l !== null);
  if (landlordLimits.length > 0) return { limit: Math.min(...landlordLimits), source: 'landlord' as const, owners, property };
  if (settings.default_approval_limit_pence !== null) return { limit: settings.default_approval_limit_pence, source: 'agency' as const, owners, property };
  return { limit: null, source: 'none' as const, owners, property };
}

/** GET /api/landlords/properties/{address_uuid}: owners, shares and the limit that applies. @throws 404 */
export async function propertyOwnership(deps: AppDeps, auth: AuthContext, addressUuid: string): Promise<PropertyOwnershipDto> {
  const address = await getAddressRow(deps.db, auth, addressUuid);
  const e = await effectiveLimit(deps.db, address.agency_id, address.id);
  return {
    address: toAddressDto(address),
    owners: e.owners.map((o) => ({ landlord_uuid: o.uuid, name: o.name, share_bp: o.share_bp })),
    shares_total_bp: e.owners.reduce((s, o) => s + o.share_bp, 0),
    property_limit_pence: e.property,
    effective_limit_pence: e.limit,
    limit_source: e.source,
  };
}

/** PUT /api/landlords/properties/{address_uuid}/approval-limit: sets or (null) removes the property's limit. @throws 404 */
export async function setPropertyLimit(deps: AppDeps, auth: AuthContext, actor: Actor, addressUuid: string, limit: number | null): Promise<PropertyOwnershipDto> {
  const address = await getAddressRow(deps.db, auth, addressUuid);
  writeAgency(auth);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.setPropertyLimit(trx, address.id, limit, now);
    await recordActivity(trx, actor, now, { action: 'property.approval_limit', resourceType: 'address', resourceId: address.id, agencyId: address.agency_id, details: { limit_pence: limit } });
  });
  return propertyOwnership(deps, auth, addressUuid);
}

/** GET /api/landlords/settings. @throws 403 without an agency */
export async function getSettings(deps: AppDeps, auth: AuthContext): Promise<LandlordSettingsDto> {
  return settingsFor(deps.db, writeAgency(auth));
}

/**
 * PUT /api/landlords/settings: the agency default limit, reminder and expiry hours.
 * @throws 400 a reminder not before the expiry, 403 without an agency
 */
export async function updateSettings(deps: AppDeps, auth: AuthContext, actor: Actor, input: UpdateLandlordSettingsInput): Promise<LandlordSettingsDto> {
  const agencyId = writeAgency(auth);
  const current = await settingsFor(deps.db, agencyId);
  const next: LandlordSettingsDto = {
    default_approval_limit_pence: input.default_approval_limit_pence !== undefined ? input.default_approval_limit_pence : current.default_approval_limit_pence,
    reminder_after_hours: input.reminder_after_hours ?? current.reminder_after_hours,
    expires_after_hours: input.expires_after_hours ?? current.expires_after_hours,
  };
  if (next.reminder_after_hours >= next.expires_after_hours) throw invalidParam('reminder_after_hours');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveSettings(trx, agencyId, next, now);
    await recordActivity(trx, actor, now, { action: 'landlord.settings', resourceType: 'agency', resourceId: agencyId, agencyId, details: { ...next } });
  });
  return next;
}
