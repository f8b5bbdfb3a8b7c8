/**
 * Contractor bills (invoices and credit notes) and payments in the import layouts of Xero,
 * QuickBooks Online and Sage 50 Accounts (docs/money.md "Exports"), as CSV or XLSX through
 * accounting-sheet.ts. One row per line of every issued, part-paid, paid and overdue invoice and
 * credit note dated in the period; a credit note names the invoice it corrects (Xero `Reference`,
 * QuickBooks `Memo`, Sage `Extra Reference`). Amounts are decimal pounds; dates DD/MM/YYYY (CSV)
 * or date cells (XLSX).
 *
 * - Xero: the bills import template (credit notes as negative amounts, which Xero imports as
 *   credit notes) and the bank statement import (payments, money out negative).
 * - QuickBooks Online (UK): the bill import's auto-mapped headings, tax exclusive, credit notes as
 *   negative lines; payments in the 3-column bank upload (Date, Description, Amount).
 * - Sage 50: audit trail transactions: PI (purchase invoice) and PC (purchase credit) per line,
 *   payments as PA (payment on account, to be allocated: Sage imports no PP), tax codes T1 (20 %),
 *   T5 (5 %), T0 (zero), T2 (exempt), T9 (outside the scope: supplier not registered).
 */
import type { DbOrTrx } from '../../../db/types.ts';
import type { MoneyScope } from './access.ts';
import { date, money, qty, sageAccountRef, text, type Sheet, type SheetCell } from './accounting-sheet.ts';
import { XERO_BILL_COLUMNS, XERO_STATEMENT_COLUMNS, ACCOUNT_CODE } from './invoice-csv.ts';
import * as repo from './invoices.repository.ts';
import * as lrepo from './lines.repository.ts';
import { invoiceNumber, ownNumber } from './invoices.service.ts';
import type { LineDto } from './money.schemas.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

export const PACKAGES = ['xero', 'quickbooks', 'sage'] as const;
export type AccountingPackage = (typeof PACKAGES)[number];

/** QuickBooks Online (UK) bill import: the headings of its sample file, which it maps itself (starred: required). */
export const QBO_BILL_COLUMNS = ['*BillNo', '*Supplier', '*BillDate', '*DueDate', 'Terms', 'Location', 'Memo', '*Account', 'LineDescription', '*LineAmount', '*LineTaxCode', 'LineTaxAmount', 'Currency'] as const;
/** QuickBooks Online (UK) invoice import: the headings of its sample file (starred: required). */
export const QBO_INVOICE_COLUMNS = [
  '*InvoiceNo', '*Customer', '*InvoiceDate', '*DueDate', 'Terms', 'Location', 'Memo', 'Item(Product/Service)', 'ItemDescription', 'ItemQuantity', 'ItemRate', '*ItemAmount',
  '*ItemTaxCode', 'ItemTaxAmount', 'Currency', 'Service Date',
] as const;
/**
 * QuickBooks Online (UK) credit note import (Gear > Import data > Import credit notes; Intuit help
 * "How to import credit notes"): a credit note of its own, amounts positive, which QuickBooks' invoice
 * import cannot carry (an invoice's total is never negative there).
 */
export const QBO_CREDIT_NOTE_COLUMNS = [
  '*CreditNoteNo', '*Customer', '*CreditNoteDate', 'Location', 'Memo', 'Item(Product/Service)', 'ItemDescription', 'ItemQuantity', 'ItemRate', '*ItemAmount',
  '*ItemTaxCode', 'ItemTaxAmount', 'Currency', 'Service Date',
] as const;
/** QuickBooks Online bank upload, 3 columns. */
export const QBO_BANK_COLUMNS = ['Date', 'Description', 'Amount'] as const;
/** Sage 50 Accounts audit trail transactions import. */
export const SAGE_AUDIT_COLUMNS = [
  'Type', 'Account Reference', 'Nominal A/C Ref', 'Department Code', 'Date', 'Reference', 'Details', 'Net Amount', 'Tax Code', 'Tax Amount', 'Exchange Rate',
  'Extra Reference', 'User Name', 'Project Refn', 'Cost Code Refn',
] as const;
/** Sage 50 default nominal codes: repairs and renewals, sales, bank current account. */
export const SAGE_NOMINAL = { repairs: '7800', sales: '4000', bank: '1200' } as const;
/** QuickBooks Online default expense account for repairs. */
export const QBO_REPAIRS_ACCOUNT = 'Repairs and Maintenance';
const PAGE = 500;

/** QuickBooks Online UK VAT code names. */
export function qboTaxCode(vatRegistered: boolean, code: string): string {
  if (!vatRegistered) return 'No VAT';
  return ({ standard: '20.0% S', reduced: '5.0% R', zero: '0.0% Z', exempt: 'Exempt' } as Record<string, string>)[code] ?? 'No VAT';
}

/** Sage 50 tax codes. */
export function sageTaxCode(vatRegistered: boolean, code: string): string {
  if (!vatRegistered) return 'T9';
  return ({ standard: 'T1', reduced: 'T5', zero: 'T0', exempt: 'T2' } as Record<string, string>)[code] ?? 'T9';
}

/** Xero UK purchase tax types. */
function xeroTaxType(vatRegistered: boolean, code: string): string {
  if (!vatRegistered) return 'No VAT';
  return ({ standard: '20% (VAT on Expenses)', reduced: '5% (VAT on Expenses)', zero: 'Zero Rated Expenses', exempt: 'Exempt Expenses' } as Record<string, string>)[code] ?? 'No VAT';
}

type BillRow = repo.InvoiceRow;

