/** SQL for invoices, credit notes and payments (docs/money.md "Invoices"). Scope from access.ts. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { InvoiceTable, PaymentTable } from '../../../db/schema.ts';
import { nextCounter } from '../../../db/counters.ts';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { moneyVisible, type MoneyScope } from './access.ts';
import type { InvoiceSort } from './invoices.schemas.ts';

export const INVOICE_COLUMNS = [
  'i.id', 'i.uuid', 'i.agency_id', 'i.job_id', 'j.uuid as job_uuid', 'j.reference as job_reference', 'j.branch_id', 'i.contractor_id',
  'c.uuid as contractor_uuid', 'c.company_name as contractor_name', 'c.email as contractor_email', 'i.kind', 'i.credited_invoice_id',
  'ci.uuid as credited_invoice_uuid', 'i.number', 'i.status', 'i.contractor_reference', 'i.vat_registered', 'i.contractor_vat_number',
  'i.payment_terms_days', 'i.net_pence', 'i.vat_pence', 'i.gross_pence', 'i.paid_pence', 'i.credited_pence', 'i.notes', 'i.issued_at',
  'i.paid_at', 'i.voided_at', 'i.void_reason', 'i.created_at', 'i.updated_at', 'i.refund_due_pence', 'ci.number as credited_number',
  'ci.contractor_reference as credited_contractor_reference', 'i.vat_treatment', 'i.self_billing_number', 'ci.self_billing_number as credited_self_billing_number',
] as const;

/** Invoices joined with job `j`, contractor `c` and credited invoice `ci`, limited to the scope. */
export function invoiceQuery(db: DbOrTrx, scope: MoneyScope) {
  return db.selectFrom('invoices as i')
    .innerJoin('jobs as j', 'j.id', 'i.job_id')
    .innerJoin('contractors as c', 'c.id', 'i.contractor_id')
    .leftJoin('invoices as ci', 'ci.id', 'i.credited_invoice_id')
    .where((eb) => moneyVisible(eb, scope, 'i'))
    .select(INVOICE_COLUMNS)
    .select([
      sql<string | null>`i.issue_date::text`.as('issue_date'), sql<string | null>`i.due_date::text`.as('due_date'),
      sql<string | null>`i.supply_date::text`.as('supply_date'), sql<string | null>`ci.issue_date::text`.as('credited_issue_date'),
      sql<string | null>`i.supplier_invoice_date::text`.as('supplier_invoice_date'), sql<string | null>`ci.supplier_invoice_date::text`.as('credited_supplier_invoice_date'),
    ]);
}
export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

/** An invoice or credit note in scope by uuid. */
export function findInvoice(db: DbOrTrx, scope: MoneyScope, uuid: string) {
  return invoiceQuery(db, scope).where('i.uuid', '=', uuid).executeTakeFirst();
}

/** An invoice by id (no scope), after a write. */
export function invoiceById(db: DbOrTrx, id: number) {
  return invoiceQuery(db, { kind: 'all' }).where('i.id', '=', id).executeTakeFirstOrThrow();
}

/** Filters of the list. */
export interface InvoiceFilter {
  status?: string;
  kind?: string;
  contractorId?: number;
  jobId?: number;
  /** issue_date >= from (ISO date) */
  from?: string;
  /** issue_date <= to (ISO date) */
  to?: string;
}

function filtered(db: DbOrTrx, scope: MoneyScope, f: InvoiceFilter) {
  let q = invoiceQuery(db, scope);
  if (f.kind !== undefined) q = q.where('i.kind', '=', f.kind);
  if (f.contractorId !== undefined) q = q.where('i.contractor_id', '=', f.contractorId);
  if (f.jobId !== undefined) q = q.where('i.job_id', '=', f.jobId);
  if (f.from !== undefined) q = q.where(sql<boolean>`i.issue_date >= ${f.from}::date`);
  if (f.to !== undefined) q = q.where(sql<boolean>`i.issue_date <= ${f.to}::date`);
  return q;
}

/**
 * The keys of each sort of the invoice list (GET /api/invoices `sort`) before the id, each in the
 * list's direction, empty values last either way (`nulls: 'last'`), or always ascending (`fixed`: drafts
 * without a number last). created_at is the creation order, the id's own.
 */
