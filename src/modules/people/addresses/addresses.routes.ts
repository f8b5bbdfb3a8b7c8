/** Addresses (docs/tenants.md): GET/POST /api/addresses, GET/PUT /api/addresses/{uuid}. */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { Address, CreateAddressBody, ListAddressesQuery, UpdateAddressBody, UuidParams } from './addresses.schemas.ts';
import { createAddress, getAddress, listAddresses, updateAddress } from './addresses.service.ts';

/** Registers the addresses routes. */
export function addressesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/addresses: search by q (line 1, town) or postcode prefix; paginated. */
    app.get('/api/addresses', {
      config: { permission: 'api.addresses.view' },
      schema: {
        tags: ['tenants'],
        summary: "List and search the agency's addresses",
        description: 'q searches line 1 and town (case-insensitive); postcode is a prefix, case- and space-insensitive ("ls6", "LS6 3"). sort=line1|town|postcode|branch_name|is_hmo, order=asc|desc (default postcode asc, then line 1; id breaks ties; no branch last).',
        querystring: ListAddressesQuery,
        response: responses(ListEnvelope(Address), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listAddresses(deps, requireAuth(request), request.query);
        return list(rows, total, 'Addresses retrieved');
      },
    });

    /** POST /api/addresses: creates an address; the postcode is validated and normalised. */
    app.post('/api/addresses', {
      config: { permission: 'api.addresses.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Create an address',
        description: 'line1, town and a valid UK postcode are required; the postcode is stored upper case with one space. latitude and longitude go together. Needs a CSRF token.',
        body: CreateAddressBody,
        response: responses(DataEnvelope(Address), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const address = await createAddress(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(address, 'Address created');
      },
    });

    /** GET /api/addresses/{uuid}: one address. */
    app.get('/api/addresses/:uuid', {
      config: { permission: 'api.addresses.view' },
      schema: {
        tags: ['tenants'],
        summary: 'Read an address',
        params: UuidParams,
        response: responses(DataEnvelope(Address), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getAddress(deps, requireAuth(request), request.params.uuid), 'Address retrieved'),
    });

    /** PUT /api/addresses/{uuid}: changes the fields sent. */
    app.put('/api/addresses/:uuid', {
      config: { permission: 'api.addresses.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Update an address',
        description: 'Only the fields sent change; null clears an optional field. Needs a CSRF token.',
        params: UuidParams,
        body: UpdateAddressBody,
        response: responses(DataEnvelope(Address), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await updateAddress(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Address updated'),
    });
  };
}
