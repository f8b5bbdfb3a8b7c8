/** SQL for landlords, their property shares, spend limits and settings (docs/landlords.md). No rules here. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { LandlordTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { likeEscape } from '../../../db/text-match.ts';

export interface LandlordFilter {
  agencyId: number | null;
  q?: string;
  addressId?: number;
  includeErased: boolean;
  limit: number;
  offset: number;
}

/** The columns every response may show: the bank details are read only by `bankDetailsOf`. */
function base(db: DbOrTrx) {
  return db
    .selectFrom('landlords as l')
    .select((eb) => [
      'l.id', 'l.uuid', 'l.agency_id', 'l.kind', 'l.name', 'l.external_ref', 'l.email', 'l.phone', 'l.address_line1', 'l.address_line2', 'l.address_town',
      'l.address_postcode', 'l.vat_registered', 'l.vat_number', 'l.approval_limit_pence', 'l.notes', 'l.erased_at', 'l.created_at', 'l.updated_at',
      eb.or([eb('l.bank_account_number', 'is not', null), eb('l.bank_sort_code', 'is not', null)]).as('has_bank_details'),
      eb.selectFrom('landlord_properties as lp').select(sql<number>`count(*)::int`.as('n')).whereRef('lp.landlord_id', '=', 'l.id').as('property_count'),
    ]);
}

export type LandlordRow = NonNullable<Awaited<ReturnType<typeof findLandlordById>>>;

