/**
 * CSV exports for the accounting package, streamed page by page through csv-stringify
 * (docs/money.md "Export"):
 * - invoices and credit notes in Xero's bills import layout (one row per line; a credit note's
 *   amounts negative, which Xero imports as a credit note);
 * - payments in Xero's bank statement import layout (money out negative), for reconciliation.
 * Dates are DD/MM/YYYY as Xero's UK import expects; amounts are pounds with two decimals. Every
 * row passes through safeRow (src/lib/spreadsheet-safe.ts), so a contractor's reference or line
 * description never reaches the agency's spreadsheet as a formula.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { safeRow } from '../../../lib/spreadsheet-safe.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { MoneyScope } from './access.ts';
import * as repo from './invoices.repository.ts';
import * as lrepo from './lines.repository.ts';
import { invoiceNumber } from './invoices.service.ts';
import { decimalPounds } from './vat.ts';

/** Columns of Xero's bills import (the subset it requires plus tax and currency). */
export const XERO_BILL_COLUMNS = [
  '*ContactName', 'EmailAddress', '*InvoiceNumber', 'Reference', '*InvoiceDate', '*DueDate', 'Total', 'Description', '*Quantity',
  '*UnitAmount', '*AccountCode', '*TaxType', 'TaxAmount', 'Currency',
] as const;
/** Columns of Xero's bank statement import. */
export const XERO_STATEMENT_COLUMNS = ['*Date', '*Amount', 'Payee', 'Description', 'Reference'] as const;
/** Xero's default UK expense account for repairs and maintenance. */
export const ACCOUNT_CODE = '473';
const PAGE = 500;

/** Xero UK purchase tax types by applied rate and code. */
function taxType(vatRegistered: boolean, code: string): string {
  if (!vatRegistered) return 'No VAT';
  if (code === 'standard') return '20% (VAT on Expenses)';
  if (code === 'reduced') return '5% (VAT on Expenses)';
  if (code === 'zero') return 'Zero Rated Expenses';
  return 'Exempt Expenses';
}

/** DD/MM/YYYY from an ISO date. */
function ukDate(iso: string | null): string {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

async function* billRows(db: DbOrTrx, scope: MoneyScope, filter: repo.InvoiceFilter) {
  yield [...XERO_BILL_COLUMNS];
  let after = 0;
  for (;;) {
    const page = await repo.exportPage(db, scope, { ...filter, statuses: ['issued', 'part_paid', 'paid', 'overdue', 'credited'] }, after, PAGE);
    if (page.length === 0) return;
    const lines = await lrepo.linesOf(db, 'invoice_id', page.map((r) => r.id));
    for (const inv of page) {
      const sign = inv.kind === 'credit_note' ? -1 : 1;
      // A disbursement is the landlord's invoice: its gross, no VAT reclaimed (docs/money.md "VAT treatment of recharged costs").
      const disbursement = inv.vat_treatment === 'disbursement';
      const date = inv.kind === 'credit_note' ? inv.issue_date : (inv.supplier_invoice_date ?? inv.issue_date);
      for (const l of lines.get(inv.id) ?? []) {
        yield safeRow([
          inv.contractor_name, inv.contractor_email ?? '', invoiceNumber(inv.kind, inv.number), inv.contractor_reference ?? inv.job_reference,
          ukDate(date), ukDate(inv.due_date), decimalPounds(sign * inv.gross_pence), l.description, disbursement ? '1' : String(l.quantity),
          decimalPounds(sign * (disbursement ? l.net_pence + l.vat_pence : l.unit_price_pence)), ACCOUNT_CODE, taxType(inv.vat_registered && !disbursement, l.vat_rate),
          decimalPounds(disbursement ? 0 : sign * l.vat_pence), 'GBP',
        ]);
      }
    }
    after = page[page.length - 1]!.id;
  }
}

async function* paymentRows(db: DbOrTrx, scope: MoneyScope, filter: { from?: string; to?: string }) {
  yield [...XERO_STATEMENT_COLUMNS];
  let after = 0;
  for (;;) {
    const page = await repo.paymentExportPage(db, scope, filter, after, PAGE);
    if (page.length === 0) return;
    for (const p of page) {
      yield safeRow([ukDate(p.paid_on), decimalPounds(-p.amount_pence), p.contractor_name, `${invoiceNumber(p.kind, p.number)} ${p.job_reference} (${p.method})`, p.reference ?? '']);
    }
    after = page[page.length - 1]!.id;
  }
}

/** A stream of the bills CSV (issued, part-paid, paid and overdue invoices and credit notes). */
export function billsCsv(db: DbOrTrx, scope: MoneyScope, filter: repo.InvoiceFilter): Readable {
  return Readable.from(billRows(db, scope, filter)).pipe(stringify());
}

/** A stream of the payments CSV. */
export function paymentsCsv(db: DbOrTrx, scope: MoneyScope, filter: { from?: string; to?: string }): Readable {
  return Readable.from(paymentRows(db, scope, filter)).pipe(stringify());
}
