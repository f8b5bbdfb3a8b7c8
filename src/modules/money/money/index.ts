/**
 * The money module's public door (docs/money.md): routes for pricing, quotes, invoices and
 * payments, and the periodic task that marks invoices overdue.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { EventHandler, PeriodicTask } from '../../../events/index.ts';
import type { App } from '../../../http/route-types.ts';
import { pricingRoutes } from './pricing.routes.ts';
import { quotesRoutes } from './quotes.routes.ts';
import { invoicesRoutes } from './invoices.routes.ts';
import { overdueTask } from './settlement.service.ts';

/** Registers every money route. */
export function moneyRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await app.register(pricingRoutes(deps));
    await app.register(quotesRoutes(deps));
    await app.register(invoicesRoutes(deps));
  };
}

/** Event handlers of the money module (none yet: its events feed messaging and webhooks). */
export const handlers: EventHandler[] = [];

/** Periodic tasks of the money module. */
export const periodicTasks: PeriodicTask[] = [overdueTask];

export { markOverdueInvoices } from './settlement.service.ts';
export { computeLines } from './lines.ts';
export { type LineInputDto } from './money.schemas.ts';
export { addDays, isoDate, formatPounds, decimalPounds, divRoundHalfUp } from './vat.ts';
/** VAT rates (basis points) by code in force on an ISO date (recharge fees). */
export { ratesOn as vatRatesOn } from './lines.repository.ts';
/** The invoice and line repositories, for the demo data step (src/seed/demo/money.ts) only. */
export * as invoicesRepo from './invoices.repository.ts';
export * as linesRepo from './lines.repository.ts';
/** Unpaid invoice totals (dashboard) and the invoice visibility rule (global search). */
export { unpaidInvoiceTotals, UNPAID_STATUSES, type UnpaidInvoiceTotals } from './unpaid.ts';
export { moneyScope, moneyVisible, type MoneyScope } from './access.ts';
export { invoiceNumber } from './invoices.service.ts';
/** The agency's VAT number and payment terms, read and written by the agency profile (docs/onboarding.md). */
export { settings as moneySettings, saveSettings as saveMoneySettings } from './pricing.repository.ts';
/** The accounting export table and layouts, for the recharge exports (docs/money.md "Exports"). */
export { date as sheetDate, money as sheetMoney, qty as sheetQty, text as sheetText, sageAccountRef, sheetCsv, sheetXlsx, type Sheet, type SheetCell } from './accounting-sheet.ts';
export { PACKAGES, QBO_CREDIT_NOTE_COLUMNS, QBO_INVOICE_COLUMNS, SAGE_AUDIT_COLUMNS, SAGE_NOMINAL, type AccountingPackage } from './accounting-export.ts';
export { EXPORT_MIME } from './invoice-export.service.ts';
/** Quotes and invoices written for a contractor working by link (docs/works-orders.md). */
export { insertQuoteFor, decideQuote } from './quotes.service.ts';
export { createInvoice } from './invoices.service.ts';
export { type SubmitQuoteInput, LinesBody } from './money.schemas.ts';