/** One page of landlords ordered by name, and the total. */
export async function listLandlords(db: DbOrTrx, f: LandlordFilter) {
  let q = db.selectFrom('landlords as l');
  if (f.agencyId !== null) q = q.where('l.agency_id', '=', f.agencyId);
  if (!f.includeErased) q = q.where('l.erased_at', 'is', null);
  if (f.q) {
    const pattern = `%${likeEscape(f.q)}%`;
    q = q.where((eb) => eb.or([eb('l.name', 'ilike', pattern), eb('l.email', 'ilike', pattern), eb('l.external_ref', 'ilike', pattern)]));
  }
  if (f.addressId !== undefined) {
    const addressId = f.addressId;
    q = q.where((eb) => eb.exists(eb.selectFrom('landlord_properties as lp').select('lp.landlord_id').whereRef('lp.landlord_id', '=', 'l.id').where('lp.address_id', '=', addressId)));
  }
  const [ids, total] = await Promise.all([
    q.select('l.id').orderBy('l.name').orderBy('l.id').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  if (ids.length === 0) return { rows: [], total: total.n };
  const rows = await base(db).where('l.id', 'in', ids.map((r) => r.id)).orderBy('l.name').orderBy('l.id').execute();
  return { rows, total: total.n };
}

/** One landlord by uuid (any agency). */
export function findLandlordByUuid(db: DbOrTrx, uuid: string) {
  return base(db).where('l.uuid', '=', uuid).executeTakeFirst();
}

/** One landlord by id. */
export function findLandlordById(db: DbOrTrx, id: number) {
  return base(db).where('l.id', '=', id).executeTakeFirst();
}

/** The bank details of a landlord (detail responses to holders of the bank-details key only). */
export function bankDetailsOf(db: DbOrTrx, id: number) {
  return db.selectFrom('landlords').select(['bank_account_name', 'bank_sort_code', 'bank_account_number']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** Inserts a landlord; returns its id. */
export async function insertLandlord(db: DbOrTrx, row: Insertable<LandlordTable>): Promise<number> {
  return (await db.insertInto('landlords').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a landlord by id. */
export async function updateLandlord(db: DbOrTrx, id: number, patch: Updateable<LandlordTable>): Promise<void> {
  await db.updateTable('landlords').set(patch).where('id', '=', id).execute();
}

/** The properties (address ids) of a landlord with the share, ordered by address id. */
export function sharesOfLandlord(db: DbOrTrx, landlordId: number) {
  return db.selectFrom('landlord_properties').select(['address_id', 'share_bp']).where('landlord_id', '=', landlordId).orderBy('address_id').execute();
}

/** The owners of a property (live landlords) with their shares, largest share first. */
export function ownersOfAddress(db: DbOrTrx, addressId: number) {
  return db
    .selectFrom('landlord_properties as lp')
    .innerJoin('landlords as l', 'l.id', 'lp.landlord_id')
    .select(['l.id', 'l.uuid', 'l.name', 'l.email', 'l.approval_limit_pence', 'lp.share_bp'])
    .where('lp.address_id', '=', addressId)
    .where('l.erased_at', 'is', null)
    .orderBy('lp.share_bp', 'desc')
    .orderBy('l.id')
    .execute();
}

/** Locks the address row so that concurrent share changes of one property queue (inside a transaction). */
export async function lockAddress(db: DbOrTrx, addressId: number): Promise<void> {
  await db.selectFrom('addresses').select('id').where('id', '=', addressId).forUpdate().executeTakeFirst();
}

/** Sum of the shares of a property, without one landlord's (the one being changed). */
export async function sharesTotal(db: DbOrTrx, addressId: number, exceptLandlordId: number): Promise<number> {
  const r = await db.selectFrom('landlord_properties').select(sql<number>`coalesce(sum(share_bp), 0)::int`.as('n'))
    .where('address_id', '=', addressId).where('landlord_id', '<>', exceptLandlordId).executeTakeFirstOrThrow();
  return r.n;
}

/**
 * Links a property to a landlord with a share, or changes the share of an existing link.
 * @returns true when a new link was written, false when an existing one changed
 */
export async function upsertShare(db: DbOrTrx, landlordId: number, addressId: number, shareBp: number, at: Date): Promise<boolean> {
  const existing = await db.selectFrom('landlord_properties').select('share_bp').where('landlord_id', '=', landlordId).where('address_id', '=', addressId).executeTakeFirst();
  if (existing) {
    await db.updateTable('landlord_properties').set({ share_bp: shareBp }).where('landlord_id', '=', landlordId).where('address_id', '=', addressId).execute();
    return false;
  }
  await db.insertInto('landlord_properties').values({ landlord_id: landlordId, address_id: addressId, share_bp: shareBp, created_at: at }).execute();
  return true;
}

/** Removes a link; returns true when one was removed. */
export async function unlinkProperty(db: DbOrTrx, landlordId: number, addressId: number): Promise<boolean> {
  const res = await db.deleteFrom('landlord_properties').where('landlord_id', '=', landlordId).where('address_id', '=', addressId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The spend limit of a property, if one is set. */
export async function propertyLimit(db: DbOrTrx, addressId: number): Promise<number | null> {
  const r = await db.selectFrom('property_approval_limits').select('limit_pence').where('address_id', '=', addressId).executeTakeFirst();
  return r?.limit_pence ?? null;
}

/** Sets (or with null removes) the spend limit of a property. */
export async function setPropertyLimit(db: DbOrTrx, addressId: number, limit: number | null, at: Date): Promise<void> {
  if (limit === null) {
    await db.deleteFrom('property_approval_limits').where('address_id', '=', addressId).execute();
    return;
  }
  await db.insertInto('property_approval_limits').values({ address_id: addressId, limit_pence: limit, updated_at: at })
    .onConflict((oc) => oc.column('address_id').doUpdateSet({ limit_pence: limit, updated_at: at })).execute();
}

/**
 * The agency's approval settings: the default limit from agencies.default_approval_limit_pence
 * (the one place; landlord_settings.default_approval_limit_pence is deprecated and not read), the
 * reminder and expiry hours from landlord_settings (null when the agency saved none).
 */
export function settingsOf(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies as a').leftJoin('landlord_settings as s', 's.agency_id', 'a.id')
    .select(['a.default_approval_limit_pence', 's.reminder_after_hours', 's.expires_after_hours'])
    .where('a.id', '=', agencyId).executeTakeFirst();
}

/** Writes the agency's approval settings: the default limit on the agency, the hours in landlord_settings. */
export async function saveSettings(
  db: DbOrTrx,
  agencyId: number,
  s: { default_approval_limit_pence: number | null; reminder_after_hours: number; expires_after_hours: number },
  at: Date,
): Promise<void> {
  const hours = { reminder_after_hours: s.reminder_after_hours, expires_after_hours: s.expires_after_hours };
  await db.updateTable('agencies').set({ default_approval_limit_pence: s.default_approval_limit_pence, updated_at: at }).where('id', '=', agencyId).execute();
  await db.insertInto('landlord_settings').values({ agency_id: agencyId, ...hours, updated_at: at })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet({ ...hours, updated_at: at })).execute();
}

/** Anonymises a landlord for good (GDPR erasure): name replaced, contact, address, bank and notes cleared. */
export async function anonymiseLandlord(db: DbOrTrx, id: number, name: string, now: Date): Promise<void> {
  await db.updateTable('landlords').set({
    name, email: null, phone: null, address_line1: null, address_line2: null, address_town: null, address_postcode: null,
    bank_account_name: null, bank_sort_code: null, bank_account_number: null, vat_number: null, notes: null, erased_at: now, updated_at: now,
  }).where('id', '=', id).execute();
}

/** The date of the landlord's latest VAT record (a recharge invoice or credit note), or null when none. */
export async function latestVatRecordOn(db: DbOrTrx, landlordId: number): Promise<string | null> {
  const r = await db.selectFrom('landlord_recharges').select(sql<string | null>`max(recharge_date)::text`.as('latest')).where('landlord_id', '=', landlordId).executeTakeFirst();
  return r?.latest ?? null;
}

/**
 * Copies the landlord's name and postal address, as their VAT records carry them, into
 * landlord_restricted_particulars before an erasure clears them from the landlord record; only VAT
 * documents (recharges, credit notes, statements and their exports) read the copy.
 */
export async function restrictVatParticulars(db: DbOrTrx, landlordId: number, purpose: string, keepUntil: string, now: Date): Promise<void> {
  await db.insertInto('landlord_restricted_particulars')
    .columns(['landlord_id', 'agency_id', 'name', 'address_line1', 'address_line2', 'address_town', 'address_postcode', 'purpose', 'keep_until', 'restricted_at'])
    .expression(db.selectFrom('landlords').select([
      'id', 'agency_id', 'name', 'address_line1', 'address_line2', 'address_town', 'address_postcode',
      sql<string>`${purpose}`.as('purpose'), sql<string>`${keepUntil}::date`.as('keep_until'), sql<Date>`${now}`.as('restricted_at'),
    ]).where('id', '=', landlordId))
    .onConflict((oc) => oc.column('landlord_id').doNothing())
    .execute();
}

/** The restricted VAT particulars of an erased landlord, or undefined. */
export function vatParticularsOf(db: DbOrTrx, landlordId: number) {
  return db.selectFrom('landlord_restricted_particulars').select(['name', 'address_line1', 'address_line2', 'address_town', 'address_postcode'])
    .where('landlord_id', '=', landlordId).executeTakeFirst();
}

/** Releases (deletes) the restricted VAT particulars once their retention ended. */
export async function releaseVatParticulars(db: DbOrTrx, landlordId: number): Promise<void> {
  await db.deleteFrom('landlord_restricted_particulars').where('landlord_id', '=', landlordId).execute();
}

/** A live (not erased) landlord by uuid with its agency, for linking a login to it (users module). */
export function findLandlordRef(db: DbOrTrx, uuid: string) {
  return db.selectFrom('landlords').select(['id', 'agency_id']).where('uuid', '=', uuid).where('erased_at', 'is', null).executeTakeFirst();
}
