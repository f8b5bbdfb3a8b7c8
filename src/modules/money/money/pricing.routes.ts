/**
 * Service pricing routes (docs/money.md "Price list"): /api/pricing/items (+ contractor rates),
 * /api/pricing/vat-rates, /api/pricing/settings, /api/pricing/contractors/{uuid}/vat and
 * /api/pricing/estimate?job_uuid=.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  ContractorRateBody, ContractorRateParams, ContractorVat, ContractorVatBody, CreatePriceItemBody, Estimate, EstimateQuery, ListPriceItemsQuery,
  MoneySettings, MoneySettingsBody, PriceItem, SelfBillingAgreement, SelfBillingAgreementBody, UpdatePriceItemBody, UuidParams, VatRate,
} from './money.schemas.ts';
import * as svc from './pricing.service.ts';

const VIEW = 'api.pricing.view';
const MANAGE = 'api.pricing.manage';
const tags = ['pricing'];

/** Registers the pricing routes. */
export function pricingRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/pricing/items: the agency's price list, paginated, by code. */
    app.get('/api/pricing/items', {
      config: { permission: VIEW },
      schema: { tags, summary: 'List the price list', description: 'Filters trade_id, job_type_id, active. Unit prices are pence ex VAT.', querystring: ListPriceItemsQuery, response: responses(ListEnvelope(PriceItem)) },
      handler: async (request) => {
        const { rows, total } = await svc.listPriceItems(deps, requireAuth(request), request.query);
        return list(rows, total, 'Price items retrieved');
      },
    });

    /** POST /api/pricing/items: adds an item (201). */
    app.post('/api/pricing/items', {
      config: { permission: MANAGE },
      schema: { tags, summary: 'Add a price-list item', description: 'code unique in the agency (409); unit each, hour, day or m2; vat_rate default standard. Needs a CSRF token.', body: CreatePriceItemBody, response: responses(DataEnvelope(PriceItem), [400, 401, 403, 409, 429], 201) },
      handler: async (request, reply) => {
        const item = await svc.createPriceItem(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(item, 'Price item created');
      },
    });

    /** GET /api/pricing/items/{uuid}. */
    app.get('/api/pricing/items/:uuid', {
      config: { permission: VIEW },
      schema: { tags, summary: 'Read a price-list item', params: UuidParams, response: responses(DataEnvelope(PriceItem), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.getPriceItem(deps, requireAuth(request), request.params.uuid), 'Price item retrieved'),
    });

    /** PUT /api/pricing/items/{uuid}: changes fields (active false retires the item). */
    app.put('/api/pricing/items/:uuid', {
      config: { permission: MANAGE },
      schema: { tags, summary: 'Change a price-list item', description: 'Fields left out keep their values; code cannot change. Needs a CSRF token.', params: UuidParams, body: UpdatePriceItemBody, response: responses(DataEnvelope(PriceItem), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.updatePriceItem(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Price item updated'),
    });

    /** PUT /api/pricing/items/{uuid}/contractor-rates/{contractor_uuid}: sets the contractor's own price. */
    app.put('/api/pricing/items/:uuid/contractor-rates/:contractor_uuid', {
      config: { permission: MANAGE },
      schema: { tags, summary: "Set a contractor's rate for an item", description: 'Overrides the list price in estimates for that contractor. Needs a CSRF token.', params: ContractorRateParams, body: ContractorRateBody, response: responses(DataEnvelope(PriceItem), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.setContractorRate(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.contractor_uuid, request.body.unit_price_pence), 'Contractor rate set'),
    });

    /** DELETE /api/pricing/items/{uuid}/contractor-rates/{contractor_uuid}: removes the contractor's price. */
    app.delete('/api/pricing/items/:uuid/contractor-rates/:contractor_uuid', {
      config: { permission: MANAGE },
      schema: { tags, summary: "Remove a contractor's rate for an item", description: 'Needs a CSRF token.', params: ContractorRateParams, response: responses(DataEnvelope(PriceItem), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.setContractorRate(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.contractor_uuid, null), 'Contractor rate removed'),
    });

    /** GET /api/pricing/vat-rates: the VAT rate table with effective dates. */
    app.get('/api/pricing/vat-rates', {
      config: { permission: VIEW },
      schema: { tags, summary: 'List the VAT rates', description: 'Every rate row (standard, reduced, zero, exempt) with effective_from and effective_to (exclusive).', response: responses(ListEnvelope(VatRate)) },
      handler: async () => {
        const rows = await svc.vatRates(deps);
        return list(rows, rows.length, 'VAT rates retrieved');
      },
    });

    /** GET /api/pricing/settings: the agency's VAT number, payment terms and quote approval limits. */
    app.get('/api/pricing/settings', {
      config: { permission: VIEW },
      schema: { tags, summary: "Read the agency's money settings", response: responses(DataEnvelope(MoneySettings)) },
      handler: async (request) => ok(await svc.getSettings(deps, requireAuth(request)), 'Money settings retrieved'),
    });

    /** PUT /api/pricing/settings. */
    app.put('/api/pricing/settings', {
      config: { permission: MANAGE },
      schema: { tags, summary: "Change the agency's money settings", description: 'vat_number, payment_terms_days (0 to 120), approval_limits (replaces all; pence per job type). Needs a CSRF token.', body: MoneySettingsBody, response: responses(DataEnvelope(MoneySettings)) },
      handler: async (request) => ok(await svc.saveSettings(deps, requireAuth(request), actorOf(request), request.body), 'Money settings updated'),
    });

    /** GET /api/pricing/contractors/{uuid}/vat: a contractor's VAT registration. */
    app.get('/api/pricing/contractors/:uuid/vat', {
      config: { permission: VIEW },
      schema: { tags, summary: "Read a contractor's VAT registration", params: UuidParams, response: responses(DataEnvelope(ContractorVat), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.contractorVat(deps, requireAuth(request), actorOf(request), request.params.uuid), 'VAT registration retrieved'),
    });

    /** PUT /api/pricing/contractors/{uuid}/vat: sets it (vat_number required when registered). */
    app.put('/api/pricing/contractors/:uuid/vat', {
      config: { permission: MANAGE },
      schema: { tags, summary: "Set a contractor's VAT registration", description: 'A contractor not registered charges no VAT on its quotes and invoices. Needs a CSRF token.', params: UuidParams, body: ContractorVatBody, response: responses(DataEnvelope(ContractorVat), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.contractorVat(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'VAT registration updated'),
    });

    /** GET /api/pricing/contractors/{uuid}/self-billing: the self-billing agreement with a contractor. */
    app.get('/api/pricing/contractors/:uuid/self-billing', {
      config: { permission: VIEW },
      schema: { tags, summary: "Read the agency's self-billing agreement with a contractor", description: 'HMRC VAT Notice 700/62 (docs/money.md "Self-billing"). None recorded: 404.', params: UuidParams, response: responses(DataEnvelope(SelfBillingAgreement), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.selfBilling(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Self-billing agreement retrieved'),
    });

    /** PUT /api/pricing/contractors/{uuid}/self-billing: records or replaces it. */
    app.put('/api/pricing/contractors/:uuid/self-billing', {
      config: { permission: MANAGE },
      schema: {
        tags, summary: 'Record the self-billing agreement with a contractor',
        description: "Start, expiry and review dates and the date the contractor's VAT registration was checked. The agency self-bills a contractor (issues an invoice without the contractor's own number) only while the agreement is in force, before its review date and with the VAT number checked; otherwise the issue is 400. Needs a CSRF token.",
        params: UuidParams, body: SelfBillingAgreementBody, response: responses(DataEnvelope(SelfBillingAgreement), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await svc.selfBilling(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Self-billing agreement recorded'),
    });

    /** GET /api/pricing/estimate?job_uuid=: suggested lines and totals for a job. */
    app.get('/api/pricing/estimate', {
      config: { permission: VIEW },
      schema: { tags, summary: 'Estimate a job from the price list', description: "One of each active item matching the job's trade and type (most specific first), at the contractor's rates where set.", querystring: EstimateQuery, response: responses(DataEnvelope(Estimate), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.estimate(deps, requireAuth(request), request.query.job_uuid, request.query.contractor_uuid), 'Estimate computed'),
    });
  };
}
