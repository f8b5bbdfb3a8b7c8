/** Trades (docs/contractors.md): GET/POST /api/contractors/trades, PUT /api/contractors/trades/{id}. */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { CreateTradeBody, Trade, TradeParams, TradesQuery, UpdateTradeBody } from './contractors.schemas.ts';
import { createTrade, listTrades, updateTrade } from './trades.service.ts';

/** Registers the trades routes. */
export function tradesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/contractors/trades: the platform's trades and the agency's own. */
    app.get('/api/contractors/trades', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: 'List trades',
        description: 'Platform trades and the agency\'s own, by name, each with the certificate types it requires. Retired ones only with include_retired=true.',
        querystring: TradesQuery,
        response: responses(ListEnvelope(Trade), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await listTrades(deps, requireAuth(request), request.query.include_retired === true);
        return list(rows, rows.length, 'Trades retrieved');
      },
    });

    /** POST /api/contractors/trades: creates a trade (the agency's; SysOps: the platform's). */
    app.post('/api/contractors/trades', {
      config: { permission: 'api.contractors.trades.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Create a trade',
        description: 'An agency administrator creates a trade of the agency; SysOps a platform trade. code defaults to the name in snake case. Needs a CSRF token.',
        body: CreateTradeBody,
        response: responses(DataEnvelope(Trade), [400, 401, 403, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const trade = await createTrade(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(trade, 'Trade created');
      },
    });

    /** PUT /api/contractors/trades/{id}: renames, retires or restores a trade. */
    app.put('/api/contractors/trades/:id', {
      config: { permission: 'api.contractors.trades.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Rename, retire or restore a trade',
        description: 'Platform trades only by SysOps (403 otherwise); an agency\'s trade by its administrators. Needs a CSRF token.',
        params: TradeParams,
        body: UpdateTradeBody,
        response: responses(DataEnvelope(Trade), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await updateTrade(deps, requireAuth(request), actorOf(request), request.params.id, request.body), 'Trade updated'),
    });
  };
}