const INVOICE_SORT_KEYS: Record<InvoiceSort, SortKey[]> = {
  created_at: [],
  invoice_number: [{ key: sql`(i.number is null)`, fixed: 'asc' }, 'i.kind', 'i.number'],
  contractor_name: ['c.company_name'],
  job_reference: ['j.reference'],
  status: ['i.status'],
  issue_date: [{ key: 'i.issue_date', nulls: 'last' }],
  due_date: [{ key: 'i.due_date', nulls: 'last' }],
  gross_pence: ['i.gross_pence'],
  outstanding_pence: [sql`case when i.kind = 'invoice' and i.status <> 'void' then greatest(0, i.gross_pence - i.paid_pence - i.credited_pence) else 0 end`],
};

/**
 * A page of invoices in `page.sort` order (`page.order`; created_at desc, the default, is newest
 * first; the id breaks ties in the same direction; drafts without a number or dates last either
 * way), the total, and count and sums per status over the filter (without status).
 */
export async function listInvoices(db: DbOrTrx, scope: MoneyScope, f: InvoiceFilter, page: { limit: number; offset: number; sort: InvoiceSort; order: SortDirection }) {
  const base = filtered(db, scope, f);
  const withStatus = f.status !== undefined ? base.where('i.status', '=', f.status) : base;
  const [rows, total, totals] = await Promise.all([
    withStatus.orderBy(sortOrderSql(INVOICE_SORT_KEYS[page.sort], page.order, 'i.id')).limit(page.limit).offset(page.offset).execute(),
    withStatus.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    // outstanding per row as the rows show it: invoices only (a credit note owes nothing), never below 0, void none
    base.clearSelect().select(['i.status', sql<number>`count(*)::int`.as('count'), sql<number>`coalesce(sum(i.gross_pence), 0)::int`.as('gross_pence'),
      sql<number>`coalesce(sum(case when i.kind = 'invoice' and i.status <> 'void' then greatest(0, i.gross_pence - i.paid_pence - i.credited_pence) else 0 end), 0)::int`.as('outstanding_pence')]).groupBy('i.status').execute(),
  ]);
  return { rows, total: total.n, totals };
}

/** Rows of the filter in id order after `afterId` (export pages). */
export function exportPage(db: DbOrTrx, scope: MoneyScope, f: InvoiceFilter & { statuses: string[] }, afterId: number, size: number) {
  return filtered(db, scope, f).where('i.status', 'in', f.statuses).where('i.id', '>', afterId).orderBy('i.id').limit(size).execute();
}

/** Locks an invoice row. */
export function lockInvoice(trx: DbOrTrx, id: number) {
  return trx.selectFrom('invoices').selectAll()
    .select([sql<string | null>`due_date::text`.as('due_text'), sql<string | null>`supply_date::text`.as('supply_text'), sql<string | null>`supplier_invoice_date::text`.as('supplier_date_text'), sql<string | null>`issue_date::text`.as('issue_text')])
    .where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
}

/**
 * Net and VAT (pence) an invoice charged per VAT rate code and applied rate, and what its credit
 * notes credited so far per code (docs/money.md "Credit notes": a credit only at the rates and up to
 * the amounts the invoice charged).
 */
export async function chargedAndCreditedByRate(db: DbOrTrx, invoiceId: number) {
  const rows = await db.selectFrom('money_lines as m').innerJoin('invoices as i', 'i.id', 'm.invoice_id')
    .select(['i.id', 'm.vat_rate_code', sql<number>`sum(m.net_pence)::int`.as('net_pence'), sql<number>`sum(m.vat_pence)::int`.as('vat_pence')])
    .where((eb) => eb.or([eb('i.id', '=', invoiceId), eb.and([eb('i.credited_invoice_id', '=', invoiceId), eb('i.kind', '=', 'credit_note')])]))
    .groupBy(['i.id', 'm.vat_rate_code']).execute();
  const charged = new Map<string, { net: number; vat: number }>();
  const credited = new Map<string, { net: number; vat: number }>();
  for (const r of rows) {
    const into = r.id === invoiceId ? charged : credited;
    const before = into.get(r.vat_rate_code) ?? { net: 0, vat: 0 };
    into.set(r.vat_rate_code, { net: before.net + r.net_pence, vat: before.vat + r.vat_pence });
  }
  return { charged, credited };
}

