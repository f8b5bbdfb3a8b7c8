/**
 * The four importable entities (docs/onboarding.md, "Import"): their columns (the downloadable
 * templates), how a row is checked and keyed, how it compares with what the agency holds and how
 * it is written. A row is keyed by the agency's own reference (`external_ref`) when it has one,
 * else by postcode + first line (properties), e-mail (tenants) or company name (contractors);
 * landlords always by their reference. Importing the same file again finds every row unchanged.
 * An optional column the file lacks leaves its fields as stored on update (keptColumns,
 * withoutKept); the column with an empty cell clears them.
 *
 * The index of an entity holds the agency's current records of that kind in memory (one query per
 * table), so a dry run of 10,000 rows costs a few queries, not 10,000; a commit keeps it up to date
 * as it writes. The SQL (imports.repository.ts) is the importer's own bulk path into the people tables; the
 * interactive endpoints stay in their modules (addresses, tenants, contractors).
 */
import type { DbOrTrx } from '../../../db/types.ts';
import { forEachSliced } from '../../../lib/concurrency.ts';
import {
  addressKey, namesBuilding, normaliseDistrict, normalisePostcode, PART_NAMES, partsFromLines, partsOf, postcodeProblem,
} from '../../people/addresses/index.ts';
import { CERT_TYPE_CODES } from '../../people/contractors/index.ts';
import {
  insertAddresses, insertBuildingOf, insertCertification, listAgencyBuildings, insertContractor, insertContractorCoverage, insertContractorTrades, insertLandlord, insertTenant, linkTenantAddress,
  listAgencyAddresses, listAgencyBranches, listAgencyCertifications, listAgencyContractors, listAgencyLandlords, listAgencyOwnership, listAgencyTenantLinks,
  listAgencyTenants, listUsableTrades, replaceLandlordProperties, updateAddress, updateCertificationExpiry, updateContractorClearingLists, updateLandlord,
  updateTenant, type ContractorFields, type LandlordFields, type TenantFields, type AddressRecord, type AddressValue, type CertValue,
} from './imports.repository.ts';

export const ENTITIES = ['addresses', 'tenants', 'contractors', 'landlords'] as const;
export type Entity = (typeof ENTITIES)[number];

export interface RowError {
  column: string;
  reason: string;
}

