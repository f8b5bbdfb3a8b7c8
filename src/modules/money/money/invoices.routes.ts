/**
 * Invoice routes (docs/money.md "Invoices", "Payments", "PDF", "Export"): /api/invoices (list with
 * totals per status, create draft), /{uuid} (read, change draft), /{uuid}/issue, /void,
 * /credit-notes, /payments, /pdf, and the CSV exports /export/bills.csv and /export/payments.csv.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { moneyScope } from './access.ts';
import { billsCsv, paymentsCsv } from './invoice-csv.ts';
import {
  AccountingExportParams, AccountingExportQuery, CreateInvoiceBody, CreditNoteBody, ExportQuery, Invoice, InvoiceListEnvelope, ListInvoicesQuery, Payment, PaymentBody, PaymentResult, UpdateInvoiceBody, VoidBody,
} from './invoices.schemas.ts';
import { accountingExport, exportContractorId, invoicePdf } from './invoice-export.service.ts';
import * as svc from './invoices.service.ts';
import { ListQuotesQuery, UuidParams } from './money.schemas.ts';
import * as settle from './settlement.service.ts';

const tags = ['invoices'];
const ERR = [400, 401, 403, 404, 409, 429];

/** Registers the invoice routes. */
export function invoicesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/invoices: invoices in scope with totals per status. */
    app.get('/api/invoices', {
      config: { permission: 'api.invoices.view' },
      schema: {
        tags, summary: 'List invoices and credit notes',
        description: 'Filters status, kind, contractor_uuid, job_uuid, from_date/to_date (issue date). `totals` gives count, gross and outstanding pence per status over the same filters without status. Contractors see their own only.',
        querystring: ListInvoicesQuery, response: responses(InvoiceListEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total, totals } = await svc.listInvoices(deps, requireAuth(request), request.query);
        return { success: true as const, data: rows, count: total, totals, message: 'Invoices retrieved' };
      },
    });

    /** POST /api/invoices: creates a draft invoice (201). */
    app.post('/api/invoices', {
      config: { permission: 'api.invoices.manage' },
      schema: {
        tags, summary: 'Create a draft invoice for a completed job',
        description: 'Lines with quantity, unit price (pence ex VAT) and VAT rate; the server computes VAT per line (half up) and the totals; no VAT when the contractor is not VAT registered. Job not Completed or Invoiced: 409. Needs a CSRF token.',
        body: CreateInvoiceBody, response: responses(DataEnvelope(Invoice), ERR, 201),
      },
      handler: async (request, reply) => {
        const inv = await svc.createInvoice(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(inv, 'Invoice created');
      },
    });

    /** GET /api/invoices/export/bills.csv: streamed CSV in Xero's bills import layout. */
    app.get('/api/invoices/export/bills.csv', {
      config: { permission: 'api.invoices.export' },
      schema: { tags, summary: "Export invoices as Xero bills CSV", description: 'One row per line of every issued, part-paid, paid and overdue invoice and credit note (negative). Streamed.', querystring: ExportQuery, response: responses(fileResponse(['text/csv'], 'Xero bills CSV'), [400, 401, 403, 404, 429]) },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        const q = request.query;
        const contractorId = await exportContractorId(deps, auth, q.contractor_uuid);
        void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="bills.csv"');
        return reply.send(billsCsv(await deps.reads.databaseFor(auth.userId), moneyScope(auth), { ...(q.from_date ? { from: q.from_date } : {}), ...(q.to_date ? { to: q.to_date } : {}), ...(contractorId ? { contractorId } : {}) }));
      },
    });

    /** GET /api/invoices/export/payments.csv: streamed CSV in Xero's bank statement layout. */
    app.get('/api/invoices/export/payments.csv', {
      config: { permission: 'api.invoices.export' },
      schema: { tags, summary: 'Export payments as Xero bank statement CSV', description: 'One row per payment (amount negative: money out). Streamed.', querystring: ExportQuery, response: responses(fileResponse(['text/csv'], 'Xero bank statement CSV')) },
      handler: async (request, reply) => {
        const q = request.query;
        const auth = requireAuth(request);
        void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="payments.csv"');
        // Streamed exports may lag: the read replica when there is one (docs/operations.md "Read replicas").
        return reply.send(paymentsCsv(await deps.reads.databaseFor(auth.userId), moneyScope(auth), { ...(q.from_date ? { from: q.from_date } : {}), ...(q.to_date ? { to: q.to_date } : {}) }));
      },
    });

    /** GET /api/invoices/export/{package}/{kind}: bills or payments for Xero, QuickBooks Online or Sage. */
    app.get('/api/invoices/export/:package/:kind', {
      config: { permission: 'api.invoices.export' },
      schema: {
        tags, summary: 'Export bills or payments for Xero, QuickBooks Online or Sage 50',
        description: "In the package's own import layout (docs/money.md \"Exports\"): bills are one row per line of every issued, part-paid, paid and overdue contractor invoice and credit note (a credit note names the invoice it corrects); payments one row per payment. format=csv (DD/MM/YYYY dates, decimal pounds) or xlsx (date cells, numbers).",
        params: AccountingExportParams, querystring: AccountingExportQuery,
        response: responses(fileResponse(['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], 'the export as CSV or XLSX'), [400, 401, 403, 404, 429]),
      },
      handler: async (request, reply) => {
        const { body, mime, filename } = await accountingExport(deps, requireAuth(request), request.params.package, request.params.kind, request.query);
        void reply.header('content-type', mime).header('content-disposition', `attachment; filename="${filename}"`);
        return reply.send(body);
      },
    });

    /** GET /api/invoices/{uuid}. */
    app.get('/api/invoices/:uuid', {
      config: { permission: 'api.invoices.view' },
      schema: { tags, summary: 'Read an invoice or credit note', params: UuidParams, response: responses(DataEnvelope(Invoice), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.getInvoice(deps, requireAuth(request), request.params.uuid), 'Invoice retrieved'),
    });

    /** PUT /api/invoices/{uuid}: changes a draft. */
    app.put('/api/invoices/:uuid', {
      config: { permission: 'api.invoices.manage' },
      schema: { tags, summary: 'Change a draft invoice', description: 'Lines, contractor_reference, payment_terms_days, notes. Not a draft: 409 (issued invoices are corrected by credit note). Needs a CSRF token.', params: UuidParams, body: UpdateInvoiceBody, response: responses(DataEnvelope(Invoice), ERR) },
      handler: async (request) => ok(await svc.updateInvoice(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Invoice updated'),
    });

    /** POST /api/invoices/{uuid}/issue. */
    app.post('/api/invoices/:uuid/issue', {
      config: { permission: 'api.invoices.issue' },
      schema: { tags, summary: 'Issue a draft invoice', description: "Recomputes VAT at today's rates, takes the agency's next INV number (no gaps), sets issue and due dates, moves a Completed job to Invoiced. Not a draft: 409. Needs a CSRF token.", params: UuidParams, response: responses(DataEnvelope(Invoice), ERR) },
      handler: async (request) => ok(await svc.issueInvoice(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Invoice issued'),
    });

    /** POST /api/invoices/{uuid}/void. */
    app.post('/api/invoices/:uuid/void', {
      config: { permission: 'api.invoices.issue' },
      schema: { tags, summary: 'Void an invoice', description: 'A draft, or an issued or overdue invoice with nothing paid or credited; the number stays used. Otherwise 409. Needs a CSRF token.', params: UuidParams, body: VoidBody, response: responses(DataEnvelope(Invoice), ERR) },
      handler: async (request) => ok(await svc.voidInvoice(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body?.reason ?? null), 'Invoice voided'),
    });

    /** POST /api/invoices/{uuid}/credit-notes: issues a credit note (201). */
    app.post('/api/invoices/:uuid/credit-notes', {
      config: { permission: 'api.invoices.issue' },
      schema: { tags, summary: 'Issue a credit note against an invoice', description: 'Next CN number; reduces the outstanding amount (above it: 409). Needs a CSRF token.', params: UuidParams, body: CreditNoteBody, response: responses(DataEnvelope(Invoice), ERR, 201) },
      handler: async (request, reply) => {
        const cn = await settle.issueCreditNote(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(cn, 'Credit note issued');
      },
    });

    /** GET /api/invoices/{uuid}/payments. */
    app.get('/api/invoices/:uuid/payments', {
      config: { permission: 'api.invoices.view' },
      schema: { tags, summary: "List an invoice's payments", params: UuidParams, querystring: ListQuotesQuery, response: responses(ListEnvelope(Payment), [400, 401, 403, 404, 429]) },
      handler: async (request) => {
        const { rows, total } = await settle.listPayments(deps, requireAuth(request), request.params.uuid, request.query);
        return list(rows, total, 'Payments retrieved');
      },
    });

    /** POST /api/invoices/{uuid}/payments: records a payment (201). */
    app.post('/api/invoices/:uuid/payments', {
      config: { permission: 'api.invoices.payments.manage' },
      schema: { tags, summary: 'Record a payment', description: 'Part payments allowed; more than the outstanding amount: 409; draft, paid or void invoice: 409. Needs a CSRF token.', params: UuidParams, body: PaymentBody, response: responses(DataEnvelope(PaymentResult), ERR, 201) },
      handler: async (request, reply) => {
        const result = await settle.recordPayment(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(result, 'Payment recorded');
      },
    });

    /** GET /api/invoices/{uuid}/pdf: the invoice as PDF. */
    app.get('/api/invoices/:uuid/pdf', {
      config: { permission: 'api.invoices.view' },
      schema: { tags, summary: 'Download the invoice as PDF', params: UuidParams, response: responses(fileResponse(['application/pdf'], 'the invoice as PDF'), [400, 401, 403, 404, 429]) },
      handler: async (request, reply) => {
        const { pdf, filename } = await invoicePdf(deps, requireAuth(request), request.params.uuid);
        void reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${filename}"`);
        return reply.send(pdf);
      },
    });
  };
}
