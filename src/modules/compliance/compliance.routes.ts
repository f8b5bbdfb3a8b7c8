/**
 * The compliance register (docs/compliance.md): GET /api/compliance, GET /api/compliance/types,
 * POST /api/compliance/items, GET /api/compliance/items/{uuid},
 * POST /api/compliance/items/{uuid}/certificates, PUT /api/compliance/properties/{uuid}/hmo.
 */
import type { AppDeps } from '../../app-deps.ts';
import { DataEnvelope, ListEnvelope, ok, responses } from '../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../http/route-types.ts';
import { UuidParams } from '../../http/schema-primitives.ts';
import { AddCertificateBody, ComplianceType, CreateItemBody, HmoBody, HmoResult, ItemDetail, RegisterEnvelope, RegisterQuery } from './compliance.schemas.ts';
import { addCertificate, createItem, getItem, listRegister, listTypes, setPropertyHmo } from './compliance.service.ts';

/** Registers the compliance routes. */
export function complianceRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/compliance: the register with each item's status and the totals per status. */
    app.get('/api/compliance', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'The compliance register of the agency\'s properties',
        description:
          'Every compliance item of the properties of the caller\'s agency with its latest certificate and status on today\'s London date ' +
          '(valid, due_soon, expired, missing), most urgent first. Filters: status, branch_uuid, type (code), address_uuid. ' +
          'totals counts the items per status matching every filter but status.',
        querystring: RegisterQuery,
        response: responses(RegisterEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, count, totals } = await listRegister(deps, requireAuth(request), request.query);
        return { success: true as const, data: rows, count, totals, message: 'Compliance register retrieved' };
      },
    });

    /** GET /api/compliance/types: the agency's compliance item types. */
    app.get('/api/compliance/types', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'The agency\'s compliance item types',
        description: 'Seeded on first use with the UK types (gas safety record, EICR, EPC, smoke and CO alarms, legionella, HMO fire risk assessment, HMO licence).',
        response: responses(ListEnvelope(ComplianceType), [401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await listTypes(deps, requireAuth(request));
        return { success: true as const, data: rows, count: rows.length, message: 'Compliance types retrieved' };
      },
    });

    /** POST /api/compliance/items: a property needs an item of a type. */
    app.post('/api/compliance/items', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Add a compliance item to a property',
        description: 'Body: address_uuid, type (code). Idempotent: an item the property already has answers 200 with it. Needs a CSRF token.',
        body: CreateItemBody,
        response: responses(DataEnvelope(ItemDetail), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const { item, created } = await createItem(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(created ? 201 : 200);
        return ok(item, created ? 'Compliance item created' : 'Compliance item already exists');
      },
    });

    /** GET /api/compliance/items/{uuid}: one item with every certificate. */
    app.get('/api/compliance/items/:uuid', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'Read a compliance item',
        params: UuidParams,
        response: responses(DataEnvelope(ItemDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getItem(deps, requireAuth(request), request.params.uuid), 'Compliance item retrieved'),
    });

    /** POST /api/compliance/items/{uuid}/certificates: records a certificate. */
    app.post('/api/compliance/items/:uuid/certificates', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Record a certificate of a compliance item',
        description:
          'issued_on (London date, not in the future); expires_on defaults to issued_on plus the type\'s legal interval; contractor_uuid ' +
          '(who issued it) and job_file_uuid (the document, uploaded as a job file) optional. Answers the item with its new status. Needs a CSRF token.',
        params: UuidParams,
        body: AddCertificateBody,
        response: responses(DataEnvelope(ItemDetail), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const item = await addCertificate(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(item, 'Certificate recorded');
      },
    });

    /** PUT /api/compliance/properties/{uuid}/hmo: the property's HMO flag. */
    app.put('/api/compliance/properties/:uuid/hmo', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Mark a property as a house in multiple occupation, or not',
        description:
          'hmo: true adds an item of every HMO-only type (HMO fire risk assessment, HMO licence) the property lacks; false keeps its items and certificates. ' +
          'Answers the property\'s items. Needs a CSRF token.',
        params: UuidParams,
        body: HmoBody,
        response: responses(DataEnvelope(HmoResult), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await setPropertyHmo(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.hmo), 'HMO flag set'),
    });
  };
}
