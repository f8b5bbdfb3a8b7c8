/**
 * Money on the console (docs/money.md): the invoice statuses' labels (kept here, free of the
 * invoice list's table, so that the job page shows them without loading that page's code),
 * amounts typed in pounds turned into the API's integer pence, and which of "submit a quote" /
 * "submit an invoice" a job allows: quotes before the job is Completed (and while it is open),
 * draft invoices on a Completed or Invoiced job.
 */
import type { InvoiceStatus } from '../types.ts';

/** Invoice statuses (docs/money.md) and their labels. */
export const INVOICE_STATUSES: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  part_paid: 'Part paid',
  overdue: 'Overdue',
  paid: 'Paid',
  credited: 'Credited',
  void: 'Void',
};

/** The label of an invoice's `status` (INVOICE_STATUSES), else the status itself. */
export function invoiceStatusLabel(status: string): string {
  return isInvoiceStatus(status) ? INVOICE_STATUSES[status] : status;
}

/** Whether `status` is one of INVOICE_STATUSES. */
function isInvoiceStatus(status: string): status is InvoiceStatus {
  return Object.hasOwn(INVOICE_STATUSES, status);
}

/** "79.5", "£1,234.50" or "12" as pence (7950, 123450, 1200); null when it is not an amount of at most two decimals. */
export function poundsToPence(text: string): number | null {
  const clean = text.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, frac = ''] = clean.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Which money writes a job allows now, by its status (docs/jobs.md: 1 to 6 and 11 On hold take quotes; 7 Completed and 8 Invoiced take invoices). */
export function moneyActions(statusId: number): { quote: boolean; invoice: boolean } {
  return { quote: statusId < 7 || statusId === 11, invoice: statusId === 7 || statusId === 8 };
}
