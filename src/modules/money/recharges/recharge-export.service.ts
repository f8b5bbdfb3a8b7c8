/**
 * Landlord recharges as sales invoices (recharges) and sales credit notes (recharge credits) in
 * the import layouts of Xero, QuickBooks Online and Sage 50 Accounts (docs/money.md "Exports"),
 * written as CSV or XLSX by the money module's accounting sheet (every text cell through
 * src/lib/spreadsheet-safe.ts). Each recharge has, under the disbursement treatment, a line for the
 * contractor's cost passed on (its net plus VAT, outside the scope of VAT), or, under the recharge
 * treatment, a line per VAT rate of the agency's onward supply with its output VAT; and, when there
 * is one, a line for the agency's fee with its VAT. A credit names the recharge it corrects (Xero
 * `Reference`, QuickBooks `Memo`, Sage `Extra Reference`).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import { AppError } from '../../../core/errors.ts';
import {
  EXPORT_MIME, QBO_CREDIT_NOTE_COLUMNS, QBO_INVOICE_COLUMNS, SAGE_AUDIT_COLUMNS, sheetCsv, sheetXlsx, SAGE_NOMINAL, sageAccountRef, sheetDate as date, sheetMoney as money, sheetQty as qty, sheetText as text,
  type AccountingPackage, type Sheet, type SheetCell,
} from '../money/index.ts';
import * as repo from './recharges.repository.ts';
import { rechargeNumber, toRechargeDto } from './recharges.service.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** Xero's sales invoice import template (the columns used; starred ones are required by Xero). */
export const XERO_SALES_COLUMNS = [
  '*ContactName', 'EmailAddress', 'POAddressLine1', 'POCity', 'POPostalCode', '*InvoiceNumber', 'Reference', '*InvoiceDate', '*DueDate', 'Total',
  '*Description', '*Quantity', '*UnitAmount', '*AccountCode', '*TaxType', 'TaxAmount', 'Currency',
] as const;
/** Xero default UK chart: sales (the fee) and repairs and maintenance (the cost passed on). */
export const XERO_ACCOUNTS = { sales: '200', repairs: '473' } as const;
const PAGE = 500;

interface SalesLine {
  description: string;
  /** pence ex VAT, signed */
  net: number;
  /** pence, signed */
  vat: number;
  fee: boolean;
  /** the VAT code of the line: standard, reduced, zero, exempt, or outside (outside the scope: a disbursement, or an agency without a VAT number) */
  tax: 'standard' | 'reduced' | 'zero' | 'exempt' | 'outside';
}

/** Tax codes of the sales side per package (docs/money.md "Exports"): Xero UK tax types, QuickBooks Online UK VAT codes, Sage 50 T codes. */
const SALES_TAX: Record<AccountingPackage, Record<SalesLine['tax'], string>> = {
  xero: { standard: '20% (VAT on Income)', reduced: '5% (VAT on Income)', zero: 'Zero Rated Income', exempt: 'Exempt Income', outside: 'No VAT' },
  quickbooks: { standard: '20.0% S', reduced: '5.0% R', zero: '0.0% Z', exempt: 'Exempt', outside: 'No VAT' },
  sage: { standard: 'T1', reduced: 'T5', zero: 'T0', exempt: 'T2', outside: 'T9' },
};

function taxOf(code: string): SalesLine['tax'] {
  return code === 'standard' || code === 'reduced' || code === 'zero' || code === 'exempt' ? code : 'outside';
}

/**
 * The sales lines of a recharge: under the disbursement treatment one line for the cost passed on
 * (its net plus VAT, outside the scope of VAT); under the recharge treatment one line per VAT rate
 * of the agency's onward supply with its output VAT; then the fee with its VAT.
 */
function linesOf(r: repo.RechargeRow): SalesLine[] {
  const d = toRechargeDto(r);
  const what = d.kind === 'credit' ? `${d.contractor_name} credit note ${d.invoice_number} (against ${d.credited_invoice_number})` : `${d.contractor_name} invoice ${d.invoice_number}`;
  const share = `${(d.share_bp / 100).toFixed(2)} %`;
  const description = `${d.job_reference} ${d.property}: ${what}, your share ${share}`;
  const out: SalesLine[] = d.vat_treatment === 'disbursement'
    ? [{ description: `${description} (disbursement)`, net: d.cost_net_pence + d.cost_vat_pence, vat: 0, fee: false, tax: 'outside' }]
    : d.cost_lines.map((l) => ({ description, net: l.net_pence, vat: l.vat_pence, fee: false, tax: taxOf(l.vat_rate) }));
  if (d.fee_net_pence !== 0) out.push({ description: `Management fee on ${d.job_reference}`, net: d.fee_net_pence, vat: d.fee_vat_pence, fee: true, tax: d.fee_vat_rate_bp > 0 ? 'standard' : 'outside' });
  return out;
}

