/**
 * Landlords (docs/landlords.md): GET/POST /api/landlords, GET/PUT /api/landlords/{uuid},
 * POST /api/landlords/{uuid}/properties, DELETE /api/landlords/{uuid}/properties/{address_uuid},
 * GET /api/landlords/properties/{address_uuid}, PUT .../approval-limit, GET/PUT /api/landlords/settings.
 */
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import {
  AddressParams, CreateLandlordBody, Landlord, LandlordDetail, LandlordSettings, LinkPropertyBody, ListLandlordsQuery, PropertyLimitBody,
  PropertyOwnership, PropertyParams, UpdateLandlordBody, UpdateLandlordSettingsBody,
} from './landlords.schemas.ts';
import {
  createLandlord, getLandlord, getSettings, linkProperty, listLandlords, propertyOwnership, setPropertyLimit, unlinkProperty, updateLandlord,
  updateSettings,
} from './landlords.service.ts';

const TAGS = ['landlords'];

/** Registers the landlord routes. */
export function landlordsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/landlords: search by name/e-mail (q) or property (address_uuid); by name; never bank details. */
    app.get('/api/landlords', {
      config: { permission: 'api.landlords.view' },
      schema: {
        tags: TAGS,
        summary: "List and search the agency's landlords",
        description: 'q searches name and e-mail; address_uuid keeps the owners of that property. Bank details never appear in a list (has_bank_details says whether any are on file).',
        querystring: ListLandlordsQuery,
        response: responses(ListEnvelope(Landlord), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listLandlords(deps, requireAuth(request), request.query);
        return list(rows, total, 'Landlords retrieved');
      },
    });

    /** POST /api/landlords: creates a landlord. */
    app.post('/api/landlords', {
      config: { permission: 'api.landlords.manage' },
      schema: {
        tags: TAGS,
        summary: 'Create a landlord',
        description: 'kind person (default) or company; name required; a VAT-registered landlord needs vat_number. Sort code 12-34-56 or 123456, account number 8 digits. Needs a CSRF token.',
        body: CreateLandlordBody,
        response: responses(DataEnvelope(LandlordDetail), [400, 401, 403, 429], 201),
      },
      handler: async (request, reply) => {
        const landlord = await createLandlord(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(landlord, 'Landlord created');
      },
    });

    /** GET /api/landlords/settings: the agency's default spend limit and approval timings. */
    app.get('/api/landlords/settings', {
      config: { permission: 'api.landlords.view' },
      schema: {
        tags: TAGS,
        summary: "The agency's approval settings",
        response: responses(DataEnvelope(LandlordSettings), [401, 403, 429]),
      },
      handler: async (request) => ok(await getSettings(deps, requireAuth(request)), 'Settings retrieved'),
    });

    /** PUT /api/landlords/settings: changes the fields sent. */
    app.put('/api/landlords/settings', {
      config: { permission: 'api.landlords.settings.manage' },
      schema: {
        tags: TAGS,
        summary: "Change the agency's approval settings",
        description: 'default_approval_limit_pence (null: none), reminder_after_hours (before expires_after_hours). Needs a CSRF token.',
        body: UpdateLandlordSettingsBody,
        response: responses(DataEnvelope(LandlordSettings), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await updateSettings(deps, requireAuth(request), actorOf(request), request.body), 'Settings updated'),
    });

    /** GET /api/landlords/properties/{address_uuid}: owners, shares and the spend limit that applies. */
    app.get('/api/landlords/properties/:address_uuid', {
      config: { permission: 'api.landlords.view' },
      schema: {
        tags: TAGS,
        summary: 'Owners and spend limit of a property',
        params: AddressParams,
        response: responses(DataEnvelope(PropertyOwnership), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await propertyOwnership(deps, requireAuth(request), request.params.address_uuid), 'Property retrieved'),
    });

    /** PUT /api/landlords/properties/{address_uuid}/approval-limit: the property's own spend limit. */
    app.put('/api/landlords/properties/:address_uuid/approval-limit', {
      config: { permission: 'api.landlords.manage' },
      schema: {
        tags: TAGS,
        summary: "Set or remove a property's spend limit",
        description: "The property's limit wins over its landlords' and the agency default. limit_pence null removes it. Needs a CSRF token.",
        params: AddressParams,
        body: PropertyLimitBody,
        response: responses(DataEnvelope(PropertyOwnership), [400, 401, 403, 404, 429]),
      },
      handler: async (request) =>
        ok(await setPropertyLimit(deps, requireAuth(request), actorOf(request), request.params.address_uuid, request.body.limit_pence), 'Property limit updated'),
    });

    /** GET /api/landlords/{uuid}: the landlord with properties (and bank details for holders of the key). */
    app.get('/api/landlords/:uuid', {
      config: { permission: 'api.landlords.view' },
      schema: {
        tags: TAGS,
        summary: 'Read a landlord',
        description: 'With the properties and shares; bank_details only for holders of api.landlords.bank-details.view.',
        params: UuidParams,
        response: responses(DataEnvelope(LandlordDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getLandlord(deps, requireAuth(request), request.params.uuid), 'Landlord retrieved'),
    });

    /** PUT /api/landlords/{uuid}: changes the fields sent. */
    app.put('/api/landlords/:uuid', {
      config: { permission: 'api.landlords.manage' },
      schema: {
        tags: TAGS,
        summary: 'Update a landlord',
        description: 'Only the fields sent change; null clears an optional field. An erased landlord is 409. Needs a CSRF token.',
        params: UuidParams,
        body: UpdateLandlordBody,
        response: responses(DataEnvelope(LandlordDetail), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await updateLandlord(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Landlord updated'),
    });

    /** POST /api/landlords/{uuid}/properties: links a property with a share (or changes the share). */
    app.post('/api/landlords/:uuid/properties', {
      config: { permission: 'api.landlords.manage' },
      schema: {
        tags: TAGS,
        summary: 'Link a property to a landlord with an ownership share',
        description: 'share_bp in basis points (5000 = 50 %); the shares of one property sum to at most 10000 (else 409). Linking again changes the share (200). Needs a CSRF token.',
        params: UuidParams,
        body: LinkPropertyBody,
        response: { ...responses(DataEnvelope(LandlordDetail), [400, 401, 403, 404, 409, 429], 201), 200: DataEnvelope(LandlordDetail) },
      },
      handler: async (request, reply) => {
        const { created, detail } = await linkProperty(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void (reply as unknown as FastifyReply).status(created ? 201 : 200);
        return ok(detail, created ? 'Property linked' : 'Share changed');
      },
    });

    /** DELETE /api/landlords/{uuid}/properties/{address_uuid}: unlinks a property. */
    app.delete('/api/landlords/:uuid/properties/:address_uuid', {
      config: { permission: 'api.landlords.manage' },
      schema: {
        tags: TAGS,
        summary: 'Unlink a property from a landlord',
        description: '404 when the landlord, the address or the link does not exist. Needs a CSRF token.',
        params: PropertyParams,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await unlinkProperty(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.address_uuid);
        return done('Property unlinked');
      },
    });
  };
}
