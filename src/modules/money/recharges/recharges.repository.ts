/** SQL for landlord recharges, the agency's recharge fee and landlord statements (docs/money.md "Recharges", "Statements"). */
import { sql, type Insertable } from 'kysely';
import type { LandlordLedgerEntryTable, LandlordRechargeTable } from '../../../db/schema.ts';
import { nextCounter } from '../../../db/counters.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** The agency's fee on recharges; absent row: no fee. */
export async function settingsOf(db: DbOrTrx, agencyId: number): Promise<{ fee_mode: string; fee_percent_bp: number; fee_fixed_pence: number }> {
  const row = await db.selectFrom('recharge_settings').select(['fee_mode', 'fee_percent_bp', 'fee_fixed_pence']).where('agency_id', '=', agencyId).executeTakeFirst();
  return row ?? { fee_mode: 'none', fee_percent_bp: 0, fee_fixed_pence: 0 };
}

/** Writes the agency's fee on recharges. */
export async function saveSettings(db: DbOrTrx, agencyId: number, s: { fee_mode: string; fee_percent_bp: number; fee_fixed_pence: number }, now: Date): Promise<void> {
  await db.insertInto('recharge_settings').values({ agency_id: agencyId, ...s, updated_at: now })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet({ ...s, updated_at: now })).execute();
}

/** The contractor invoice or credit note a recharge is made from, with its job's property. */
export function invoiceForRecharge(db: DbOrTrx, invoiceId: number) {
  return db.selectFrom('invoices as i').innerJoin('jobs as j', 'j.id', 'i.job_id')
    .select(['i.id', 'i.agency_id', 'i.kind', 'i.status', 'i.net_pence', 'i.vat_pence', 'i.credited_invoice_id', 'i.vat_treatment', 'j.id as job_id', 'j.address_id', sql<string | null>`i.issue_date::text`.as('issue_date')])
    .where('i.id', '=', invoiceId).executeTakeFirst();
}

/** The net (pence) of a contractor invoice or credit note per VAT rate code, by code (the onward supply of a recharge). */
export function netByRateCode(db: DbOrTrx, invoiceId: number) {
  return db.selectFrom('money_lines').select(['vat_rate_code', sql<number>`sum(net_pence)::int`.as('net_pence')]).where('invoice_id', '=', invoiceId)
    .groupBy('vat_rate_code').orderBy('vat_rate_code').execute();
}

/** True when recharges were already made from this invoice (a handler run again makes none). */
export async function hasRecharges(db: DbOrTrx, invoiceId: number): Promise<boolean> {
  return (await db.selectFrom('landlord_recharges').select('id').where('invoice_id', '=', invoiceId).limit(1).executeTakeFirst()) !== undefined;
}

/** The next recharge number of the agency (one series for recharges and recharge credits, no gaps). */
export function nextRechargeNumber(trx: DbOrTrx, agencyId: number): Promise<number> {
  return nextCounter(trx, agencyId, 'recharge_number');
}

/** Inserts recharges. */
export async function insertRecharges(db: DbOrTrx, rows: Insertable<LandlordRechargeTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('landlord_recharges').values(rows).execute();
}

/** Cancels the active recharges of an invoice (it was voided). @returns how many */
export async function cancelRecharges(db: DbOrTrx, invoiceId: number, now: Date): Promise<number> {
  const rows = await db.updateTable('landlord_recharges').set({ status: 'cancelled', cancelled_at: now }).where('invoice_id', '=', invoiceId).where('status', '=', 'active').returning('id').execute();
  return rows.length;
}

const RECHARGE_COLUMNS = [
  'r.id', 'r.uuid', 'r.agency_id', 'r.number', 'r.kind', 'r.status', 'r.share_bp', 'r.cost_net_pence', 'r.cost_vat_pence', 'r.fee_net_pence', 'r.fee_vat_pence',
  'r.fee_vat_rate_bp', 'r.total_pence', 'r.created_at', 'r.cancelled_at', 'l.uuid as landlord_uuid', 'l.email as landlord_email',
  'a.uuid as address_uuid', 'a.line1 as address_line1', 'a.town as address_town', 'a.postcode as address_postcode', 'j.uuid as job_uuid',
  'j.reference as job_reference', 'j.title as job_title', 'i.uuid as invoice_uuid', 'i.kind as invoice_kind', 'i.number as invoice_number',
  'c.company_name as contractor_name', 'ci.number as credited_number', 'r.invoice_id', 'orr.number as original_number',
  'r.vat_treatment', 'r.cost_lines',
  'i.contractor_reference', 'i.self_billing_number',
] as const;

/** Recharges joined with landlord, property, job, contractor invoice (and the invoice a credit note credits). */
function rechargeQuery(db: DbOrTrx) {
  return db.selectFrom('landlord_recharges as r')
    .innerJoin('landlords as l', 'l.id', 'r.landlord_id')
    // An erased landlord's VAT documents keep the name and address, restricted (docs/gdpr.md "Landlords").
    .leftJoin('landlord_restricted_particulars as lr', 'lr.landlord_id', 'r.landlord_id')
    .innerJoin('addresses as a', 'a.id', 'r.address_id')
    .innerJoin('jobs as j', 'j.id', 'r.job_id')
    .innerJoin('invoices as i', 'i.id', 'r.invoice_id')
    .innerJoin('contractors as c', 'c.id', 'i.contractor_id')
    .leftJoin('invoices as ci', 'ci.id', 'i.credited_invoice_id')
    .leftJoin('landlord_recharges as orr', (join) => join.onRef('orr.invoice_id', '=', 'i.credited_invoice_id').onRef('orr.landlord_id', '=', 'r.landlord_id').on('orr.kind', '=', 'recharge'))
    .select(RECHARGE_COLUMNS)
    .select((eb) => [
      eb.fn.coalesce('lr.name', 'l.name').as('landlord_name'), eb.fn.coalesce('lr.address_line1', 'l.address_line1').as('landlord_line1'),
      eb.fn.coalesce('lr.address_town', 'l.address_town').as('landlord_town'), eb.fn.coalesce('lr.address_postcode', 'l.address_postcode').as('landlord_postcode'),
    ])
    .select(sql<string>`r.recharge_date::text`.as('recharge_date'));
}
export type RechargeRow = Awaited<ReturnType<typeof listRecharges>>['rows'][number];

