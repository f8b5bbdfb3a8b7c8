/**
 * Contractors (docs/contractors.md): GET/POST /api/contractors, GET/PUT /api/contractors/{uuid},
 * PUT .../trades, PUT .../coverage, GET /api/contractors/match; registers the trades and
 * certifications routes too.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { certificationsRoutes } from './certifications.routes.ts';
import {
  Contractor, ContractorDetail, CreateContractorBody, ListContractorsQuery, MatchEnvelope, MatchQuery, SetCoverageBody, SetTradesBody, UpdateContractorBody,
} from './contractors.schemas.ts';
import { createContractor, getContractor, listContractors, setCoverage, setTrades, updateContractor } from './contractors.service.ts';
import { matchContractors } from './match.service.ts';
import { tradesRoutes } from './trades.routes.ts';

/** Registers the contractors routes. */
export function contractorsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await app.register(tradesRoutes(deps));
    await app.register(certificationsRoutes(deps));

    /** GET /api/contractors: search by name, trade code, district, active; paginated. */
    app.get('/api/contractors', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: "List and search the agency's contractors",
        description: 'q searches company and contact name; trade is a trade code; district a postcode district (LS6).',
        querystring: ListContractorsQuery,
        response: responses(ListEnvelope(Contractor), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listContractors(deps, requireAuth(request), request.query);
        return list(rows, total, 'Contractors retrieved');
      },
    });

    /** POST /api/contractors: creates a contractor with optional trades, coverage and contacts. */
    app.post('/api/contractors', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Create a contractor',
        description: 'company_name is required; trade_ids must be visible, live trades; coverage holds postcode districts (LS6, YO1). Needs a CSRF token.',
        body: CreateContractorBody,
        response: responses(DataEnvelope(ContractorDetail), [400, 401, 403, 429], 201),
      },
      handler: async (request, reply) => {
        const c = await createContractor(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(c, 'Contractor created');
      },
    });

    /** GET /api/contractors/match?job_uuid=: contractors ranked for a job, with score and reasons. */
    app.get('/api/contractors/match', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: 'Rank contractors for a job',
        description: 'Score: trade offered 50, covers the job\'s postcode district 30, required certificates valid 20. A contractor without a valid required certificate is not eligible (score 0). Eligible first, then by score.',
        querystring: MatchQuery,
        response: responses(MatchEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const r = await matchContractors(deps, requireAuth(request), request.query);
        return { success: true as const, data: r.rows, count: r.total, message: 'Contractors ranked', job: r.job };
      },
    });

    /** GET /api/contractors/{uuid}: one contractor with certificates. */
    app.get('/api/contractors/:uuid', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: 'Read a contractor',
        params: UuidParams,
        response: responses(DataEnvelope(ContractorDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getContractor(deps, requireAuth(request), request.params.uuid), 'Contractor retrieved'),
    });

    /** PUT /api/contractors/{uuid}: changes the fields sent. */
    app.put('/api/contractors/:uuid', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Update a contractor',
        description: 'Only the fields sent change; contacts, when sent, replace the list. Needs a CSRF token.',
        params: UuidParams,
        body: UpdateContractorBody,
        response: responses(DataEnvelope(ContractorDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) =>
        ok(await updateContractor(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Contractor updated'),
    });

    /** PUT /api/contractors/{uuid}/trades: replaces the trades. */
    app.put('/api/contractors/:uuid/trades', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: "Replace a contractor's trades",
        description: 'trade_ids: IDs from GET /api/contractors/trades (not retired). Needs a CSRF token.',
        params: UuidParams,
        body: SetTradesBody,
        response: responses(DataEnvelope(ContractorDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) =>
        ok(await setTrades(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.trade_ids), 'Trades updated'),
    });

    /** PUT /api/contractors/{uuid}/coverage: replaces the covered postcode districts. */
    app.put('/api/contractors/:uuid/coverage', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: "Replace a contractor's coverage districts",
        description: 'districts: UK postcode districts (outward codes) such as LS6 or YO1, any case; stored upper case. Needs a CSRF token.',
        params: UuidParams,
        body: SetCoverageBody,
        response: responses(DataEnvelope(ContractorDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) =>
        ok(await setCoverage(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.districts), 'Coverage updated'),
    });
  };
}
