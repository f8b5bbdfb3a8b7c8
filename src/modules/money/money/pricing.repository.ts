/** SQL for the price list, contractor rates and the agency's money settings. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { PriceItemTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

function itemQuery(db: DbOrTrx) {
  return db.selectFrom('price_items as p')
    .leftJoin('trades as tr', 'tr.id', 'p.trade_id')
    .leftJoin('job_types as jt', 'jt.id', 'p.job_type_id')
    .select(['p.id', 'p.uuid', 'p.agency_id', 'p.code', 'p.name', 'p.trade_id', 'tr.name as trade', 'p.job_type_id', 'jt.name as job_type',
      'p.unit', 'p.unit_price_pence', 'p.vat_rate_code', 'p.active', 'p.created_at', 'p.updated_at']);
}
export type PriceItemRow = NonNullable<Awaited<ReturnType<typeof findItem>>>;

/** A price item of the agency (any agency when null) by uuid. */
export function findItem(db: DbOrTrx, agencyId: number | null, uuid: string) {
  let q = itemQuery(db).where('p.uuid', '=', uuid);
  if (agencyId !== null) q = q.where('p.agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** A page of the agency's items (every agency when null) by code, and the total. */
export async function listItems(db: DbOrTrx, agencyId: number | null, f: { trade_id?: number; job_type_id?: number; active?: boolean; limit: number; offset: number }) {
  let q = itemQuery(db);
  if (agencyId !== null) q = q.where('p.agency_id', '=', agencyId);
  if (f.trade_id !== undefined) q = q.where('p.trade_id', '=', f.trade_id);
  if (f.job_type_id !== undefined) q = q.where('p.job_type_id', '=', f.job_type_id);
  if (f.active !== undefined) q = q.where('p.active', '=', f.active);
  const [rows, total] = await Promise.all([
    q.orderBy('p.code').orderBy('p.id').limit(f.limit).offset(f.offset).execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/**
 * Active items matching a job: same trade or none, same job type or none; the most specific
 * first (both matching, then one), by code.
 */
export function itemsForJob(db: DbOrTrx, agencyId: number, tradeId: number | null, jobTypeId: number) {
  return itemQuery(db).where('p.agency_id', '=', agencyId).where('p.active', '=', true)
    .where((eb) => eb.or([eb('p.trade_id', 'is', null), ...(tradeId !== null ? [eb('p.trade_id', '=', tradeId)] : [])]))
    .where((eb) => eb.or([eb('p.job_type_id', 'is', null), eb('p.job_type_id', '=', jobTypeId)]))
    .where((eb) => eb.or([eb('p.trade_id', 'is not', null), eb('p.job_type_id', 'is not', null)]))
    .orderBy(sql`(p.trade_id is not null)::int + (p.job_type_id is not null)::int`, 'desc').orderBy('p.code').limit(20).execute();
}

/** Contractor rates of items, by item id. */
export async function ratesOfItems(db: DbOrTrx, itemIds: number[]) {
  if (itemIds.length === 0) return [];
  return db.selectFrom('contractor_rates as r').innerJoin('contractors as c', 'c.id', 'r.contractor_id')
    .select(['r.price_item_id', 'r.contractor_id', 'c.uuid as contractor_uuid', 'c.company_name as contractor_name', 'r.unit_price_pence'])
    .where('r.price_item_id', 'in', itemIds).orderBy('c.company_name').execute();
}

/** True when the agency already has an item with this code. */
export async function codeTaken(db: DbOrTrx, agencyId: number, code: string): Promise<boolean> {
  return (await db.selectFrom('price_items').select('id').where('agency_id', '=', agencyId).where(sql`lower(code)`, '=', code.toLowerCase()).executeTakeFirst()) !== undefined;
}

/** Inserts an item; returns its id. */
export async function insertItem(db: DbOrTrx, row: Insertable<PriceItemTable>): Promise<number> {
  return (await db.insertInto('price_items').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates an item by id. */
export async function updateItem(db: DbOrTrx, id: number, set: Updateable<PriceItemTable>) {
  await db.updateTable('price_items').set(set).where('id', '=', id).execute();
}

/** Sets (upserts) a contractor's rate for an item. */
export async function upsertRate(db: DbOrTrx, itemId: number, contractorId: number, pence: number, now: Date) {
  await db.insertInto('contractor_rates').values({ price_item_id: itemId, contractor_id: contractorId, unit_price_pence: pence, updated_at: now })
    .onConflict((oc) => oc.columns(['price_item_id', 'contractor_id']).doUpdateSet({ unit_price_pence: pence, updated_at: now })).execute();
}

/** Removes a contractor's rate; returns true when one existed. */
export async function deleteRate(db: DbOrTrx, itemId: number, contractorId: number): Promise<boolean> {
  const r = await db.deleteFrom('contractor_rates').where('price_item_id', '=', itemId).where('contractor_id', '=', contractorId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The agency's money settings with defaults (no VAT number, 30 days, recharge treatment). */
export async function settings(db: DbOrTrx, agencyId: number) {
  const row = await db.selectFrom('money_settings').select(['vat_number', 'payment_terms_days', 'vat_treatment']).where('agency_id', '=', agencyId).executeTakeFirst();
  const limits = await db.selectFrom('quote_approval_limits').select(['job_type_id', 'limit_pence']).where('agency_id', '=', agencyId).orderBy('job_type_id').execute();
  return { vat_number: row?.vat_number ?? null, payment_terms_days: row?.payment_terms_days ?? 30, vat_treatment: (row?.vat_treatment ?? 'recharge') as VatTreatment, approval_limits: limits };
}

/** How the agency passes contractors' costs on to landlords (docs/money.md "VAT treatment of recharged costs"). */
export type VatTreatment = 'recharge' | 'disbursement';

/** Writes the agency's settings (vat_treatment left out keeps its value); `limits` (when given) replaces every approval limit. */
export async function saveSettings(db: DbOrTrx, agencyId: number, s: { vat_number: string | null; payment_terms_days: number; vat_treatment?: VatTreatment }, limits: { job_type_id: number; limit_pence: number }[] | undefined, now: Date) {
  await db.insertInto('money_settings').values({ agency_id: agencyId, ...s, updated_at: now })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet({ ...s, updated_at: now })).execute();
  if (limits === undefined) return;
  await db.deleteFrom('quote_approval_limits').where('agency_id', '=', agencyId).execute();
  if (limits.length > 0) await db.insertInto('quote_approval_limits').values(limits.map((l) => ({ agency_id: agencyId, ...l }))).execute();
}

/** The approval limit (pence) of a job type in the agency, or null for none. */
export async function approvalLimit(db: DbOrTrx, agencyId: number, jobTypeId: number): Promise<number | null> {
  const row = await db.selectFrom('quote_approval_limits').select('limit_pence').where('agency_id', '=', agencyId).where('job_type_id', '=', jobTypeId).executeTakeFirst();
  return row?.limit_pence ?? null;
}

/** A contractor of the agency (any agency when null) by uuid. */
export function findContractor(db: DbOrTrx, agencyId: number | null, uuid: string) {
  let q = db.selectFrom('contractors').select(['id', 'uuid', 'agency_id', 'company_name', 'active']).where('uuid', '=', uuid);
  if (agencyId !== null) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** True when the job type exists. */
export async function jobTypeExists(db: DbOrTrx, id: number): Promise<boolean> {
  return (await db.selectFrom('job_types').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** True when the trade is a platform trade or the agency's own. */
export async function tradeVisible(db: DbOrTrx, agencyId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom('trades').select('id').where('id', '=', id)
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)])).executeTakeFirst();
  return row !== undefined;
}

/** A contractor's self-billing agreement (HMRC VAT Notice 700/62), or undefined. */
export function selfBillingAgreement(db: DbOrTrx, contractorId: number) {
  return db.selectFrom('self_billing_agreements')
    .select(['id', 'uuid', sql<string>`starts_on::text`.as('starts_on'), sql<string>`ends_on::text`.as('ends_on'), sql<string>`review_on::text`.as('review_on'),
      sql<string | null>`vat_number_checked_on::text`.as('vat_number_checked_on'), 'updated_at'])
    .where('contractor_id', '=', contractorId).executeTakeFirst();
}

/**
 * Forgets the check of a contractor's VAT registration on its self-billing agreement (the
 * registration changed, so the check no longer holds: HMRC VAT Notice 700/62 paragraph 4.1).
 * @returns whether an agreement carried a check
 */
export async function clearSelfBillingCheck(db: DbOrTrx, contractorId: number, now: Date): Promise<boolean> {
  const r = await db.updateTable('self_billing_agreements').set({ vat_number_checked_on: null, updated_at: now })
    .where('contractor_id', '=', contractorId).where('vat_number_checked_on', 'is not', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Records or replaces a contractor's self-billing agreement. */
export async function saveSelfBillingAgreement(db: DbOrTrx, row: { uuid: string; agency_id: number; contractor_id: number; starts_on: string; ends_on: string; review_on: string; vat_number_checked_on: string | null }, now: Date) {
  const { uuid: _uuid, agency_id: _agency, contractor_id: _contractor, ...dates } = row;
  await db.insertInto('self_billing_agreements').values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('contractor_id').doUpdateSet({ ...dates, updated_at: now })).execute();
}