/** The landlords of a job's property with their postal address: the customers of a disbursement (docs/money.md "VAT treatment of recharged costs"). */
export function landlordCustomersOfJob(db: DbOrTrx, jobId: number) {
  return db.selectFrom('jobs as j').innerJoin('landlord_properties as lp', 'lp.address_id', 'j.address_id').innerJoin('landlords as l', 'l.id', 'lp.landlord_id')
    .select(['l.name', 'l.address_line1', 'l.address_line2', 'l.address_town', 'l.address_postcode', 'lp.share_bp'])
    .where('j.id', '=', jobId).where('l.erased_at', 'is', null).orderBy('lp.share_bp', 'desc').orderBy('l.id').execute();
}

/**
 * The customers of an issued disbursement invoice or credit note as its VAT records keep them: the
 * landlords its recharges were recorded for (one row each, by share), with the name and postal
 * address those records carry, the restricted copy once a landlord is erased (docs/gdpr.md
 * "Landlords"), whoever owns the property today. Empty until the recharges are recorded (the
 * invoice.issued and invoice.credited events).
 * @returns [{ name, address_line1, address_line2, address_town, address_postcode, share_bp }]
 */
export function landlordCustomersOfIssued(db: DbOrTrx, invoiceId: number) {
  return db.selectFrom('landlord_recharges as r').innerJoin('landlords as l', 'l.id', 'r.landlord_id')
    .leftJoin('landlord_restricted_particulars as lr', 'lr.landlord_id', 'r.landlord_id')
    .select((eb) => [
      eb.fn.coalesce('lr.name', 'l.name').as('name'), eb.fn.coalesce('lr.address_line1', 'l.address_line1').as('address_line1'),
      eb.fn.coalesce('lr.address_line2', 'l.address_line2').as('address_line2'), eb.fn.coalesce('lr.address_town', 'l.address_town').as('address_town'),
      eb.fn.coalesce('lr.address_postcode', 'l.address_postcode').as('address_postcode'), 'r.share_bp',
    ])
    .where('r.invoice_id', '=', invoiceId).orderBy('r.share_bp', 'desc').orderBy('l.id').execute();
}

/** The contractor's name and business address (the supplier's particulars on its invoice). */
export function supplierOf(db: DbOrTrx, contractorId: number) {
  return db.selectFrom('contractors').select(['company_name', 'address_line1', 'address_town', 'address_postcode']).where('id', '=', contractorId).executeTakeFirstOrThrow();
}

/** The agency's legal or trading name and registered address (the customer's particulars of a recharged cost). */
export function agencyParticulars(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select(['name', 'legal_name', 'registered_line1', 'registered_town', 'registered_postcode']).where('id', '=', agencyId).executeTakeFirstOrThrow();
}
export type LockedInvoice = Awaited<ReturnType<typeof lockInvoice>>;