function row(pkg: AccountingPackage, r: repo.RechargeRow, l: SalesLine): SheetCell[] {
  const credit = r.kind === 'credit';
  const number = rechargeNumber(r.kind, r.number);
  const original = credit && r.original_number !== null ? rechargeNumber('recharge', r.original_number) : null;
  const total = r.total_pence;
  const tax = SALES_TAX[pkg][l.tax];
  // Disbursements pass through the repairs account (the bill of the same cost is booked there); a recharge and the fee are sales.
  const sales = l.fee || r.vat_treatment === 'recharge';
  if (pkg === 'xero') {
    return [
      text(r.landlord_name), text(r.landlord_email), text(r.landlord_line1), text(r.landlord_town), text(r.landlord_postcode), text(number),
      text(credit ? original : r.job_reference), date(r.recharge_date), date(r.recharge_date), money(total), text(l.description), qty(1), money(l.net),
      text(sales ? XERO_ACCOUNTS.sales : XERO_ACCOUNTS.repairs), text(tax), money(l.vat), text('GBP'),
    ];
  }
  if (pkg === 'quickbooks') {
    const item = text(l.fee ? 'Management fee' : 'Recharge');
    // A credit note is a document of its own in QuickBooks (QBO_CREDIT_NOTE_COLUMNS), amounts positive.
    if (credit) {
      return [
        text(number), text(r.landlord_name), date(r.recharge_date), text(''), text(`Credit ${number} against ${original ?? '-'}`), item,
        text(l.description), qty(1), money(-l.net), money(-l.net), text(tax), money(-l.vat), text('GBP'), date(r.recharge_date),
      ];
    }
    return [
      text(number), text(r.landlord_name), date(r.recharge_date), date(r.recharge_date), text(''), text(''), text(r.job_reference), item,
      text(l.description), qty(1), money(l.net), money(l.net), text(tax), money(l.vat), text('GBP'), date(r.recharge_date),
    ];
  }
  return [
    text(credit ? 'SC' : 'SI'), text(sageAccountRef(r.landlord_name)), text(sales ? SAGE_NOMINAL.sales : SAGE_NOMINAL.repairs), text(''), date(r.recharge_date), text(number),
    text(cutGraphemes(l.description, 60)), money(Math.abs(l.net)), text(tax), money(Math.abs(l.vat)), text(''), text(original ?? r.job_reference),
    text(''), text(''), text(''),
  ];
}

/** Which documents a sales export holds: both, the invoices (recharges) or the credit notes (recharge credits). */
export type SalesDocuments = 'all' | 'invoices' | 'credit_notes';

/**
 * The active recharges of the filter as sales invoices and credit notes in the package's layout.
 * QuickBooks Online imports invoices and credit notes with two tools (its invoice import refuses a
 * negative total), so for it `documents` is `invoices` or `credit_notes` and the credit notes have
 * their own columns (QBO_CREDIT_NOTE_COLUMNS) with positive amounts.
 * @param f agency (null: every agency), recharge dates from/to
 * @param documents which documents (default: all; QuickBooks: invoices)
 * @throws 400 documents=all for quickbooks
 */
export async function rechargesSheet(db: DbOrTrx, pkg: AccountingPackage, f: repo.RechargeFilter, documents?: SalesDocuments): Promise<Sheet> {
  const docs = documents ?? (pkg === 'quickbooks' ? 'invoices' : 'all');
  if (pkg === 'quickbooks' && docs === 'all') {
    throw new AppError('bad_request', 'QuickBooks Online imports invoices and credit notes separately: ask for documents=invoices or documents=credit_notes');
  }
  const columns = pkg === 'xero' ? XERO_SALES_COLUMNS : pkg === 'quickbooks' ? (docs === 'credit_notes' ? QBO_CREDIT_NOTE_COLUMNS : QBO_INVOICE_COLUMNS) : SAGE_AUDIT_COLUMNS;
  const wanted = (r: repo.RechargeRow) => docs === 'all' || (docs === 'credit_notes') === (r.kind === 'credit');
  const rows: SheetCell[][] = [];
  let after = 0;
  for (;;) {
    const page = await repo.rechargePage(db, { ...f, activeOnly: true }, after, PAGE);
    if (page.length === 0) break;
    for (const r of page) if (wanted(r)) for (const l of linesOf(r)) rows.push(row(pkg, r, l));
    after = page[page.length - 1]!.id;
  }
  return { columns, rows };
}

/**
 * GET /api/recharges/export/{package}: the agency's active recharges (SysOps: every agency's)
 * dated in the range, as sales invoices and credit notes for Xero, QuickBooks Online or Sage 50.
 * QuickBooks: invoices by default, credit notes with documents=credit_notes (rechargesSheet).
 * @returns the file bytes, MIME type and name (`<package>-sales.<format>`, `-sales-credit-notes` for credit notes)
 * @throws 400 documents=all for quickbooks
 */
export async function rechargeExport(deps: AppDeps, auth: AuthContext, pkg: AccountingPackage, q: { from_date?: string; to_date?: string; format?: 'csv' | 'xlsx'; documents?: SalesDocuments }) {
  // An export may lag: on the read replica when there is one (docs/operations.md "Read replicas").
  const sheet = await deps.reads.mayLag(auth.userId, (db) => rechargesSheet(db, pkg, { agencyId: readAgency(auth), ...(q.from_date ? { from: q.from_date } : {}), ...(q.to_date ? { to: q.to_date } : {}) }, q.documents));
  const format = q.format ?? 'csv';
  const body = format === 'xlsx' ? await sheetXlsx(sheet, `${pkg} sales`) : sheetCsv(sheet);
  const what = q.documents === 'credit_notes' ? 'sales-credit-notes' : 'sales';
  return { body, mime: EXPORT_MIME[format], filename: `${pkg}-${what}.${format}` };
}
