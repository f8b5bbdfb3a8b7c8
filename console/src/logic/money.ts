/**
 * Money on the console (docs/money.md): amounts typed in pounds turned into the API's integer
 * pence, and which of "submit a quote" / "submit an invoice" a job allows: quotes before the job
 * is Completed (and while it is open), draft invoices on a Completed or Invoiced job.
 */

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