export interface Column {
  name: string;
  required: boolean;
  description: string;
  example: string;
  /**
   * The fields of a row's value this column fills (default: the column's name); [] for a column
   * that only adds (a tenant's link to a property, a contractor's certificates) and so never clears.
   */
  fields?: readonly string[];
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const PHONE = /^\+?[0-9 ()-]{6,29}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CERT_TYPES: readonly string[] = CERT_TYPE_CODES;
const CONTACT = ['email', 'phone', 'sms', 'post'];

/** The columns of each entity, in template order. */
export const COLUMNS: Record<Entity, Column[]> = {
  addresses: [
    { name: 'external_ref', required: false, description: 'your own reference of the property (the key for re-imports)', example: 'PROP-0001' },
    { name: 'line1', required: true, description: 'first line', example: '12 Hyde Park Road' },
    { name: 'line2', required: false, description: 'second line', example: 'Flat 2' },
    { name: 'line3', required: false, description: 'third line', example: '' },
    { name: 'sub_building', required: false, description: 'flat or unit (PAF sub-building); without the part columns the parts are read from the lines', example: 'Flat 2', fields: [] },
    { name: 'building_name', required: false, description: 'building name (PAF)', example: '', fields: [] },
    { name: 'building_number', required: false, description: 'building number (PAF)', example: '12', fields: [] },
    { name: 'street', required: false, description: 'street (PAF thoroughfare)', example: 'Hyde Park Road', fields: [] },
    { name: 'locality', required: false, description: 'locality (PAF dependent locality)', example: '', fields: [] },
    { name: 'is_communal', required: false, description: "true for a building's communal areas", example: '' },
    { name: 'town', required: true, description: 'post town', example: 'Leeds' },
    { name: 'county', required: false, description: 'county', example: 'West Yorkshire' },
    { name: 'postcode', required: true, description: 'UK postcode', example: 'LS6 1AB' },
    { name: 'branch', required: false, description: 'name of the branch that manages it (jobs take their branch from it)', example: 'Head office', fields: ['branch_id'] },
  ],
  tenants: [
    { name: 'external_ref', required: false, description: 'your own reference of the tenant (the key for re-imports; else the e-mail)', example: 'TEN-0001' },
    { name: 'name', required: true, description: 'full name', example: 'Priya Shah' },
    { name: 'email', required: false, description: 'e-mail address (needed when there is no external_ref)', example: 'priya@example.com' },
    { name: 'phone', required: false, description: 'phone', example: '0113 496 0000' },
    { name: 'mobile', required: false, description: 'mobile', example: '07700 900123' },
    { name: 'preferred_contact', required: false, description: 'email, phone, sms or post', example: 'email' },
    { name: 'property_ref', required: false, description: 'external_ref of the property they live in', example: 'PROP-0001', fields: [] },
    { name: 'property_postcode', required: false, description: 'or the property\'s postcode ...', example: '', fields: [] },
    { name: 'property_line1', required: false, description: '... and first line', example: '', fields: [] },
    { name: 'property_line2', required: false, description: '... and second line (a flat whose building shares the first line)', example: '', fields: [] },
  ],
  contractors: [
    { name: 'external_ref', required: false, description: 'your own reference of the firm (the key for re-imports; else the company name)', example: 'CON-001' },
    { name: 'company_name', required: true, description: 'company name', example: 'Aire Valley Plumbing Ltd' },
    { name: 'contact_name', required: false, description: 'main contact', example: 'Dan Aire' },
    { name: 'email', required: false, description: 'e-mail address', example: 'jobs@airevalley.example' },
    { name: 'phone', required: false, description: 'phone', example: '0113 496 0101' },
    { name: 'trades', required: false, description: 'trade codes or names, separated by ;', example: 'plumbing; heating', fields: ['trade_ids'] },
    { name: 'coverage', required: false, description: 'postcode districts covered, separated by ; or spaces', example: 'LS6; LS7; LS16', fields: ['coverage'] },
    { name: 'certificates', required: false, description: 'type:reference:expiry (YYYY-MM-DD), separated by ; (types: gas_safe, niceic, napit, oftec, fensa, chas, public_liability)', example: 'gas_safe:123456:2027-05-31', fields: [] },
  ],
  landlords: [
    { name: 'external_ref', required: true, description: 'your own reference of the landlord (the key for re-imports)', example: 'LL-001' },
    { name: 'kind', required: false, description: 'person or company; left out or empty: person for a new landlord, unchanged on a re-import', example: 'person' },
    { name: 'name', required: true, description: 'full name or company name', example: 'Ada Lovelace' },
    { name: 'email', required: false, description: 'e-mail address (where approval requests go)', example: 'ada@example.com' },
    { name: 'phone', required: false, description: 'phone', example: '0113 496 0200' },
    { name: 'address_line1', required: false, description: 'correspondence address: first line', example: '1 Park Square' },
    { name: 'address_town', required: false, description: 'correspondence address: town', example: 'Leeds' },
    { name: 'address_postcode', required: false, description: 'correspondence address: UK postcode', example: 'LS1 2ND' },
    { name: 'vat_number', required: false, description: 'VAT number (GB and 9 or 12 digits); VAT registered when given', example: '' },
    { name: 'approval_limit_pence', required: false, description: 'spend limit in pence above which a job waits for approval', example: '30000' },
    { name: 'properties', required: false, description: 'property_ref:share in per cent, separated by ; (the landlord\'s properties as the file has them; import the properties first)', example: 'PROP-0001:50; PROP-0002:100', fields: ['shares'] },
  ],
};

/**
 * The optional columns of `entity` that the file lacks (`headers`: its normalised header row) and
 * whose fields a re-import therefore keeps as stored (docs/onboarding.md, "Columns not in the
 * file"). A column that only adds (no fields) is left out: nothing of it would be cleared anyway.
 * @returns column names, in template order
 */
export function keptColumns(entity: Entity, headers: readonly string[]): string[] {
  return COLUMNS[entity].filter((c) => !c.required && !headers.includes(c.name) && (c.fields ?? [c.name]).length > 0).map((c) => c.name);
}

/**
 * A checked row's value without the fields of the kept columns (keptColumns): the outcome then
 * compares, and the commit writes, only what the file has; a new record gets the default (null)
 * for them. Every entity's value goes through here (imports.service.ts, checkRows).
 * @returns a copy of `value` without those keys
 */
export function withoutKept<V extends object>(entity: Entity, value: V, kept: readonly string[]): V {
  const out = { ...value } as Record<string, unknown>;
  for (const c of COLUMNS[entity]) if (kept.includes(c.name)) for (const f of c.fields ?? [c.name]) delete out[f];
  return out as V;
}

/** True when every field the row gives equals the stored one; fields the file lacks (undefined) are not compared. */
function sameGiven<V extends object, K extends keyof V>(cur: { [P in K]: unknown }, v: V, keys: readonly K[]): boolean {
  return keys.every((k) => v[k] === undefined || cur[k] === v[k]);
}

const opt = (v: string | undefined) => (v === undefined || v === '' ? null : v);
const lower = (v: string) => v.trim().toLowerCase();

// ---------------------------------------------------------------------------------------------
// Properties (addresses)

export type { AddressValue, CertValue } from './imports.repository.ts';
type AddressRec = AddressRecord;

/**
 * The agency's properties keyed by reference, by the whole address (addressKey) and, for the
 * tenant import's property columns, by postcode + first line (+ second line); its branches by
 * name and its buildings by their parts (buildingKey).
 */
export class AddressIndex {
  byRef = new Map<string, AddressRec>();
  byKey = new Map<string, AddressRec>();
  byPlace = new Map<string, AddressRec>();
  byPlace2 = new Map<string, AddressRec>();
  branches = new Map<string, number>();
  buildings: Array<{ id: number; postcode: string; building_name: string | null; building_number: string | null; street: string | null }> = [];
  agencyId: number;
  constructor(agencyId: number) {
    this.agencyId = agencyId;
  }
  static placeKey(postcode: string, line1: string, line2?: string | null): string {
    return line2 === undefined ? `${postcode}|${lower(line1)}` : `${postcode}|${lower(line1)}|${lower(line2 ?? '')}`;
  }
  static async load(db: DbOrTrx, agencyId: number): Promise<AddressIndex> {
    const idx = new AddressIndex(agencyId);
    const rows = await listAgencyAddresses(db, agencyId);
    await forEachSliced(rows, (r) => idx.remember({ ...r, ...partsOf(r) }));
    for (const b of await listAgencyBranches(db, agencyId)) idx.branches.set(lower(b.name), b.id);
    idx.buildings = await listAgencyBuildings(db, agencyId);
    return idx;
  }
  remember(r: AddressRec): void {
    if (r.external_ref) this.byRef.set(r.external_ref, r);
    this.byKey.set(addressKey(r, r.postcode), r);
    const place = AddressIndex.placeKey(r.postcode, r.line1);
    if (!this.byPlace.has(place)) this.byPlace.set(place, r);
    this.byPlace2.set(AddressIndex.placeKey(r.postcode, r.line1, r.line2), r);
  }
  find(v: AddressValue): AddressRec | undefined {
    return (v.external_ref ? this.byRef.get(v.external_ref) : undefined) ?? this.byKey.get(addressKey(v, v.postcode));
  }
}

const YES = ['true', 'yes', 'y', '1'];
const NO = ['false', 'no', 'n', '0', ''];

/**
 * Checks one property row: lines, parts (given, or read from the lines when the file has no part
 * column), town, postcode (checked, never rewritten: the reason names what is wrong), branch,
 * communal flag.
 */
export function parseAddress(d: Record<string, string>, idx: AddressIndex): { value?: AddressValue; key?: string; errors: RowError[] } {
  const errors: RowError[] = [];
  const line1 = d.line1 ?? '';
  const town = d.town ?? '';
  if (!line1) errors.push({ column: 'line1', reason: 'missing' });
  if (!town) errors.push({ column: 'town', reason: 'missing' });
  let postcode: string | null = null;
  if (!d.postcode) errors.push({ column: 'postcode', reason: 'missing' });
  else if (!(postcode = normalisePostcode(d.postcode))) errors.push({ column: 'postcode', reason: `not a UK postcode: ${d.postcode} (${postcodeProblem(d.postcode)})` });
  let branchId: number | null = null;
  if (d.branch) {
    branchId = idx.branches.get(lower(d.branch)) ?? null;
    if (branchId === null) errors.push({ column: 'branch', reason: `no branch named ${d.branch}` });
  }
  let communal: boolean | undefined;
  if (d.is_communal !== undefined) {
    if (YES.includes(d.is_communal.toLowerCase())) communal = true;
    else if (NO.includes(d.is_communal.toLowerCase())) communal = false;
    else errors.push({ column: 'is_communal', reason: `true or false, not ${d.is_communal}` });
  }
  if (errors.length > 0) return { errors };
  const partColumns = PART_NAMES.some((k) => d[k] !== undefined);
  const parts = partColumns
    ? Object.fromEntries(PART_NAMES.map((k) => [k, opt(d[k])])) as Pick<AddressValue, (typeof PART_NAMES)[number]>
    : partsFromLines([line1, d.line2, d.line3]);
  const value: AddressValue = {
    external_ref: opt(d.external_ref),
    line1,
    line2: opt(d.line2),
    line3: opt(d.line3),
    ...parts,
    town,
    county: opt(d.county),
    postcode: postcode!,
    branch_id: branchId,
    ...(communal !== undefined ? { is_communal: communal } : {}),
    // A line column the file lacks keeps its stored line: the parts are read again at the write.
    ...(!partColumns && (d.line2 === undefined || d.line3 === undefined) ? { parts_from_lines: true } : {}),
  };
  return { value, key: value.external_ref ? `ref:${value.external_ref}` : `place:${addressKey(value, value.postcode)}`, errors };
}

/** create, update or unchanged for a checked property row. */
export function addressOutcome(v: AddressValue, idx: AddressIndex): 'create' | 'update' | 'unchanged' {
  const cur = idx.find(v);
  if (!cur) return 'create';
  // An empty branch cell keeps the stored branch, as a branch column the file lacks does. Parts
  // read from only some of the lines (parts_from_lines) are not compared: the lines given are.
  const keys = (Object.keys(v) as Exclude<keyof AddressValue, 'parts_from_lines'>[]).filter((k) => (k as string) !== 'parts_from_lines' && !(v.parts_from_lines && (PART_NAMES as readonly string[]).includes(k)));
  const same = sameGiven(cur, { ...v, branch_id: v.branch_id ?? undefined }, keys);
  return same ? 'unchanged' : 'update';
}

/**
 * The building a unit joins (docs/tenants.md "Buildings"): a row with a flat and a building name
 * or street joins the agency's building at the postcode that its parts name (namesBuilding), made on first use.
 */
async function buildingOf(db: DbOrTrx, idx: AddressIndex, v: AddressValue, now: Date): Promise<number | null> {
  if (!v.sub_building || !(v.building_name || v.street)) return null;
  const known = idx.buildings.find((b) => b.postcode === v.postcode && namesBuilding(v, b));
  if (known) return known.id;
  const b = { building_name: v.building_name, building_number: v.building_number, street: v.street, locality: v.locality, town: v.town, county: v.county ?? null, postcode: v.postcode, branch_id: v.branch_id ?? null };
  const id = await insertBuildingOf(db, idx.agencyId, b, now);
  idx.buildings.push({ id, ...b });
  return id;
}

/** Writes the property rows of one chunk: the new ones in one insert, the changed ones one by one; flats join their building. */
export async function applyAddresses(db: DbOrTrx, idx: AddressIndex, values: AddressValue[], now: Date): Promise<void> {
  const fresh: AddressValue[] = [];
  // New properties of this chunk by address and reference, so a row repeated in the file is
  // inserted once: a Set, not a scan of `fresh` per row (that was quadratic, about a second of one
  // core per 1,000-row chunk, and stalled the other requests of the process meanwhile).
  const freshKeys = new Set<string>();
  for (const v of values) {
    const cur = idx.find(v);
    if (!cur) {
      const ref = v.external_ref === undefined ? 'u' : v.external_ref === null ? 'n' : `s${v.external_ref}`;
      const key = `${addressKey(v, v.postcode)}\u0000${ref}`;
      if (!freshKeys.has(key)) {
        freshKeys.add(key);
        fresh.push({ ...v, building_id: await buildingOf(db, idx, v, now) });
      }
      continue;
    }
    // Parts read from only some of the lines are read again from the lines as they will stand.
    const whole = v.parts_from_lines ? { ...v, ...partsFromLines([v.line1, v.line2 === undefined ? cur.line2 : v.line2, v.line3 === undefined ? cur.line3 : v.line3]) } : v;
    const set = {
      ...whole, branch_id: v.branch_id ?? cur.branch_id, external_ref: v.external_ref ?? cur.external_ref,
      building_id: cur.building_id ?? (await buildingOf(db, idx, whole, now)),
    };
    await updateAddress(db, cur.id, set, now);
    idx.remember({ ...cur, ...set });
  }
  if (fresh.length === 0) return;
  const inserted = await insertAddresses(db, idx.agencyId, fresh, now);
  for (const r of inserted) idx.remember(r);
}

// ---------------------------------------------------------------------------------------------
// Tenants

/** One checked tenant row; a field left out is kept as stored (its column is not in the file). */
export interface TenantValue extends TenantFields {
  address_id: number | null;
}
interface TenantRec extends Required<TenantFields> {
  id: number;
  addresses: Set<number>;
}

/** The agency's tenants by reference and e-mail, and its properties. */
export class TenantIndex {
  byRef = new Map<string, TenantRec>();
  byEmail = new Map<string, TenantRec>();
  addresses!: AddressIndex;
  agencyId: number;
  constructor(agencyId: number) {
    this.agencyId = agencyId;
  }
  static async load(db: DbOrTrx, agencyId: number): Promise<TenantIndex> {
    const idx = new TenantIndex(agencyId);
    idx.addresses = await AddressIndex.load(db, agencyId);
    const rows = await listAgencyTenants(db, agencyId);
    const links = await listAgencyTenantLinks(db, agencyId);
    const linked = new Map<number, Set<number>>();
    for (const l of links) (linked.get(l.tenant_id) ?? linked.set(l.tenant_id, new Set()).get(l.tenant_id)!).add(l.address_id);
    await forEachSliced(rows, (r) => idx.remember({ ...r, addresses: linked.get(r.id) ?? new Set() }));
    return idx;
  }
  remember(r: TenantRec): void {
    if (r.external_ref) this.byRef.set(r.external_ref, r);
    if (r.email) this.byEmail.set(r.email, r);
  }
  find(v: { external_ref?: string | null; email?: string | null }): TenantRec | undefined {
    return (v.external_ref ? this.byRef.get(v.external_ref) : undefined) ?? (v.email ? this.byEmail.get(v.email) : undefined);
  }
}

/** Checks one tenant row; the property must exist already (import properties first). */
export function parseTenant(d: Record<string, string>, idx: TenantIndex): { value?: TenantValue; key?: string; errors: RowError[] } {
  const errors: RowError[] = [];
  if (!d.name) errors.push({ column: 'name', reason: 'missing' });
  const email = d.email ? d.email.toLowerCase() : null;
  if (email && !EMAIL.test(email)) errors.push({ column: 'email', reason: `not an e-mail address: ${d.email}` });
  if (!email && !d.external_ref) errors.push({ column: 'external_ref', reason: 'give an external_ref or an e-mail address (the key for re-imports)' });
  for (const c of ['phone', 'mobile'] as const) if (d[c] && !PHONE.test(d[c])) errors.push({ column: c, reason: `not a phone number: ${d[c]}` });
  if (d.preferred_contact && !CONTACT.includes(d.preferred_contact.toLowerCase())) errors.push({ column: 'preferred_contact', reason: 'email, phone, sms or post' });
  let addressId: number | null = null;
  if (d.property_ref) {
    addressId = idx.addresses.byRef.get(d.property_ref)?.id ?? null;
    if (addressId === null) errors.push({ column: 'property_ref', reason: `no property with reference ${d.property_ref}; import the properties first` });
  } else if (d.property_postcode || d.property_line1) {
    const pc = normalisePostcode(d.property_postcode ?? '');
    if (!pc) errors.push({ column: 'property_postcode', reason: d.property_postcode ? `not a UK postcode: ${d.property_postcode} (${postcodeProblem(d.property_postcode)})` : 'missing' });
    else {
      const place = d.property_line2 !== undefined ? idx.addresses.byPlace2.get(AddressIndex.placeKey(pc, d.property_line1 ?? '', d.property_line2 || null)) : idx.addresses.byPlace.get(AddressIndex.placeKey(pc, d.property_line1 ?? ''));
      addressId = place?.id ?? null;
      if (addressId === null) errors.push({ column: 'property_line1', reason: `no property at ${[d.property_line1, d.property_line2].filter(Boolean).join(', ')}, ${pc}; import the properties first` });
    }
  }
  if (errors.length > 0) return { errors };
  const value: TenantValue = {
    external_ref: opt(d.external_ref),
    name: d.name!,
    email,
    phone: opt(d.phone),
    mobile: opt(d.mobile),
    preferred_contact: d.preferred_contact ? d.preferred_contact.toLowerCase() : null,
    address_id: addressId,
  };
  return { value, key: value.external_ref ? `ref:${value.external_ref}` : `email:${email}`, errors };
}

const TENANT_FIELDS = ['external_ref', 'name', 'email', 'phone', 'mobile', 'preferred_contact'] as const;

/** create, update or unchanged for a checked tenant row. */
export function tenantOutcome(v: TenantValue, idx: TenantIndex): 'create' | 'update' | 'unchanged' {
  const cur = idx.find(v);
  if (!cur) return 'create';
  const same = sameGiven(cur, v, TENANT_FIELDS) && (v.address_id === null || cur.addresses.has(v.address_id));
  return same ? 'unchanged' : 'update';
}

/** Writes one tenant row (and its link to the property). */
export async function applyTenant(db: DbOrTrx, idx: TenantIndex, v: TenantValue, now: Date): Promise<void> {
  const { address_id, ...fields } = v;
  let cur = idx.find(v);
  if (cur) {
    await updateTenant(db, cur.id, fields, now);
    Object.assign(cur, fields);
    idx.remember(cur);
  } else {
    const id = await insertTenant(db, idx.agencyId, fields, now);
    cur = { external_ref: null, email: null, phone: null, mobile: null, preferred_contact: null, ...fields, id, addresses: new Set() };
    idx.remember(cur);
  }
  if (address_id !== null && !cur.addresses.has(address_id)) {
    await linkTenantAddress(db, cur.id, address_id, now);
    cur.addresses.add(address_id);
  }
}

// ---------------------------------------------------------------------------------------------
// Contractors

/** One checked contractor row; a field left out is kept as stored (its column is not in the file). */
export interface ContractorValue extends ContractorFields {
  trade_ids?: number[];
  coverage?: string[];
  certificates: CertValue[];
}
interface ContractorRec extends Required<Omit<ContractorValue, 'certificates'>> {
  id: number;
  certificates: Map<string, { id: number; expires_on: string }>;
}

/** The agency's contractors by reference and company name, with the trades one may give them. */
export class ContractorIndex {
  byRef = new Map<string, ContractorRec>();
  byName = new Map<string, ContractorRec>();
  trades = new Map<string, number>();
  agencyId: number;
  constructor(agencyId: number) {
    this.agencyId = agencyId;
  }
  static async load(db: DbOrTrx, agencyId: number): Promise<ContractorIndex> {
    const idx = new ContractorIndex(agencyId);
    const trades = await listUsableTrades(db, agencyId);
    for (const t of trades) {
      idx.trades.set(lower(t.code), t.id);
      idx.trades.set(lower(t.name), t.id);
    }
    const rows = await listAgencyContractors(db, agencyId);
    const certs = await listAgencyCertifications(db, agencyId);
    const byContractor = new Map<number, Map<string, { id: number; expires_on: string }>>();
    for (const c of certs) {
      const m = byContractor.get(c.contractor_id) ?? byContractor.set(c.contractor_id, new Map()).get(c.contractor_id)!;
      m.set(`${c.cert_type}:${c.reference}`, { id: c.id, expires_on: c.expires_on });
    }
    await forEachSliced(rows, (r) => idx.remember({ ...r, certificates: byContractor.get(r.id) ?? new Map() }));
    return idx;
  }
  remember(r: ContractorRec): void {
    if (r.external_ref) this.byRef.set(r.external_ref, r);
    this.byName.set(lower(r.company_name), r);
  }
  /**
   * The agency's firm a row names: by its reference, else by its name. A row with a reference of
   * its own is not a namesake that carries another reference (two firms may share a name); it only
   * takes over a same-named firm recorded without one.
   */
  find(v: { external_ref?: string | null; company_name: string }): ContractorRec | undefined {
    const named = this.byName.get(lower(v.company_name));
    if (!v.external_ref) return named;
    return this.byRef.get(v.external_ref) ?? (named && !named.external_ref ? named : undefined);
  }
}

const split = (text: string | undefined, by: RegExp) => (text ?? '').split(by).map((s) => s.trim()).filter(Boolean);

/** Checks one contractor row: trades known to the agency, valid districts, certificates. */
export function parseContractor(d: Record<string, string>, idx: ContractorIndex): { value?: ContractorValue; key?: string; errors: RowError[] } {
  const errors: RowError[] = [];
  if (!d.company_name) errors.push({ column: 'company_name', reason: 'missing' });
  const email = d.email ? d.email.toLowerCase() : null;
  if (email && !EMAIL.test(email)) errors.push({ column: 'email', reason: `not an e-mail address: ${d.email}` });
  if (d.phone && !PHONE.test(d.phone)) errors.push({ column: 'phone', reason: `not a phone number: ${d.phone}` });
  const tradeIds = new Set<number>();
  for (const t of split(d.trades, /[;|]/)) {
    const id = idx.trades.get(lower(t));
    if (id === undefined) errors.push({ column: 'trades', reason: `unknown trade: ${t}` });
    else tradeIds.add(id);
  }
  const coverage = new Set<string>();
  for (const c of split(d.coverage, /[;,|\s]+/)) {
    const district = normaliseDistrict(c);
    if (!district) errors.push({ column: 'coverage', reason: `not a postcode district: ${c}` });
    else coverage.add(district);
  }
  const certificates: CertValue[] = [];
  for (const c of split(d.certificates, /;/)) {
    const [type, reference, expires] = c.split(':').map((s) => s.trim());
    if (!type || !CERT_TYPES.includes(type.toLowerCase())) errors.push({ column: 'certificates', reason: `unknown certificate type in ${c}` });
    else if (!reference) errors.push({ column: 'certificates', reason: `no reference in ${c}` });
    else if (!expires || !ISO_DATE.test(expires) || Number.isNaN(Date.parse(expires))) errors.push({ column: 'certificates', reason: `no expiry date (YYYY-MM-DD) in ${c}` });
    else certificates.push({ type: type.toLowerCase(), reference, expires_on: expires });
  }
  if (errors.length > 0) return { errors };
  const value: ContractorValue = {
    external_ref: opt(d.external_ref),
    company_name: d.company_name!,
    contact_name: opt(d.contact_name),
    email,
    phone: opt(d.phone),
    trade_ids: [...tradeIds].sort((a, b) => a - b),
    coverage: [...coverage].sort(),
    certificates,
  };
  return { value, key: value.external_ref ? `ref:${value.external_ref}` : `name:${lower(value.company_name)}`, errors };
}

const CONTRACTOR_FIELDS = ['external_ref', 'company_name', 'contact_name', 'email', 'phone'] as const;

/** create, update or unchanged for a checked contractor row. */
export function contractorOutcome(v: ContractorValue, idx: ContractorIndex): 'create' | 'update' | 'unchanged' {
  const cur = idx.find(v);
  if (!cur) return 'create';
  const same =
    sameGiven(cur, v, CONTRACTOR_FIELDS) &&
    (v.trade_ids === undefined || cur.trade_ids.join() === v.trade_ids.join()) &&
    (v.coverage === undefined || [...cur.coverage].sort().join() === v.coverage.join()) &&
    v.certificates.every((c) => cur.certificates.get(`${c.type}:${c.reference}`)?.expires_on === c.expires_on);
  return same ? 'unchanged' : 'update';
}

/**
 * Writes one contractor row: its fields, its trades and coverage (as the file has them; kept when
 * the file lacks the column), its certificates.
 */
export async function applyContractor(db: DbOrTrx, idx: ContractorIndex, v: ContractorValue, now: Date): Promise<void> {
  const { trade_ids, coverage, certificates, ...fields } = v;
  let cur = idx.find(v);
  if (cur) {
    await updateContractorClearingLists(db, cur.id, fields, { trades: trade_ids !== undefined, coverage: coverage !== undefined }, now);
    Object.assign(cur, fields, { trade_ids: trade_ids ?? cur.trade_ids, coverage: coverage ?? cur.coverage });
  } else {
    const newId = await insertContractor(db, idx.agencyId, fields, now);
    cur = { external_ref: null, contact_name: null, email: null, phone: null, ...fields, id: newId, trade_ids: trade_ids ?? [], coverage: coverage ?? [], certificates: new Map() };
  }
  idx.remember(cur);
  const id = cur.id;
  if (trade_ids?.length) await insertContractorTrades(db, id, trade_ids);
  if (coverage?.length) await insertContractorCoverage(db, id, coverage);
  for (const c of certificates) {
    const key = `${c.type}:${c.reference}`;
    const known = cur.certificates.get(key);
    if (known?.expires_on === c.expires_on) continue;
    if (known) {
      await updateCertificationExpiry(db, known.id, c.expires_on, now);
      known.expires_on = c.expires_on;
    } else {
      const certId = await insertCertification(db, idx.agencyId, id, c, now);
      cur.certificates.set(key, { id: certId, expires_on: c.expires_on });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Landlords (with their properties and ownership shares)

/** One checked landlord row; a field left out is kept as stored (its column is not in the file). */
export interface LandlordValue extends LandlordFields {
  /** address id -> share in basis points (10000 = 100 %), sorted by address id */
  shares?: Array<{ address_id: number; share_bp: number }>;
}
type LandlordRec = Required<LandlordValue> & { id: number };

const VAT = /^(GB)?[0-9]{9}([0-9]{3})?$/;
const PERCENT = /^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$/;

/**
 * The agency's landlords by reference, its properties, and the shares of every property: the
 * shares held by landlords the file does not name, plus those the file's checked rows give, so a
 * property never goes over 100 % (10000 basis points).
 */
export class LandlordIndex {
  byRef = new Map<string, LandlordRec>();
  addresses!: AddressIndex;
  /** address id -> landlord id -> share_bp, as stored */
  stored = new Map<number, Map<number, number>>();
  /** address id -> share_bp given by the file's rows checked so far */
  fromFile = new Map<number, number>();
  agencyId: number;
  constructor(agencyId: number) {
    this.agencyId = agencyId;
  }
  static async load(db: DbOrTrx, agencyId: number): Promise<LandlordIndex> {
    const idx = new LandlordIndex(agencyId);
    idx.addresses = await AddressIndex.load(db, agencyId);
    const shares = new Map<number, Array<{ address_id: number; share_bp: number }>>();
    for (const o of await listAgencyOwnership(db, agencyId)) {
      (shares.get(o.landlord_id) ?? shares.set(o.landlord_id, []).get(o.landlord_id)!).push({ address_id: o.address_id, share_bp: o.share_bp });
      (idx.stored.get(o.address_id) ?? idx.stored.set(o.address_id, new Map()).get(o.address_id)!).set(o.landlord_id, o.share_bp);
    }
    for (const r of await listAgencyLandlords(db, agencyId)) {
      if (!r.external_ref) continue;
      idx.remember({ ...r, external_ref: r.external_ref, shares: (shares.get(r.id) ?? []).sort((a, b) => a.address_id - b.address_id) });
    }
    return idx;
  }
  remember(r: LandlordRec): void {
    this.byRef.set(r.external_ref, r);
  }
  /** Basis points of the property held by landlords other than `landlordId` (stored), plus the file's. */
  heldByOthers(addressId: number, landlordId: number | undefined): number {
    let n = this.fromFile.get(addressId) ?? 0;
    for (const [l, bp] of this.stored.get(addressId) ?? []) if (l !== landlordId && !this.namedInFile.has(l)) n += bp;
    return n;
  }
  /** Landlords (ids) the file names: their stored shares are replaced by the file's. */
  namedInFile = new Set<number>();
}

/**
 * Checks one landlord row: reference and name, kind (person or company; an absent column or an
 * empty cell keeps an existing landlord's kind and makes a new one a person), contact, correspondence postcode, VAT number,
 * limit, and its properties (known references, shares of 0.01 to 100 % that keep each property
 * at most 100 % with its other owners).
 */
export function parseLandlord(d: Record<string, string>, idx: LandlordIndex): { value?: LandlordValue; key?: string; errors: RowError[] } {
  const errors: RowError[] = [];
  if (!d.external_ref) errors.push({ column: 'external_ref', reason: 'missing (the key for re-imports)' });
  if (!d.name) errors.push({ column: 'name', reason: 'missing' });
  const current = d.external_ref ? idx.byRef.get(d.external_ref) : undefined;
  // No kind column, or an empty cell: a new landlord is a person, an existing one keeps its kind.
  const kind = d.kind ? d.kind.toLowerCase() : (current?.kind ?? 'person');
  if (kind !== 'person' && kind !== 'company') errors.push({ column: 'kind', reason: `person or company, not ${d.kind}` });
  const email = d.email ? d.email.toLowerCase() : null;
  if (email && !EMAIL.test(email)) errors.push({ column: 'email', reason: `not an e-mail address: ${d.email}` });
  if (d.phone && !PHONE.test(d.phone)) errors.push({ column: 'phone', reason: `not a phone number: ${d.phone}` });
  let postcode: string | null = null;
  if (d.address_postcode && !(postcode = normalisePostcode(d.address_postcode))) errors.push({ column: 'address_postcode', reason: `not a UK postcode: ${d.address_postcode} (${postcodeProblem(d.address_postcode)})` });
  const vat = d.vat_number ? d.vat_number.replace(/\s+/g, '').toUpperCase() : null;
  if (vat && !VAT.test(vat)) errors.push({ column: 'vat_number', reason: `not a UK VAT number: ${d.vat_number}` });
  let limit: number | null = null;
  if (d.approval_limit_pence) {
    limit = /^[0-9]{1,10}$/.test(d.approval_limit_pence) ? Number(d.approval_limit_pence) : NaN;
    if (!Number.isSafeInteger(limit) || limit > 2_000_000_000) errors.push({ column: 'approval_limit_pence', reason: `not a whole number of pence: ${d.approval_limit_pence}` });
  }
  const shares = new Map<number, number>();
  for (const part of split(d.properties, /;/)) {
    const [ref, pct] = part.split(':').map((x) => x.trim());
    const address = ref ? idx.addresses.byRef.get(ref) : undefined;
    if (!ref || !address) {
      errors.push({ column: 'properties', reason: `no property with reference ${ref ?? part}; import the properties first` });
      continue;
    }
    if (!pct || !PERCENT.test(pct) || Number(pct) <= 0) {
      errors.push({ column: 'properties', reason: `share of ${ref} must be a percentage above 0 and at most 100: ${pct ?? ''}` });
      continue;
    }
    if (shares.has(address.id)) {
      errors.push({ column: 'properties', reason: `${ref} is listed twice` });
      continue;
    }
    const bp = Math.round(Number(pct) * 100);
    const others = idx.heldByOthers(address.id, current?.id);
    if (others + bp > 10_000) {
      errors.push({ column: 'properties', reason: `${ref} would be owned ${((others + bp) / 100).toFixed(2).replace(/\.00$/, '')} % (other owners hold ${(others / 100).toFixed(2).replace(/\.00$/, '')} %)` });
      continue;
    }
    shares.set(address.id, bp);
  }
  if (errors.length > 0) return { errors };
  // Its stored shares give way to the file's only when the file has the properties column.
  if (current && d.properties !== undefined) idx.namedInFile.add(current.id);
  for (const [addressId, bp] of shares) idx.fromFile.set(addressId, (idx.fromFile.get(addressId) ?? 0) + bp);
  const value: LandlordValue = {
    external_ref: d.external_ref!,
    kind: kind as 'person' | 'company',
    name: d.name!,
    email,
    phone: opt(d.phone),
    address_line1: opt(d.address_line1),
    address_town: opt(d.address_town),
    address_postcode: postcode,
    vat_number: vat,
    approval_limit_pence: limit,
    shares: [...shares].map(([address_id, share_bp]) => ({ address_id, share_bp })).sort((a, b) => a.address_id - b.address_id),
  };
  return { value, key: `ref:${value.external_ref}`, errors };
}

const LANDLORD_FIELDS = ['kind', 'name', 'email', 'phone', 'address_line1', 'address_town', 'address_postcode', 'vat_number', 'approval_limit_pence'] as const;

/** create, update or unchanged for a checked landlord row. */
export function landlordOutcome(v: LandlordValue, idx: LandlordIndex): 'create' | 'update' | 'unchanged' {
  const cur = idx.byRef.get(v.external_ref);
  if (!cur) return 'create';
  const same = sameGiven(cur, v, LANDLORD_FIELDS) && (v.shares === undefined || JSON.stringify(cur.shares) === JSON.stringify(v.shares));
  return same ? 'unchanged' : 'update';
}

/**
 * Writes one landlord row: its fields, and its properties and shares as the file has them (kept
 * when the file lacks the properties column).
 */
export async function applyLandlord(db: DbOrTrx, idx: LandlordIndex, v: LandlordValue, now: Date): Promise<void> {
  const { shares, ...fields } = v;
  const cur = idx.byRef.get(v.external_ref);
  let id: number;
  if (cur) {
    await updateLandlord(db, cur.id, fields, now);
    id = cur.id;
  } else {
    id = await insertLandlord(db, idx.agencyId, fields, now);
  }
  if (shares !== undefined) await replaceLandlordProperties(db, id, shares, now);
  const stored: LandlordRec = cur ?? {
    id, external_ref: v.external_ref, kind: 'person', name: v.name, email: null, phone: null, address_line1: null, address_town: null,
    address_postcode: null, vat_number: null, approval_limit_pence: null, shares: [],
  };
  idx.remember({ ...stored, ...v, id });
}
