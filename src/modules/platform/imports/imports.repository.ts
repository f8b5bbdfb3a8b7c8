/** SQL of the importer (docs/onboarding.md, "Import"): the imports and their rows, and the entity writers' bulk path. No rules here. */
import { sql, type Insertable } from 'kysely';
import type { ImportTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { newUuid } from '../../../lib/crypto.ts';

const ADDRESS_COLUMNS = [
  'id', 'external_ref', 'line1', 'line2', 'line3', 'sub_building', 'building_name', 'building_number', 'street', 'locality', 'town', 'county', 'postcode',
  'branch_id', 'building_id', 'is_communal',
] as const;

// ---------------------------------------------------------------------------------------------
// Properties (addresses)

/** One property row of an import, as written (entities.ts parses it); a field left out is kept as stored (its column is not in the file). */
export interface AddressValue {
  external_ref?: string | null;
  line1: string;
  line2?: string | null;
  line3?: string | null;
  sub_building: string | null;
  building_name: string | null;
  building_number: string | null;
  street: string | null;
  locality: string | null;
  town: string;
  county?: string | null;
  postcode: string;
  branch_id?: number | null;
  /** set by the writer: the building the unit joins (by its parts), never from the file */
  building_id?: number | null;
  /**
   * Set by the parser, never a column: the parts were read from the lines while a line column is
   * absent from the file (its line kept as stored), so the writer reads them again from the lines
   * as they will stand, and the outcome compares the lines, not these parts.
   */
  parts_from_lines?: boolean;
  is_communal?: boolean;
}

/** One property as stored, every field read. */
export type AddressRecord = Required<Omit<AddressValue, 'parts_from_lines'>> & { id: number };

/** One certificate of an imported contractor, as written. */
export interface CertValue {
  type: string;
  reference: string;
  expires_on: string;
}

/** The agency's properties, as the import index holds them. */
export function listAgencyAddresses(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('addresses')
    .select(ADDRESS_COLUMNS)
    .where('agency_id', '=', agencyId)
    .execute();
}

/** The agency's buildings (id, parts, postcode), for joining imported flats to their building. */
export function listAgencyBuildings(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('buildings').select(['id', 'building_name', 'building_number', 'street', 'locality', 'postcode']).where('agency_id', '=', agencyId).execute();
}

/** Inserts a building for imported flats; returns its id. */
export async function insertBuildingOf(
  db: DbOrTrx, agencyId: number, b: { building_name: string | null; building_number: string | null; street: string | null; locality: string | null; town: string; county: string | null; postcode: string; branch_id: number | null }, now: Date,
): Promise<number> {
  return (await db.insertInto('buildings').values({ ...b, uuid: newUuid(), agency_id: agencyId, external_ref: null, latitude: null, longitude: null, created_at: now, updated_at: now })
    .returning('id').executeTakeFirstOrThrow()).id;
}

/** The agency's branches (id and name). */
export function listAgencyBranches(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('branches').select(['id', 'name']).where('agency_id', '=', agencyId).execute();
}

/** Overwrites one property's fields (those given). */
export async function updateAddress(db: DbOrTrx, id: number, set: AddressValue, now: Date): Promise<void> {
  const { parts_from_lines: _, ...fields } = set;
  await db.updateTable('addresses').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}

/** Inserts new properties in one statement and returns them as the index holds them. */
export function insertAddresses(db: DbOrTrx, agencyId: number, values: AddressValue[], now: Date) {
  return db
    .insertInto('addresses')
    .values(values.map(({ parts_from_lines: _, ...v }) => ({ ...v, uuid: newUuid(), agency_id: agencyId, created_at: now, updated_at: now })))
    .returning(ADDRESS_COLUMNS)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Tenants

/** A tenant's fields as an import writes them; a field left out is kept as stored (a new tenant: null). */
export interface TenantFields {
  external_ref?: string | null;
  name: string;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  preferred_contact?: string | null;
}

/** The agency's tenants not erased, as the import index holds them. */
export function listAgencyTenants(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('tenants')
    .select(['id', 'external_ref', 'name', 'email', 'phone', 'mobile', 'preferred_contact'])
    .where('agency_id', '=', agencyId)
    .where('erased_at', 'is', null)
    .execute();
}

/** The links between the agency's tenants and properties. */
export function listAgencyTenantLinks(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('tenant_addresses as ta')
    .innerJoin('tenants as t', 't.id', 'ta.tenant_id')
    .select(['ta.tenant_id', 'ta.address_id'])
    .where('t.agency_id', '=', agencyId)
    .execute();
}

/** Overwrites one tenant's fields (those given). */
export async function updateTenant(db: DbOrTrx, id: number, fields: TenantFields, now: Date): Promise<void> {
  await db.updateTable('tenants').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}

/** Inserts one tenant and returns its id. */
export async function insertTenant(db: DbOrTrx, agencyId: number, fields: TenantFields, now: Date): Promise<number> {
  const row = await db
    .insertInto('tenants')
    .values({ ...fields, uuid: newUuid(), agency_id: agencyId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Links a tenant to a property (nothing when already linked). */
export async function linkTenantAddress(db: DbOrTrx, tenantId: number, addressId: number, now: Date): Promise<void> {
  await db.insertInto('tenant_addresses').values({ tenant_id: tenantId, address_id: addressId, created_at: now }).onConflict((oc) => oc.doNothing()).execute();
}

// ---------------------------------------------------------------------------------------------
// Contractors

/** A contractor's fields as an import writes them; a field left out is kept as stored (a new contractor: null). */
export interface ContractorFields {
  external_ref?: string | null;
  company_name: string;
  contact_name?: string | null;
  email?: string | null;
  phone?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Landlords (the landlords module's tables; the import's own bulk path)

/** A landlord's fields as an import writes them; a field left out is kept as stored (a new landlord: a person, null). */
export interface LandlordFields {
  external_ref: string;
  kind?: 'person' | 'company';
  name: string;
  email?: string | null;
  phone?: string | null;
  address_line1?: string | null;
  address_town?: string | null;
  address_postcode?: string | null;
  vat_number?: string | null;
  approval_limit_pence?: number | null;
}

/** The agency's landlords that are not erased. */
export function listAgencyLandlords(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('landlords')
    .select(['id', 'external_ref', 'kind', 'name', 'email', 'phone', 'address_line1', 'address_town', 'address_postcode', 'vat_number', 'approval_limit_pence'])
    .where('agency_id', '=', agencyId)
    .where('erased_at', 'is', null)
    .execute();
}

/** The ownership shares (basis points) of the agency's properties. */
export function listAgencyOwnership(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('landlord_properties as lp')
    .innerJoin('landlords as l', 'l.id', 'lp.landlord_id')
    .select(['lp.landlord_id', 'lp.address_id', 'lp.share_bp'])
    .where('l.agency_id', '=', agencyId)
    .execute();
}

/** Inserts one landlord (a person unless `kind` says otherwise; VAT registered when it has a VAT number) and returns its id. */
export async function insertLandlord(db: DbOrTrx, agencyId: number, fields: LandlordFields, now: Date): Promise<number> {
  const row = await db
    .insertInto('landlords')
    .values({ ...fields, kind: fields.kind ?? 'person', vat_registered: (fields.vat_number ?? null) !== null, uuid: newUuid(), agency_id: agencyId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Overwrites one landlord's fields (those given; VAT registered follows the VAT number when that is given). */
export async function updateLandlord(db: DbOrTrx, id: number, fields: LandlordFields, now: Date): Promise<void> {
  const vat = fields.vat_number === undefined ? {} : { vat_registered: fields.vat_number !== null };
  await db.updateTable('landlords').set({ ...fields, ...vat, updated_at: now }).where('id', '=', id).execute();
}

/** Replaces a landlord's properties and shares with the given ones. */
export async function replaceLandlordProperties(db: DbOrTrx, landlordId: number, shares: Array<{ address_id: number; share_bp: number }>, now: Date): Promise<void> {
  await db.deleteFrom('landlord_properties').where('landlord_id', '=', landlordId).execute();
  if (shares.length) await db.insertInto('landlord_properties').values(shares.map((x) => ({ ...x, landlord_id: landlordId, created_at: now }))).execute();
}

/** The trades the agency may give (global and its own, not retired). */
export function listUsableTrades(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('trades')
    .select(['id', 'code', 'name'])
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)]))
    .where('retired_at', 'is', null)
    .execute();
}

/** The agency's contractors with their trade ids and covered districts (sorted). */
export function listAgencyContractors(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('contractors as c')
    .select([
      'c.id', 'c.external_ref', 'c.company_name', 'c.contact_name', 'c.email', 'c.phone',
      sql<number[]>`array(select trade_id from contractor_trades where contractor_id = c.id order by 1)`.as('trade_ids'),
      sql<string[]>`array(select district from contractor_coverage where contractor_id = c.id order by 1)`.as('coverage'),
    ])
    .where('c.agency_id', '=', agencyId)
    .execute();
}

/** The agency's live contractor certificates (expiry as YYYY-MM-DD text). */
export function listAgencyCertifications(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('contractor_certifications')
    .select(['id', 'contractor_id', 'cert_type', 'reference', sql<string>`expires_on::text`.as('expires_on')])
    .where('agency_id', '=', agencyId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Overwrites one contractor's fields (those given) and clears its trades and coverage when `clear` says so (the file has the column). */
export async function updateContractorClearingLists(db: DbOrTrx, id: number, fields: ContractorFields, clear: { trades: boolean; coverage: boolean }, now: Date): Promise<void> {
  await db.updateTable('contractors').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
  if (clear.trades) await db.deleteFrom('contractor_trades').where('contractor_id', '=', id).execute();
  if (clear.coverage) await db.deleteFrom('contractor_coverage').where('contractor_id', '=', id).execute();
}

/** Inserts one contractor and returns its id. */
export async function insertContractor(db: DbOrTrx, agencyId: number, fields: ContractorFields, now: Date): Promise<number> {
  const row = await db
    .insertInto('contractors')
    .values({ ...fields, uuid: newUuid(), agency_id: agencyId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Adds trades to a contractor. */
export async function insertContractorTrades(db: DbOrTrx, contractorId: number, tradeIds: number[]): Promise<void> {
  await db.insertInto('contractor_trades').values(tradeIds.map((t) => ({ contractor_id: contractorId, trade_id: t }))).execute();
}

/** Adds covered districts to a contractor. */
export async function insertContractorCoverage(db: DbOrTrx, contractorId: number, districts: string[]): Promise<void> {
  await db.insertInto('contractor_coverage').values(districts.map((d) => ({ contractor_id: contractorId, district: d }))).execute();
}

/** Sets the expiry of one certificate. */
export async function updateCertificationExpiry(db: DbOrTrx, id: number, expiresOn: string, now: Date): Promise<void> {
  await db.updateTable('contractor_certifications').set({ expires_on: expiresOn, updated_at: now }).where('id', '=', id).execute();
}

/** Inserts one certificate of a contractor and returns its id. */
export async function insertCertification(db: DbOrTrx, agencyId: number, contractorId: number, c: CertValue, now: Date): Promise<number> {
  const row = await db
    .insertInto('contractor_certifications')
    .values({ uuid: newUuid(), agency_id: agencyId, contractor_id: contractorId, cert_type: c.type, reference: c.reference, expires_on: c.expires_on, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// ---------------------------------------------------------------------------------------------
// Imports and their rows

/** One import by uuid (within an agency unless `agencyId` is null), or undefined. */
export function findImport(db: DbOrTrx, uuid: string, agencyId: number | null) {
  let q = db.selectFrom('imports').selectAll().where('uuid', '=', uuid);
  if (agencyId !== null) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** The rows of an import (errors only with `errorsOnly`), in file order. */
export function listImportRows(db: DbOrTrx, importId: number, errorsOnly: boolean) {
  let q = db.selectFrom('import_rows').select(['row_number', 'outcome', 'errors']).where('import_id', '=', importId);
  if (errorsOnly) q = q.where('outcome', '=', 'error');
  return q.orderBy('row_number').execute();
}

/** Inserts an import and returns its id. */
export async function insertImport(db: DbOrTrx, values: Insertable<ImportTable>): Promise<number> {
  const row = await db.insertInto('imports').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts checked rows of an import. */
export async function insertImportRows(db: DbOrTrx, importId: number, rows: { row: number; outcome: string; value: unknown; errors: unknown }[]): Promise<void> {
  await db
    .insertInto('import_rows')
    .values(rows.map((c) => ({ import_id: importId, row_number: c.row, outcome: c.outcome, data: JSON.stringify(c.value ?? {}), errors: JSON.stringify(c.errors) })))
    .execute();
}

/** The rows of an import after `cursor`, up to `limit`, in file order. */
export function listRowsAfter(db: DbOrTrx, importId: number, cursor: number, limit: number) {
  return db
    .selectFrom('import_rows')
    .select(['row_number', 'outcome', 'data'])
    .where('import_id', '=', importId)
    .where('row_number', '>', cursor)
    .orderBy('row_number')
    .limit(limit)
    .execute();
}

/** Moves an import's cursor past a written chunk of `count` rows (status committing). */
export async function advanceImportCursor(db: DbOrTrx, id: number, last: number, count: number, now: Date): Promise<void> {
  await db
    .updateTable('imports')
    .set({ cursor: last, rows_done: sql<number>`rows_done + ${count}`, status: 'committing', updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Marks an import committed. */
export async function markImportCommitted(db: DbOrTrx, id: number, now: Date): Promise<void> {
  await db.updateTable('imports').set({ status: 'committed', committed_at: now, updated_at: now }).where('id', '=', id).execute();
}

/** Moves an import from checked to `status`; true when this call did it. */
export async function claimCheckedImport(db: DbOrTrx, id: number, status: 'queued' | 'committing', now: Date): Promise<boolean> {
  const claimed = await db
    .updateTable('imports')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'checked')
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) !== 0;
}

/** The imports queued, or committing with no write since `stale`, oldest first. */
export function listPendingImports(db: DbOrTrx, stale: Date) {
  return db
    .selectFrom('imports')
    .select(['id', 'uuid', 'agency_id'])
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'committing'), eb('updated_at', '<', stale)])]))
    .orderBy('id')
    .execute();
}

/** Claims a pending import (status committing, updated_at moved); true when this call did it. */
export async function claimPendingImport(db: DbOrTrx, id: number, stale: Date, now: Date): Promise<boolean> {
  const claimed = await db
    .updateTable('imports')
    .set({ status: 'committing', updated_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'committing'), eb('updated_at', '<', stale)])]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) !== 0;
}

/** An import's place among its agency's queued imports, oldest first (1 is next). */
export async function importQueuePosition(db: DbOrTrx, agencyId: number, importId: number): Promise<number> {
  const row = await db
    .selectFrom('imports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agency_id', '=', agencyId)
    .where('status', '=', 'queued')
    .where('id', '<=', importId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks an import failed with its reason. */
export async function markImportFailed(db: DbOrTrx, id: number, failure: string, now: Date): Promise<void> {
  await db.updateTable('imports').set({ status: 'failed', failure, updated_at: now }).where('id', '=', id).execute();
}
