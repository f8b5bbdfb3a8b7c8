/**
 * Outbound webhooks of the caller's agency (docs/webhooks.md): endpoints CRUD, secret rotation,
 * test ping, delivery log and retry. Agency administrators only; writes need a CSRF token.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  CreateEndpointBody, Delivery, Endpoint, EndpointWithSecret, ListDeliveriesQuery, ListEndpointsQuery, RotateBody, UpdateEndpointBody, UuidParams,
} from './webhooks.schemas.ts';
import * as service from './webhooks.service.ts';

const BASE = '/api/webhooks';
const PERMISSION = 'api.webhooks.manage';
const TAGS = ['webhooks'];
const SCOPE = "Only the caller's agency; another agency's record answers 404 like a missing one.";

/** Registers the webhook routes. */
export function webhooksRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET: one page of the agency's endpoints (no secrets). */
    app.get(`${BASE}/endpoints`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'List webhook endpoints', description: SCOPE, querystring: ListEndpointsQuery, response: responses(ListEnvelope(Endpoint), [400, 401, 403, 429]) },
      handler: async (request) => {
        const { rows, total } = await service.listEndpoints(deps, requireAuth(request), request.query);
        return list(rows, total, 'Webhook endpoints retrieved');
      },
    });

    /** POST: creates an endpoint; the answer shows its secret once. */
    app.post(`${BASE}/endpoints`, {
      config: { permission: PERMISSION },
      schema: {
        tags: TAGS,
        summary: 'Create a webhook endpoint',
        description: 'url (https://; http:// to loopback only in development; never a private-network address), events (catalogue names or "*"), description. 201 with the signing secret, shown only here.',
        body: CreateEndpointBody,
        response: { ...responses(DataEnvelope(EndpointWithSecret), [400, 401, 403, 429]), 201: DataEnvelope(EndpointWithSecret) },
      },
      handler: async (request, reply) => {
        const created = await service.createEndpoint(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(created, 'Webhook endpoint created');
      },
    });

    /** GET one endpoint. */
    app.get(`${BASE}/endpoints/:uuid`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Get a webhook endpoint', description: SCOPE, params: UuidParams, response: responses(DataEnvelope(Endpoint), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await service.getEndpoint(deps, requireAuth(request), request.params.uuid), 'Webhook endpoint retrieved'),
    });

    /** PUT: changes url, events, description, enabled. */
    app.put(`${BASE}/endpoints/:uuid`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Update a webhook endpoint', description: `Fields left out keep their values; enabled=true re-enables a disabled endpoint. ${SCOPE}`, params: UuidParams, body: UpdateEndpointBody, response: responses(DataEnvelope(Endpoint), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await service.updateEndpoint(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Webhook endpoint updated'),
    });

    /** DELETE: removes the endpoint and its delivery log. */
    app.delete(`${BASE}/endpoints/:uuid`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Delete a webhook endpoint', description: SCOPE, params: UuidParams, body: CsrfOnlyBody, response: responses(MessageEnvelope, [400, 401, 403, 404, 429]) },
      handler: async (request) => {
        await service.deleteEndpoint(deps, requireAuth(request), actorOf(request), request.params.uuid);
        return done('Webhook endpoint deleted');
      },
    });

    /** POST: new secret, the old one still signs during the overlap. */
    app.post(`${BASE}/endpoints/:uuid/rotate-secret`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Rotate the signing secret', description: `overlap_seconds (0 to 604800, default 86400): the old secret adds a second signature until then. The new secret is shown only here. ${SCOPE}`, params: UuidParams, body: RotateBody, response: responses(DataEnvelope(EndpointWithSecret), [400, 401, 403, 404, 429]) },
      handler: async (request) =>
        ok(await service.rotateSecret(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.overlap_seconds ?? 86_400), 'Webhook secret rotated'),
    });

    /** POST: queues a webhook.test ping (sent by the delivery task within a minute). */
    app.post(`${BASE}/endpoints/:uuid/test`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Send a test ping', description: `Queues a webhook.test message; 202 with its delivery. 409 when the endpoint is disabled. ${SCOPE}`, params: UuidParams, body: CsrfOnlyBody, response: { ...responses(DataEnvelope(Delivery), [400, 401, 403, 404, 409, 429]), 202: DataEnvelope(Delivery) } },
      handler: async (request, reply) => {
        const delivery = await service.pingEndpoint(deps, requireAuth(request), actorOf(request), request.params.uuid);
        void reply.status(202);
        return ok(delivery, 'Test ping queued');
      },
    });

    /** GET: the delivery log, newest first. */
    app.get(`${BASE}/deliveries`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Webhook delivery log', description: `Filters: endpoint_uuid, status (pending, succeeded, failed). ${SCOPE}`, querystring: ListDeliveriesQuery, response: responses(ListEnvelope(Delivery), [400, 401, 403, 429]) },
      handler: async (request) => {
        const { rows, total } = await service.listDeliveries(deps, requireAuth(request), request.query);
        return list(rows, total, 'Webhook deliveries retrieved');
      },
    });

    /** POST: makes a delivery due again now. */
    app.post(`${BASE}/deliveries/:uuid/retry`, {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Retry a delivery', description: `Pending again, due now; the 3-day retry window restarts. 409 when the endpoint is disabled. ${SCOPE}`, params: UuidParams, body: CsrfOnlyBody, response: responses(DataEnvelope(Delivery), [400, 401, 403, 404, 409, 429]) },
      handler: async (request) => ok(await service.retryDelivery(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Webhook delivery queued'),
    });
  };
}