/** Filters of the recharge list and exports. */
export interface RechargeFilter {
  /** null: every agency (SysOps) */
  agencyId: number | null;
  landlordId?: number;
  jobId?: number;
  /** recharge_date >= from (ISO) */
  from?: string;
  /** recharge_date <= to (ISO) */
  to?: string;
  /** true: active only */
  activeOnly?: boolean;
}

function filtered(db: DbOrTrx, f: RechargeFilter) {
  let q = rechargeQuery(db);
  if (f.agencyId !== null) q = q.where('r.agency_id', '=', f.agencyId);
  if (f.landlordId !== undefined) q = q.where('r.landlord_id', '=', f.landlordId);
  if (f.jobId !== undefined) q = q.where('r.job_id', '=', f.jobId);
  if (f.from !== undefined) q = q.where(sql<boolean>`r.recharge_date >= ${f.from}::date`);
  if (f.to !== undefined) q = q.where(sql<boolean>`r.recharge_date <= ${f.to}::date`);
  if (f.activeOnly) q = q.where('r.status', '=', 'active');
  return q;
}

/** A page of recharges, newest first, and the total. */
export async function listRecharges(db: DbOrTrx, f: RechargeFilter, page: { limit: number; offset: number }) {
  const base = filtered(db, f);
  const [rows, total] = await Promise.all([
    base.orderBy('r.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Recharges of the filter in id order after `afterId` (statement lines and exports, page by page). */
export function rechargePage(db: DbOrTrx, f: RechargeFilter, afterId: number, size: number) {
  return filtered(db, f).where('r.id', '>', afterId).orderBy('r.id').limit(size).execute();
}

/** Every recharge of a landlord, active or cancelled, in number order (the landlord's GDPR report). */
export function rechargesOfLandlord(db: DbOrTrx, landlordId: number) {
  return filtered(db, { agencyId: null, landlordId }).orderBy('r.number').orderBy('r.id').execute();
}

/** Active recharges of a landlord dated in [from, to], by property, date and number (a statement's lines). */
export function statementLines(db: DbOrTrx, landlordId: number, from: string, to: string) {
  return filtered(db, { agencyId: null, landlordId, from, to, activeOnly: true }).orderBy('a.line1').orderBy('a.id').orderBy('r.recharge_date').orderBy('r.number').execute();
}

/** The agency's trading and legal name and registered address (the statement's letterhead). */
export function agencyLetterhead(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select(['name', 'legal_name', 'registered_line1', 'registered_line2', 'registered_town', 'registered_postcode']).where('id', '=', agencyId).executeTakeFirstOrThrow();
}

/** The active recharges made from a contractor invoice: who was recharged, for which property and share. */
export function rechargesOfInvoice(db: DbOrTrx, invoiceId: number) {
  return db.selectFrom('landlord_recharges').select(['landlord_id', 'address_id', 'share_bp']).where('invoice_id', '=', invoiceId).where('kind', '=', 'recharge')
    .where('status', '=', 'active').orderBy('landlord_id').execute();
}

/** Records a payment to or from a landlord; returns its id. */
export async function insertLedgerEntry(db: DbOrTrx, row: Insertable<LandlordLedgerEntryTable>): Promise<number> {
  return (await db.insertInto('landlord_ledger_entries').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** A landlord's payments dated in [from, to] (both optional), by date then id. */
export function ledgerEntries(db: DbOrTrx, landlordId: number, from?: string, to?: string) {
  let q = db.selectFrom('landlord_ledger_entries').select(['uuid', 'kind', sql<string>`entry_date::text`.as('entry_date'), 'amount_pence', 'reference', 'description', 'created_at'])
    .where('landlord_id', '=', landlordId);
  if (from !== undefined) q = q.where(sql<boolean>`entry_date >= ${from}::date`);
  if (to !== undefined) q = q.where(sql<boolean>`entry_date <= ${to}::date`);
  return q.orderBy('entry_date').orderBy('id').execute();
}

/**
 * What a landlord owed the agency before `date` (pence; negative: the agency owed the landlord):
 * its active recharges and credits dated before it, plus the agency's payments to it, less its
 * payments to the agency.
 */
export async function balanceBefore(db: DbOrTrx, landlordId: number, date: string): Promise<number> {
  const r = await db.selectFrom('landlord_recharges').select(sql<string>`coalesce(sum(total_pence), 0)::bigint`.as('n'))
    .where('landlord_id', '=', landlordId).where('status', '=', 'active').where(sql<boolean>`recharge_date < ${date}::date`).executeTakeFirstOrThrow();
  const p = await db.selectFrom('landlord_ledger_entries')
    .select(sql<string>`coalesce(sum(case when kind = 'payment_to_landlord' then amount_pence else -amount_pence end), 0)::bigint`.as('n'))
    .where('landlord_id', '=', landlordId).where(sql<boolean>`entry_date < ${date}::date`).executeTakeFirstOrThrow();
  return Number(r.n) + Number(p.n);
}