/** Inserts an invoice or credit note; returns its id. */
export async function insertInvoice(db: DbOrTrx, row: Insertable<InvoiceTable>): Promise<number> {
  return (await db.insertInto('invoices').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates an invoice by id. */
export async function updateInvoice(db: DbOrTrx, id: number, set: Updateable<InvoiceTable>) {
  await db.updateTable('invoices').set(set).where('id', '=', id).execute();
}

/**
 * Takes the next number of a per-agency counter in the caller's transaction. The upsert locks the
 * counter row until commit, so concurrent issues queue and a rolled-back issue gives its number
 * back: numbers have no gaps.
 */
export async function nextNumber(trx: DbOrTrx, agencyId: number, name: 'invoice_number' | 'credit_note_number' | `self_billing:${number}`): Promise<number> {
  return nextCounter(trx, agencyId, name);
}

/** Inserts a payment; returns its id. */
export async function insertPayment(db: DbOrTrx, row: Insertable<PaymentTable>): Promise<number> {
  return (await db.insertInto('payments').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Payments of an invoice, oldest first, paginated. */
export async function listPayments(db: DbOrTrx, invoiceId: number, page: { limit: number; offset: number }) {
  const base = db.selectFrom('payments as p').leftJoin('users as u', 'u.id', 'p.recorded_by_user_id').where('p.invoice_id', '=', invoiceId);
  const [rows, total] = await Promise.all([
    base.select(['p.id', 'p.uuid', 'p.amount_pence', sql<string>`p.paid_on::text`.as('paid_on'), 'p.method', 'p.reference', 'u.name as recorded_by', 'p.created_at'])
      .orderBy('p.id').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Payments in scope in id order after `afterId` (export pages), with their invoice. */
export function paymentExportPage(db: DbOrTrx, scope: MoneyScope, f: { from?: string; to?: string }, afterId: number, size: number) {
  let q = db.selectFrom('payments as p').innerJoin('invoices as i', 'i.id', 'p.invoice_id').innerJoin('jobs as j', 'j.id', 'i.job_id')
    .innerJoin('contractors as c', 'c.id', 'i.contractor_id').where((eb) => moneyVisible(eb, scope, 'i'))
    .select(['p.id', 'p.amount_pence', sql<string>`p.paid_on::text`.as('paid_on'), 'p.method', 'p.reference', 'i.number', 'i.kind', 'c.company_name as contractor_name', 'j.reference as job_reference']);
  if (f.from !== undefined) q = q.where(sql<boolean>`p.paid_on >= ${f.from}::date`);
  if (f.to !== undefined) q = q.where(sql<boolean>`p.paid_on <= ${f.to}::date`);
  return q.where('p.id', '>', afterId).orderBy('p.id').limit(size).execute();
}

/**
 * Marks every issued or part-paid invoice due before `today` overdue in one conditional update
 * (a row already overdue is not matched again, so a second runner in the cluster marks nothing).
 * @returns the rows it marked
 */
export function markOverdue(trx: DbOrTrx, today: string, now: Date) {
  return trx.updateTable('invoices').set({ status: 'overdue', overdue_at: now, updated_at: now })
    .where('kind', '=', 'invoice').where('status', 'in', ['issued', 'part_paid']).where(sql<boolean>`due_date < ${today}::date`)
    .returning(['id', 'uuid', 'agency_id', 'job_id', 'number', 'contractor_id', 'gross_pence', 'paid_pence', 'credited_pence', sql<string>`due_date::text`.as('due_date')])
    .execute();
}

/** Job columns an invoice event carries. */
export function jobOf(db: DbOrTrx, jobId: number) {
  return db.selectFrom('jobs').select(['id', 'uuid', 'reference', 'branch_id', 'agency_id', 'status_id']).where('id', '=', jobId).executeTakeFirstOrThrow();
}

/** The parties an invoice PDF prints: the agency's name, legal name and registered address, the contractor's address. */
export function partiesOfInvoice(db: DbOrTrx, uuid: string) {
  return db.selectFrom('invoices as i').innerJoin('agencies as a', 'a.id', 'i.agency_id').innerJoin('contractors as c', 'c.id', 'i.contractor_id')
    .select(['i.id', 'i.job_id', 'a.id as agency_id', 'a.name as agency_name', 'a.legal_name', 'a.registered_line1', 'a.registered_line2', 'a.registered_town', 'a.registered_postcode',
      'c.address_line1', 'c.address_line2', 'c.address_town', 'c.address_postcode'])
    .where('i.uuid', '=', uuid).executeTakeFirstOrThrow();
}

/** The London date a job was completed on (null when it has no completion time). */
export async function jobCompletedOn(db: DbOrTrx, jobId: number): Promise<string | null> {
  const row = await db.selectFrom('jobs').select(sql<string | null>`(completed_at at time zone 'Europe/London')::date::text`.as('d')).where('id', '=', jobId).executeTakeFirst();
  return row?.d ?? null;
}

/**
 * Count and outstanding pence (gross - paid - credited) of the scope's invoices (not credit notes)
 * in `statuses`, and the overdue part of both; the sums are bigint (text on the wire) so that
 * SysOps' total over every agency cannot overflow.
 */
export function unpaidTotals(db: DbOrTrx, scope: MoneyScope, statuses: readonly string[]) {
  const outstanding = sql`i.gross_pence - i.paid_pence - i.credited_pence`;
  let q = db
    .selectFrom('invoices as i')
    .innerJoin('jobs as j', 'j.id', 'i.job_id')
    .where('i.kind', '=', 'invoice')
    .where('i.status', 'in', [...statuses])
    .where((eb) => moneyVisible(eb, scope, 'i'));
  // The agency bound on invoices itself lets the (agency_id, status, id) index serve the count.
  if (scope.kind === 'agency' || scope.kind === 'branch') q = q.where('i.agency_id', '=', scope.agencyId);
  return q
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<string>`coalesce(sum(${outstanding}), 0)::bigint`.as('total_pence'),
      sql<number>`(count(*) filter (where i.status = 'overdue'))::int`.as('overdue_count'),
      sql<string>`coalesce(sum(${outstanding}) filter (where i.status = 'overdue'), 0)::bigint`.as('overdue_pence'),
    ])
    .executeTakeFirstOrThrow();
}
