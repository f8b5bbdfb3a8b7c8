/**
 * The invoice reads behind the export and PDF routes (docs/money.md "PDF", "Export"): the
 * contractor filter of an export and an invoice's PDF, so the routes call no repository.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import { readAgency } from './access.ts';
import { billsSheet, paymentsSheet, type AccountingPackage } from './accounting-export.ts';
import { sheetCsv, sheetXlsx } from './accounting-sheet.ts';
import { moneyScope } from './access.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { landlordCustomersOfIssued, landlordCustomersOfJob, partiesOfInvoice } from './invoices.repository.ts';
import { getInvoice } from './invoices.service.ts';
import * as prepo from './pricing.repository.ts';

/**
 * The id of the contractor an export is limited to, resolved inside the caller's agency.
 * @param uuid the export's `contractor_uuid`; undefined: no limit
 * @throws 404 'Contractor not found' for an unknown or another agency's contractor
 */
export async function exportContractorId(deps: AppDeps, auth: AuthContext, uuid: string | undefined): Promise<number | undefined> {
  if (!uuid) return undefined;
  const c = await prepo.findContractor(deps.db, readAgency(auth), uuid);
  if (!c) throw notFound('Contractor');
  return c.id;
}

/**
 * GET /api/invoices/{uuid}/pdf: the invoice or credit note as the caller sees it, rendered as PDF
 * with the contractor as supplier (name, address, VAT number) and the agency as customer (legal
 * name, registered address, VAT number) (docs/money.md "Invoice PDF").
 * @returns the PDF bytes and the file name (`<invoice number or draft>.pdf`)
 * @throws 404 'Invoice not found'
 */
export async function invoicePdf(deps: AppDeps, auth: AuthContext, uuid: string): Promise<{ pdf: Buffer; filename: string }> {
  const inv = await getInvoice(deps, auth, uuid);
  const p = await partiesOfInvoice(deps.db, inv.uuid);
  const settings = await prepo.settings(deps.db, p.agency_id);
  const owners = inv.vat_treatment === 'disbursement' ? await disbursementCustomers(deps, p.id, p.job_id, inv.invoice_number !== null) : [];
  const pdf = await renderInvoicePdf(inv, {
    agencyName: p.agency_name, agencyLegalName: p.legal_name, agencyVatNumber: settings.vat_number,
    agencyAddress: p.registered_line1 === null ? null : { line1: p.registered_line1, line2: p.registered_line2, town: p.registered_town, postcode: p.registered_postcode },
    supplierAddress: p.address_line1 === null ? null : { line1: p.address_line1, line2: p.address_line2, town: p.address_town, postcode: p.address_postcode },
    landlordCustomers: owners.map((o) => ({ name: o.name, address: { line1: o.address_line1, line2: o.address_line2, town: o.address_town, postcode: o.address_postcode } })),
  }, new Date(inv.updated_at));
  return { pdf, filename: `${inv.invoice_number ?? 'draft'}.pdf` };
}

/**
 * The customers a disbursement's PDF names: once issued, the landlords its VAT records were
 * recorded for, as those records keep them (an erased landlord's restricted name and address, the
 * former owner of a property sold since); a draft, or an issue whose recharges are still being
 * recorded, names the property's landlords today (docs/money.md "VAT treatment of recharged costs").
 */
async function disbursementCustomers(deps: AppDeps, invoiceId: number, jobId: number, issued: boolean) {
  const recorded = issued ? await landlordCustomersOfIssued(deps.db, invoiceId) : [];
  return recorded.length > 0 ? recorded : landlordCustomersOfJob(deps.db, jobId);
}

/** MIME types of the export formats. */
export const EXPORT_MIME = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

/**
 * GET /api/invoices/export/{package}/{kind}: contractor bills or payments in the import layout of
 * Xero, QuickBooks Online or Sage 50 (docs/money.md "Exports").
 * @param q from_date/to_date (issue date; payments: paid date), contractor_uuid (bills), format csv|xlsx
 * @returns the file bytes, its MIME type and name (`<package>-<kind>.<format>`)
 * @throws 404 'Contractor not found' for an unknown or another agency's contractor
 */
export async function accountingExport(
  deps: AppDeps, auth: AuthContext, pkg: AccountingPackage, kind: 'bills' | 'payments',
  q: { from_date?: string; to_date?: string; contractor_uuid?: string; format?: 'csv' | 'xlsx' },
): Promise<{ body: Buffer | string; mime: string; filename: string }> {
  const contractorId = await exportContractorId(deps, auth, q.contractor_uuid);
  const range = { ...(q.from_date ? { from: q.from_date } : {}), ...(q.to_date ? { to: q.to_date } : {}) };
  // An export may lag: on the read replica when there is one (docs/operations.md "Read replicas").
  const sheet = await deps.reads.mayLag(auth.userId, (db) => kind === 'bills'
    ? billsSheet(db, moneyScope(auth), pkg, { ...range, ...(contractorId ? { contractorId } : {}) })
    : paymentsSheet(db, moneyScope(auth), pkg, range));
  const format = q.format ?? 'csv';
  const body = format === 'xlsx' ? await sheetXlsx(sheet, `${pkg} ${kind}`) : sheetCsv(sheet);
  return { body, mime: EXPORT_MIME[format], filename: `${pkg}-${kind}.${format}` };
}
