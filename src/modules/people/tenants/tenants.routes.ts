/**
 * Tenants (docs/tenants.md; spec 4.9): GET/POST /api/tenants, GET/PUT /api/tenants/{uuid},
 * POST /api/tenants/assign-address, DELETE /api/tenants/{uuid}/addresses/{address_uuid}.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import {
  AssignAddressBody, CreateTenantBody, ListTenantsQuery, Tenant, TenantDetail, UnlinkParams, UpdateTenantBody,
} from './tenants.schemas.ts';
import { assignAddress, createTenant, getTenant, listTenants, unassignAddress, updateTenant } from './tenants.service.ts';

/** Registers the tenants routes. */
export function tenantsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/tenants: search by name/e-mail (q) and postcode prefix; paginated, by name. */
    app.get('/api/tenants', {
      config: { permission: 'api.tenants.view' },
      schema: {
        tags: ['tenants'],
        summary: "List and search the agency's tenants",
        description: 'q searches name and e-mail; postcode keeps tenants with a linked address whose postcode starts so (case- and space-insensitive). Erased tenants only with include_erased=true.',
        querystring: ListTenantsQuery,
        response: responses(ListEnvelope(Tenant), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listTenants(deps, requireAuth(request), request.query);
        return list(rows, total, 'Tenants retrieved');
      },
    });

    /** POST /api/tenants: creates a tenant record. */
    app.post('/api/tenants', {
      config: { permission: 'api.tenants.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Create a tenant',
        description: 'name is required; e-mail unique among the agency\'s tenants. Needs a CSRF token.',
        body: CreateTenantBody,
        response: responses(DataEnvelope(TenantDetail), [400, 401, 403, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const tenant = await createTenant(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(tenant, 'Tenant created');
      },
    });

    /** POST /api/tenants/assign-address (spec 4.9): links an address (integer ID) to a tenant. */
    app.post('/api/tenants/assign-address', {
      config: { permission: 'api.tenants.assign-address.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Link a property address to a tenant (spec 4.9)',
        description: 'Body: tenant_uuid (UUID), address_id (the address ID, integer), csrf_token. Idempotent: linking again answers 200 and writes nothing. 404 for a tenant or address that does not exist or belongs to another agency.',
        body: AssignAddressBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const { created } = await assignAddress(deps, requireAuth(request), actorOf(request), request.body);
        return done(created ? 'Address assigned to tenant' : 'Address was already assigned to tenant');
      },
    });

    /** GET /api/tenants/{uuid}: the tenant with addresses and login account. */
    app.get('/api/tenants/:uuid', {
      config: { permission: 'api.tenants.view' },
      schema: {
        tags: ['tenants'],
        summary: 'Read a tenant',
        description: 'With the linked addresses and the linked login account (login null when none).',
        params: UuidParams,
        response: responses(DataEnvelope(TenantDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getTenant(deps, requireAuth(request), request.params.uuid), 'Tenant retrieved'),
    });

    /** PUT /api/tenants/{uuid}: changes the fields sent. */
    app.put('/api/tenants/:uuid', {
      config: { permission: 'api.tenants.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Update a tenant',
        description: 'Only the fields sent change; null clears an optional field. An erased tenant is 409. Needs a CSRF token.',
        params: UuidParams,
        body: UpdateTenantBody,
        response: responses(DataEnvelope(TenantDetail), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await updateTenant(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Tenant updated'),
    });

    /** DELETE /api/tenants/{uuid}/addresses/{address_uuid}: unlinks an address. */
    app.delete('/api/tenants/:uuid/addresses/:address_uuid', {
      config: { permission: 'api.tenants.assign-address.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Unlink an address from a tenant',
        description: '404 when the tenant, the address or the link does not exist. Needs a CSRF token.',
        params: UnlinkParams,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await unassignAddress(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.address_uuid);
        return done('Address unassigned from tenant');
      },
    });
  };
}
