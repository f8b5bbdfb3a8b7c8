/** CRUD of the caller's report subscriptions (docs/insight.md "Scheduled reports"). */
import type { AppDeps } from '../../../app-deps.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  CreateSubscriptionBody, Subscription, SubscriptionListQuery, SubscriptionParams, UpdateSubscriptionBody,
} from './subscriptions.schemas.ts';
import { createSubscription, deleteSubscription, getSubscription, listSubscriptions, updateSubscription } from './subscriptions.service.ts';

const PERMISSION = 'api.reports.subscriptions.manage';
const TAGS = ['reports'];

/** Registers the subscription routes. */
export function reportSubscriptionsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/reports/subscriptions: the caller's subscriptions. */
    app.get('/api/reports/subscriptions', {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'List my report e-mails', querystring: SubscriptionListQuery, response: responses(ListEnvelope(Subscription), [400, 401, 403, 429]) },
      handler: async (request) => {
        const { rows, total } = await listSubscriptions(deps, requireAuth(request), request.query);
        return list(rows, total, 'Report subscriptions retrieved');
      },
    });

    /** POST /api/reports/subscriptions: subscribe to a report by e-mail (weekly or monthly). */
    app.post('/api/reports/subscriptions', {
      config: { permission: PERMISSION },
      schema: {
        tags: TAGS,
        summary: 'Subscribe to a report by e-mail',
        description: 'The report runs as the caller (same visibility as a download) and is e-mailed to the caller as an attachment. Filters are checked against the report (400 naming filters). Needs a CSRF token.',
        body: CreateSubscriptionBody,
        response: responses(DataEnvelope(Subscription), [400, 401, 403, 429], 201),
      },
      handler: async (request, reply) => {
        const sub = await createSubscription(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(sub, 'Report subscription created');
      },
    });

    /** GET /api/reports/subscriptions/{uuid}: one of the caller's subscriptions. */
    app.get('/api/reports/subscriptions/:uuid', {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Read a report e-mail', params: SubscriptionParams, response: responses(DataEnvelope(Subscription), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getSubscription(deps, requireAuth(request), request.params.uuid), 'Report subscription retrieved'),
    });

    /** PUT /api/reports/subscriptions/{uuid}: change format, frequency or filters. */
    app.put('/api/reports/subscriptions/:uuid', {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Change a report e-mail', params: SubscriptionParams, body: UpdateSubscriptionBody, response: responses(DataEnvelope(Subscription), [400, 401, 403, 404, 429]) },
      handler: async (request) =>
        ok(await updateSubscription(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Report subscription updated'),
    });

    /** DELETE /api/reports/subscriptions/{uuid}: stop a report e-mail. */
    app.delete('/api/reports/subscriptions/:uuid', {
      config: { permission: PERMISSION },
      schema: { tags: TAGS, summary: 'Stop a report e-mail', params: SubscriptionParams, body: CsrfOnlyBody, response: responses(MessageEnvelope, [400, 401, 403, 404, 429]) },
      handler: async (request) => {
        await deleteSubscription(deps, requireAuth(request), actorOf(request), request.params.uuid);
        return done('Report subscription deleted');
      },
    });
  };
}
