/** Quote routes (docs/money.md "Quotes"): /api/jobs/{uuid}/quotes, .../approve, .../reject. */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { DecideQuoteBody, ListQuotesQuery, Quote, QuoteParams, SubmitQuoteBody, UuidParams } from './money.schemas.ts';
import * as svc from './quotes.service.ts';

const tags = ['quotes'];

/** Registers the quote routes. */
export function quotesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/{uuid}/quotes: the job's quotes (contractors: their own). */
    app.get('/api/jobs/:uuid/quotes', {
      config: { permission: 'api.quotes.manage' },
      schema: { tags, summary: "List a job's quotes", params: UuidParams, querystring: ListQuotesQuery, response: responses(ListEnvelope(Quote), [400, 401, 403, 404, 429]) },
      handler: async (request) => {
        const { rows, total } = await svc.listQuotes(deps, requireAuth(request), request.params.uuid, request.query);
        return list(rows, total, 'Quotes retrieved');
      },
    });

    /** POST /api/jobs/{uuid}/quotes: submits a quote (201). */
    app.post('/api/jobs/:uuid/quotes', {
      config: { permission: 'api.quotes.manage' },
      schema: {
        tags, summary: 'Submit a quote for a job',
        description: 'Lines with quantity, unit price (pence ex VAT) and VAT rate; the server computes VAT per line (half up) and totals. Staff name the contractor (default: the job\'s). Jobs past In progress: 409. Needs a CSRF token.',
        params: UuidParams, body: SubmitQuoteBody, response: responses(DataEnvelope(Quote), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const quote = await svc.submitQuote(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(quote, 'Quote submitted');
      },
    });

    /** GET /api/jobs/{uuid}/quotes/{quote_uuid}. */
    app.get('/api/jobs/:uuid/quotes/:quote_uuid', {
      config: { permission: 'api.quotes.manage' },
      schema: { tags, summary: 'Read a quote', params: QuoteParams, response: responses(DataEnvelope(Quote), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await svc.getQuote(deps, requireAuth(request), request.params.uuid, request.params.quote_uuid), 'Quote retrieved'),
    });

    /** POST .../approve: approves; sets the job's agreed cost and moves it on. */
    app.post('/api/jobs/:uuid/quotes/:quote_uuid/approve', {
      config: { permission: 'api.quotes.approve' },
      schema: {
        tags, summary: 'Approve a quote',
        description: "Sets the job's agreed_cost_pence to the quote's gross, rejects the job's other open quotes, and moves a Reported or Awaiting approval job to Approved. Above the job type's approval limit needs api.quotes.approve.above-limit (403). Decided already: 409. Needs a CSRF token.",
        params: QuoteParams, body: DecideQuoteBody, response: responses(DataEnvelope(Quote), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await svc.decideQuote(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.quote_uuid, 'approve', request.body?.reason ?? null), 'Quote approved'),
    });

    /** POST .../reject. */
    app.post('/api/jobs/:uuid/quotes/:quote_uuid/reject', {
      config: { permission: 'api.quotes.approve' },
      schema: { tags, summary: 'Reject a quote', description: 'Optional reason. Decided already: 409. Needs a CSRF token.', params: QuoteParams, body: DecideQuoteBody, response: responses(DataEnvelope(Quote), [400, 401, 403, 404, 409, 429]) },
      handler: async (request) => ok(await svc.decideQuote(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.quote_uuid, 'reject', request.body?.reason ?? null), 'Quote rejected'),
    });
  };
}
