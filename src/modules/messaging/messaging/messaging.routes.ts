/**
 * Messaging routes (docs/messaging.md): templates (list, read, override, revert, versions,
 * preview), the delivery log and the caller's notification preferences.
 */
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { PaginationQuery } from '../../../http/pagination.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { listDeliveries } from './deliveries.service.ts';
import { Delivery, ListDeliveriesQuery, Preference, SavePreferencesBody } from './messaging.schemas.ts';
import { getPreferences, savePreferences } from './preferences.service.ts';
import { ListTemplatesQuery, MessageTemplate, Rendered, SaveTemplateBody, TemplateParams, TemplateVersion } from './templates.schemas.ts';
import { getTemplate, listTemplates, previewTemplate, revertTemplate, saveTemplate, templateVersions } from './templates.service.ts';

const TEMPLATES = 'api.messaging.templates.manage';
const BASE = '/api/messaging/templates';
const AGENCY = 'Agency accounts only (SysOps: 403). Unknown id: 404 "Template not found".';

/** Registers the messaging routes. */
export function messagingRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET: every template in force for the agency. */
    app.get(BASE, {
      config: { permission: TEMPLATES },
      schema: {
        tags: ['messaging'], summary: 'List the message templates in force',
        description: `Every message kind and channel (email, push, sms): the agency's override or the built-in default, with its variables. Filters event, channel. ${AGENCY}`,
        querystring: ListTemplatesQuery, response: responses(ListEnvelope(MessageTemplate), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listTemplates(deps, requireAuth(request), request.query);
        return list(rows, total, 'Templates retrieved');
      },
    });

    /** GET /{id}: one template in force. */
    app.get(`${BASE}/:id`, {
      config: { permission: TEMPLATES },
      schema: { tags: ['messaging'], summary: 'Read one message template', description: AGENCY, params: TemplateParams, response: responses(DataEnvelope(MessageTemplate), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getTemplate(deps, requireAuth(request), request.params.id), 'Template retrieved'),
    });

    /** PUT /{id}: saves a new version of the agency's override. */
    app.put(`${BASE}/:id`, {
      config: { permission: TEMPLATES },
      schema: {
        tags: ['messaging'], summary: 'Override a message template (new version)',
        description:
          'Parts of the channel (email: subject, mjml, text_body; push: title, body; sms: text_body); parts left out keep their text. ' +
          'Liquid variables outside the documented set: 400 "Unknown template variables: a.b, c". Liquid or MJML errors: 400 "Invalid template: <part>: ...". ' +
          `${AGENCY} Needs a CSRF token.`,
        params: TemplateParams, body: SaveTemplateBody, response: responses(DataEnvelope(MessageTemplate), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await saveTemplate(deps, requireAuth(request), actorOf(request), request.params.id, request.body), 'Template saved'),
    });

    /** DELETE /{id}: back to the built-in default. */
    app.delete(`${BASE}/:id`, {
      config: { permission: TEMPLATES },
      schema: {
        tags: ['messaging'], summary: 'Revert a message template to the built-in default',
        description: `Writes a version marked reverted; the history keeps the earlier ones. Already the default: 409. ${AGENCY} Needs a CSRF token.`,
        params: TemplateParams, response: responses(DataEnvelope(MessageTemplate), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await revertTemplate(deps, requireAuth(request), actorOf(request), request.params.id), 'Template reverted to the default'),
    });

    /** GET /{id}/versions: the version history of the override. */
    app.get(`${BASE}/:id/versions`, {
      config: { permission: TEMPLATES },
      schema: {
        tags: ['messaging'], summary: 'Version history of a message template', description: `Newest first. ${AGENCY}`,
        params: TemplateParams, querystring: PaginationQuery, response: responses(ListEnvelope(TemplateVersion), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await templateVersions(deps, requireAuth(request), request.params.id, request.query);
        return list(rows, total, 'Template versions retrieved');
      },
    });

    /** POST /{id}/preview: renders with sample data; sends nothing. */
    app.post(`${BASE}/:id/preview`, {
      config: { permission: TEMPLATES },
      schema: {
        tags: ['messaging'], summary: 'Preview a message template with sample data',
        description: `Renders the template in force, or the parts in the body laid over it (unsaved), with the kind's sample values. Sends nothing. Same 400s as a save. ${AGENCY} Needs a CSRF token.`,
        params: TemplateParams, body: SaveTemplateBody, response: responses(DataEnvelope(Rendered), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await previewTemplate(deps, requireAuth(request), request.params.id, request.body ?? {}), 'Template rendered'),
    });

    /** GET /api/messaging/deliveries: the delivery log. */
    app.get('/api/messaging/deliveries', {
      config: { permission: 'api.messaging.deliveries.view' },
      schema: {
        tags: ['messaging'], summary: 'The message delivery log of the agency',
        description: 'One row per event, recipient and channel: status queued, sent, failed or suppressed, attempts, last error. Filters status, channel, event, template, recipient (e-mail), from_date, to_date. Agency accounts only.',
        querystring: ListDeliveriesQuery, response: responses(ListEnvelope(Delivery), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listDeliveries(deps, requireAuth(request), request.query);
        return list(rows, total, 'Deliveries retrieved');
      },
    });

    const PREFS = '/api/users/me/notification-preferences';
    /** GET: the caller's preferences. */
    app.get(PREFS, {
      config: { permission: 'api.users.notification-preferences.manage' },
      schema: {
        tags: ['messaging'], summary: 'My notification preferences',
        description: "Every message kind the caller's role can receive, per channel (email, push): enabled true unless switched off.",
        response: responses(Type.Object({ success: Type.Literal(true), data: Type.Array(Preference), message: Type.String() }), [401, 403, 429]),
      },
      handler: async (request) => ok(await getPreferences(deps, requireAuth(request)), 'Notification preferences retrieved'),
    });

    /** PUT: switches kinds and channels on or off. */
    app.put(PREFS, {
      config: { permission: 'api.users.notification-preferences.manage' },
      schema: {
        tags: ['messaging'], summary: 'Change my notification preferences',
        description: 'preferences: 1 to 50 of {event, channel (email|push), enabled}; others unchanged. A kind the caller cannot receive: 400 naming it. Needs a CSRF token.',
        body: SavePreferencesBody,
        response: responses(Type.Object({ success: Type.Literal(true), data: Type.Array(Preference), message: Type.String() }), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await savePreferences(deps, requireAuth(request), actorOf(request), request.body), 'Notification preferences saved'),
    });
  };
}