/**
 * One bill line in the package's layout. Under the **recharge** treatment the agency is the
 * customer and reclaims the VAT: the line's net with its VAT code. Under the **disbursement**
 * treatment the invoice is the landlord's and the agency reclaims nothing (VAT Notice 700, 25.1):
 * the line's gross, outside the scope of VAT (No VAT / T9), no VAT amount. The bill is dated with
 * the invoice's own date (the contractor's for its invoice) and names its own number.
 */
function billLine(pkg: AccountingPackage, inv: BillRow, l: LineDto): SheetCell[] {
  const credit = inv.kind === 'credit_note';
  const sign = credit ? -1 : 1;
  const number = invoiceNumber(inv.kind, inv.number);
  const original = credit ? ownNumber({ contractor_reference: inv.credited_contractor_reference, contractor_name: inv.contractor_name, self_billing_number: inv.credited_self_billing_number, number: inv.credited_number }) : null;
  const own = credit ? null : ownNumber(inv);
  // The document's own date: the contractor's invoice or credit note date when it issued one.
  const billDate = inv.supplier_invoice_date ?? inv.issue_date;
  const reclaim = inv.vat_treatment !== 'disbursement' && inv.vat_registered;
  const net = inv.vat_treatment === 'disbursement' ? l.net_pence + l.vat_pence : l.net_pence;
  const vat = inv.vat_treatment === 'disbursement' ? 0 : l.vat_pence;
  // Xero's UnitAmount is per unit: a disbursement's line gross over its quantity is not exact, so it goes as one unit of the line's gross.
  const [quantity, unit] = inv.vat_treatment === 'disbursement' ? [1, net] : [l.quantity, l.unit_price_pence];
  if (pkg === 'xero') {
    return [
      text(inv.contractor_name), text(inv.contractor_email), text(number), text(credit ? original : (own ?? inv.job_reference)), date(billDate),
      date(inv.due_date), money(sign * inv.gross_pence), text(l.description), qty(quantity), money(sign * unit), text(ACCOUNT_CODE),
      text(xeroTaxType(reclaim, l.vat_rate)), money(sign * vat), text('GBP'),
    ];
  }
  if (pkg === 'quickbooks') {
    const memo = credit ? `Credit note ${number} against ${original}${inv.notes ? `: ${inv.notes}` : ''}` : `${inv.job_reference}${own && own !== number ? ` (supplier's invoice ${own})` : ''}`;
    return [
      text(number), text(inv.contractor_name), date(billDate), date(inv.due_date), text(''), text(''), text(memo), text(QBO_REPAIRS_ACCOUNT), text(l.description),
      money(sign * net), text(qboTaxCode(reclaim, l.vat_rate)), money(sign * vat), text('GBP'),
    ];
  }
  return [
    text(credit ? 'PC' : 'PI'), text(sageAccountRef(inv.contractor_name)), text(SAGE_NOMINAL.repairs), text(''), date(billDate), text(number),
    text(cutGraphemes(`${inv.job_reference} ${l.description}`, 60)), money(net), text(sageTaxCode(reclaim, l.vat_rate)), money(vat), text(''),
    text(credit ? original : own), text(''), text(''), text(''),
  ];
}

/**
 * The contractor bills of the filter in the package's layout.
 * @param filter issue dates from/to, contractor
 */
export async function billsSheet(db: DbOrTrx, scope: MoneyScope, pkg: AccountingPackage, filter: repo.InvoiceFilter): Promise<Sheet> {
  const columns = pkg === 'xero' ? XERO_BILL_COLUMNS : pkg === 'quickbooks' ? QBO_BILL_COLUMNS : SAGE_AUDIT_COLUMNS;
  const rows: SheetCell[][] = [];
  let after = 0;
  for (;;) {
    const page = await repo.exportPage(db, scope, { ...filter, statuses: ['issued', 'part_paid', 'paid', 'overdue', 'credited'] }, after, PAGE);
    if (page.length === 0) break;
    const lines = await lrepo.linesOf(db, 'invoice_id', page.map((r) => r.id));
    for (const inv of page) for (const l of lines.get(inv.id) ?? []) rows.push(billLine(pkg, inv, l));
    after = page[page.length - 1]!.id;
  }
  return { columns, rows };
}

/** The payments of the filter (paid dates from/to) in the package's layout: money out. */
export async function paymentsSheet(db: DbOrTrx, scope: MoneyScope, pkg: AccountingPackage, filter: { from?: string; to?: string }): Promise<Sheet> {
  const columns = pkg === 'xero' ? XERO_STATEMENT_COLUMNS : pkg === 'quickbooks' ? QBO_BANK_COLUMNS : SAGE_AUDIT_COLUMNS;
  const rows: SheetCell[][] = [];
  let after = 0;
  for (;;) {
    const page = await repo.paymentExportPage(db, scope, filter, after, PAGE);
    if (page.length === 0) break;
    for (const p of page) {
      const number = invoiceNumber(p.kind, p.number);
      const what = `${number} ${p.job_reference} (${p.method})`;
      if (pkg === 'xero') rows.push([date(p.paid_on), money(-p.amount_pence), text(p.contractor_name), text(what), text(p.reference)]);
      else if (pkg === 'quickbooks') rows.push([date(p.paid_on), text(`${p.contractor_name} ${what}${p.reference ? ` ${p.reference}` : ''}`), money(-p.amount_pence)]);
      else {
        rows.push([
          text('PA'), text(sageAccountRef(p.contractor_name)), text(SAGE_NOMINAL.bank), text(''), date(p.paid_on), text(p.reference ?? number), text(cutGraphemes(`Payment ${what}`, 60)),
          money(p.amount_pence), text('T9'), money(0), text(''), text(number), text(''), text(''), text(''),
        ]);
      }
    }
    after = page[page.length - 1]!.id;
  }
  return { columns, rows };
}
