/**
 * Addresses (docs/tenants.md): GET/POST /api/addresses, GET/PUT /api/addresses/{uuid}; buildings
 * (docs/tenants.md "Buildings"): GET/POST /api/buildings, GET/PUT /api/buildings/{uuid}.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  Address, Building, BuildingWithUnits, CreateAddressBody, CreateBuildingBody, ListAddressesQuery, ListBuildingsQuery, UpdateAddressBody, UpdateBuildingBody, UuidParams,
} from './addresses.schemas.ts';
import { createAddress, getAddress, listAddresses, updateAddress } from './addresses.service.ts';
import { createBuilding, getBuilding, listBuildings, updateBuilding } from './buildings.service.ts';

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
        description:
          'Give the lines (line1 required), or the PAF parts (sub_building, building_name, building_number, street, locality; the lines are then composed), or a building_uuid whose parts, town and postcode fill the rest. The postcode is checked, never rewritten: only case and its one space are normalised (LS6 12AB is refused, not read as LS61 2AB). Where the agency enables the postcode lookup, postcodes.io must know it and fills the coordinates and an empty town. A flat given with a building name or street joins that building (made on first use). Two addresses may not share the whole address. latitude and longitude go together. Needs a CSRF token.',
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

    /** GET /api/buildings: the agency's buildings (blocks of flats), searchable. */
    app.get('/api/buildings', {
      config: { permission: 'api.addresses.view' },
      schema: {
        tags: ['tenants'],
        summary: "List and search the agency's buildings",
        description: 'q searches the building name, street, number and street, town and postcode. Ordered by postcode, then name.',
        querystring: ListBuildingsQuery,
        response: responses(ListEnvelope(Building), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listBuildings(deps, requireAuth(request), request.query);
        return list(rows, total, 'Buildings retrieved');
      },
    });

    /** POST /api/buildings: creates a building. */
    app.post('/api/buildings', {
      config: { permission: 'api.addresses.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Create a building',
        description: 'A building name or a street, and a valid UK postcode, are required; then add its flats and communal areas with POST /api/addresses and building_uuid. Needs a CSRF token.',
        body: CreateBuildingBody,
        response: responses(DataEnvelope(Building), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const building = await createBuilding(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(building, 'Building created');
      },
    });

    /** GET /api/buildings/{uuid}: a building with its units. */
    app.get('/api/buildings/:uuid', {
      config: { permission: 'api.addresses.view' },
      schema: {
        tags: ['tenants'],
        summary: 'Read a building and its units',
        params: UuidParams,
        response: responses(DataEnvelope(BuildingWithUnits), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getBuilding(deps, requireAuth(request), request.params.uuid), 'Building retrieved'),
    });

    /** PUT /api/buildings/{uuid}: changes the fields sent, carried to its units. */
    app.put('/api/buildings/:uuid', {
      config: { permission: 'api.addresses.manage' },
      schema: {
        tags: ['tenants'],
        summary: 'Update a building',
        description: 'Only the fields sent change; the parts, town, county and postcode are carried to every unit (lines recomposed, flats kept). Needs a CSRF token.',
        params: UuidParams,
        body: UpdateBuildingBody,
        response: responses(DataEnvelope(Building), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await updateBuilding(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Building updated'),
    });
  };
}
