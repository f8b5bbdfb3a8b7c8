/**
 * Recharges and landlord statements (docs/money.md "Recharges", "Statements"): GET /api/recharges,
 * GET/PUT /api/recharges/settings, GET /api/landlords/{uuid}/statement (JSON), .../statement.pdf,
 * .../statement.csv.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { LedgerEntry, LedgerEntryBody, ListRechargesQuery, Recharge, RechargeExportParams, RechargeExportQuery, RechargeSettings, RechargeSettingsBody, Statement, StatementQuery } from './recharges.schemas.ts';
import { rechargeExport } from './recharge-export.service.ts';
import * as svc from './recharges.service.ts';
import { statementCsv, statementPdf } from './statement-render.ts';

const tags = ['recharges'];
const READ_ERR = [400, 401, 403, 404, 429];

/** Registers the recharge and statement routes. */
export function rechargesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/recharges: the agency's recharges, newest first. */
    app.get('/api/recharges', {
      config: { permission: 'api.recharges.view' },
      schema: {
        tags, summary: 'List landlord recharges',
        description: "One per landlord share of an issued contractor invoice (kind recharge) or credit note (kind credit, negative), with the agency's fee and VAT on it. Filters landlord_uuid, job_uuid, from_date/to_date (recharge date).",
        querystring: ListRechargesQuery, response: responses(ListEnvelope(Recharge), READ_ERR),
      },
      handler: async (request) => {
        const { rows, total } = await svc.listRecharges(deps, requireAuth(request), request.query);
        return list(rows, total, 'Recharges retrieved');
      },
    });

    /** GET /api/recharges/settings: the agency's fee on recharges. */
    app.get('/api/recharges/settings', {
      config: { permission: 'api.recharges.view' },
      schema: { tags, summary: "The agency's fee on landlord recharges", response: responses(DataEnvelope(RechargeSettings), [401, 403, 429]) },
      handler: async (request) => ok(await svc.getSettings(deps, requireAuth(request)), 'Recharge settings retrieved'),
    });

    /** PUT /api/recharges/settings: sets the fee. */
    app.put('/api/recharges/settings', {
      config: { permission: 'api.recharges.settings.manage' },
      schema: {
        tags, summary: "Set the agency's fee on landlord recharges",
        description: 'fee_mode none, percent (fee_percent_bp of the net cost) or fixed (fee_fixed_pence per contractor invoice, split by share); VAT at the standard rate is added when the agency has a VAT number. Applies to recharges made from then on. Needs a CSRF token.',
        body: RechargeSettingsBody, response: responses(DataEnvelope(RechargeSettings), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await svc.updateSettings(deps, requireAuth(request), actorOf(request), request.body), 'Recharge settings saved'),
    });

    /** GET /api/recharges/export/{package}: recharges as sales invoices (and credits as credit notes) for Xero, QuickBooks Online or Sage 50. */
    app.get('/api/recharges/export/:package', {
      config: { permission: 'api.invoices.export' },
      schema: {
        tags, summary: 'Export recharges as sales invoices for Xero, QuickBooks Online or Sage 50',
        description: "In the package's own import layout (docs/money.md \"Exports\"): per recharge a line for the cost passed on and one for the fee with its VAT; credits as credit notes naming the recharge they correct (QuickBooks imports them apart: documents=credit_notes, positive amounts; its default is documents=invoices, and documents=all is 400 there). format=csv (DD/MM/YYYY dates, decimal pounds) or xlsx (date cells, numbers).",
        params: RechargeExportParams, querystring: RechargeExportQuery,
        response: responses(fileResponse(['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], 'the export as CSV or XLSX'), [400, 401, 403, 429]),
      },
      handler: async (request, reply) => {
        const { body, mime, filename } = await rechargeExport(deps, requireAuth(request), request.params.package, request.query);
        void reply.header('content-type', mime).header('content-disposition', `attachment; filename="${filename}"`);
        return reply.send(body);
      },
    });

    /** GET /api/landlords/{uuid}/statement: the statement as JSON. */
    app.get('/api/landlords/:uuid/statement', {
      config: { permission: 'api.landlords.statements.view' },
      schema: {
        tags, summary: "A landlord's statement for a period",
        description: 'Active recharges dated from_date..to_date (at most 366 days), per property with totals (jobs, cost net and VAT, fee net and VAT, total); the totals are the sums of the lines.',
        params: UuidParams, querystring: StatementQuery, response: responses(DataEnvelope(Statement), READ_ERR),
      },
      handler: async (request) => ok(await svc.statement(deps, requireAuth(request), request.params.uuid, request.query), 'Statement retrieved'),
    });

    /** GET /api/landlords/{uuid}/ledger-entries: the payments to and from the landlord recorded by the agency. */
    app.get('/api/landlords/:uuid/ledger-entries', {
      config: { permission: 'api.landlords.statements.view' },
      schema: { tags, summary: "A landlord's recorded payments to and from the agency", params: UuidParams, response: responses(ListEnvelope(LedgerEntry), READ_ERR) },
      handler: async (request) => {
        const rows = await svc.listLedgerEntries(deps, requireAuth(request), request.params.uuid);
        return list(rows, rows.length, 'Ledger entries retrieved');
      },
    });

    /** POST /api/landlords/{uuid}/ledger-entries: records a payment to or from the landlord (201). */
    app.post('/api/landlords/:uuid/ledger-entries', {
      config: { permission: 'api.landlords.payments.manage' },
      schema: {
        tags, summary: 'Record a payment to or from a landlord',
        description: 'payment_from_landlord or payment_to_landlord, date (not in the future), amount in pence, reference: an entry of the statement (docs/money.md "Statements"). Rent collection is not modelled: the agency enters the money that moved. Needs a CSRF token.',
        params: UuidParams, body: LedgerEntryBody, response: responses(DataEnvelope(LedgerEntry), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const entry = await svc.addLedgerEntry(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(entry, 'Ledger entry recorded');
      },
    });

    /** GET /api/landlords/{uuid}/statement.pdf. */
    app.get('/api/landlords/:uuid/statement.pdf', {
      config: { permission: 'api.landlords.statements.view' },
      schema: { tags, summary: "A landlord's statement as PDF", params: UuidParams, querystring: StatementQuery, response: responses(fileResponse(['application/pdf'], 'the statement as PDF'), READ_ERR) },
      handler: async (request, reply) => {
        const s = await svc.statement(deps, requireAuth(request), request.params.uuid, request.query);
        const pdf = await statementPdf(s, new Date(`${s.to_date}T00:00:00Z`));
        void reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="statement-${s.from_date}-${s.to_date}.pdf"`);
        return reply.send(pdf);
      },
    });

    /** GET /api/landlords/{uuid}/statement.csv. */
    app.get('/api/landlords/:uuid/statement.csv', {
      config: { permission: 'api.landlords.statements.view' },
      schema: { tags, summary: "A landlord's statement as CSV", params: UuidParams, querystring: StatementQuery, response: responses(fileResponse(['text/csv'], 'the statement as CSV'), READ_ERR) },
      handler: async (request, reply) => {
        const s = await svc.statement(deps, requireAuth(request), request.params.uuid, request.query);
        void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="statement-${s.from_date}-${s.to_date}.csv"`);
        return reply.send(statementCsv(s));
      },
    });
  };
}
