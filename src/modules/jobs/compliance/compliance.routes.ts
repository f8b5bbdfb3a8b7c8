/**
 * The compliance register (docs/compliance.md): GET /api/compliance, GET/POST /api/compliance/types,
 * PUT/DELETE /api/compliance/types/{uuid}, GET/POST /api/compliance/schedules,
 * GET/PUT/DELETE /api/compliance/schedules/{uuid}, POST /api/compliance/items, GET /api/compliance/items/{uuid},
 * POST /api/compliance/items/{uuid}/certificates, PUT /api/compliance/items/{uuid}/certificates/{certificate_uuid},
 * POST /api/compliance/items/bulk, PUT /api/compliance/properties/{uuid}/hmo, PUT /api/compliance/properties/{uuid}/profile,
 * PUT /api/compliance/buildings/{uuid}/profile.
 */
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import {
  AddCertificateBody, BuildingProfileBody, BuildingProfileResult, BulkItemsBody, BulkItemsResult, CertificateParams, ComplianceType, CreateItemBody, CreateTypeBody,
  HmoBody, HmoResult, ItemDetail, ProfileBody, ProfileResult, RegisterEnvelope, RegisterQuery, TypesQuery, UpdateCertificateBody, UpdateTypeBody,
} from './compliance.schemas.ts';
import {
  addCertificate, bulkAddItems, createItem, createType, getItem, listRegister, listTypes, retireType, setBuildingProfile, setPropertyHmo, setPropertyProfile,
  updateCertificate, updateType,
} from './compliance.service.ts';
import { CreateScheduleBody, Schedule, ScheduleDetail, ScheduleQuery, UpdateScheduleBody } from './maintenance.schemas.ts';
import { createSchedule, getSchedule, listSchedules, retireSchedule, updateSchedule } from './maintenance.service.ts';

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
          '(valid, due_soon, expired, missing), most urgent first (sort=status|address|type_name|expires_on|contractor_name, order=asc|desc; ' +
          'default status asc; id breaks ties; no expiry or contractor last). Filters: status, branch_uuid, type (code), address_uuid. ' +
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
        description:
          'Seeded on first use with the UK types (gas safety record, EICR, EPC, smoke and CO alarms, legionella, HMO fire risk assessment, HMO licence), ' +
          'plus the agency\'s custom types (custom: true). include_retired=true adds the retired ones.',
        querystring: TypesQuery,
        response: responses(ListEnvelope(ComplianceType), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await listTypes(deps, requireAuth(request), request.query.include_retired ?? false);
        return { success: true as const, data: rows, count: rows.length, message: 'Compliance types retrieved' };
      },
    });

    /** POST /api/compliance/types: a custom type of the agency. */
    app.post('/api/compliance/types', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Create a custom compliance item type',
        description:
          'code (unique in the agency), name, interval_months (null: none), required_document; at_tenancy_start, hmo_only, due_soon_days (default 30) optional. ' +
          'Items and schedules use it like a UK type. 409 when the code is taken. Needs a CSRF token.',
        body: CreateTypeBody,
        response: responses(DataEnvelope(ComplianceType), [400, 401, 403, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const type = await createType(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(type, 'Compliance type created');
      },
    });

    /** PUT /api/compliance/types/{uuid}: edits a custom type. */
    app.put('/api/compliance/types/:uuid', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Change a custom compliance item type',
        description:
          'The fields sent (name, interval_months, at_tenancy_start, hmo_only, required_document, due_soon_days). A new interval applies to certificates recorded from now on. ' +
          '409 for a UK type (set by law) or a retired one. Needs a CSRF token.',
        params: UuidParams,
        body: UpdateTypeBody,
        response: responses(DataEnvelope(ComplianceType), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await updateType(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Compliance type updated'),
    });

    /** DELETE /api/compliance/types/{uuid}: retires a custom type. */
    app.delete('/api/compliance/types/:uuid', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Retire a custom compliance item type',
        description:
          'No new items or schedules of the type; its items and certificates stay in the register. 409 for a UK type or while live schedules use it. Needs a CSRF token.',
        params: UuidParams,
        response: responses(DataEnvelope(ComplianceType), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await retireType(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Compliance type retired'),
    });

    /** GET /api/compliance/schedules: the agency's planned maintenance schedules. */
    app.get('/api/compliance/schedules', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'Planned maintenance schedules',
        description:
          'Newest first, each with its next three occurrences (due date and the date its job is raised). Filters: state (active, retired, all; default active), ' +
          'address_uuid, type (code), contractor_uuid.',
        querystring: ScheduleQuery,
        response: responses(ListEnvelope(Schedule), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, count } = await listSchedules(deps, requireAuth(request), request.query);
        return { success: true as const, data: rows, count, message: 'Schedules retrieved' };
      },
    });

    /** POST /api/compliance/schedules: a planned maintenance schedule. */
    app.post('/api/compliance/schedules', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Create a planned maintenance schedule',
        description:
          'title, rrule (RFC 5545, FREQ DAILY to YEARLY, no DTSTART), starts_on (DTSTART, London date), lead_days; address_uuid (one property), type (every property ' +
          'with an item of the type) or both (that property\'s item, added when missing); contractor_uuid (the jobs are assigned to it), trade_id, priority ' +
          '(default 4), description optional. The scheduler raises each occurrence\'s job lead_days before its due date; occurrences due before today are not raised. ' +
          'Needs a CSRF token.',
        body: CreateScheduleBody,
        response: responses(DataEnvelope(ScheduleDetail), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const schedule = await createSchedule(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(schedule, 'Schedule created');
      },
    });

    /** GET /api/compliance/schedules/{uuid}: one schedule with its next and raised occurrences. */
    app.get('/api/compliance/schedules/:uuid', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'Read a planned maintenance schedule',
        description: 'With its next five occurrences and the latest twenty raised ones (property, job, compliance item and the certificate taken from the job).',
        params: UuidParams,
        response: responses(DataEnvelope(ScheduleDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getSchedule(deps, requireAuth(request), request.params.uuid), 'Schedule retrieved'),
    });

    /** PUT /api/compliance/schedules/{uuid}: changes a schedule. */
    app.put('/api/compliance/schedules/:uuid', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Change a planned maintenance schedule',
        description:
          'The fields sent (title, description, rrule, starts_on, lead_days, contractor_uuid (null: unassigned), trade_id, priority). A new rrule or starts_on applies ' +
          'from today. Jobs already raised are not changed. 409 for a retired schedule. Needs a CSRF token.',
        params: UuidParams,
        body: UpdateScheduleBody,
        response: responses(DataEnvelope(ScheduleDetail), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await updateSchedule(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Schedule updated'),
    });

    /** DELETE /api/compliance/schedules/{uuid}: retires a schedule. */
    app.delete('/api/compliance/schedules/:uuid', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Retire a planned maintenance schedule',
        description: 'No more jobs are raised; the raised occurrences, their jobs and certificates stay. Needs a CSRF token.',
        params: UuidParams,
        response: responses(DataEnvelope(ScheduleDetail), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await retireSchedule(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Schedule retired'),
    });

    /** POST /api/compliance/items: a property needs an item of a type. */
    app.post('/api/compliance/items', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Add a compliance item to a property',
        description: 'Body: address_uuid, type (code). Idempotent: an item the property already has answers 200 with it. Needs a CSRF token.',
        body: CreateItemBody,
        response: { ...responses(DataEnvelope(ItemDetail), [400, 401, 403, 404, 429], 201), 200: DataEnvelope(ItemDetail) },
      },
      handler: async (request, reply) => {
        const { item, created } = await createItem(deps, requireAuth(request), actorOf(request), request.body);
        void (reply as unknown as FastifyReply).status(created ? 201 : 200);
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

    /** PUT /api/compliance/items/{uuid}/certificates/{certificate_uuid}: what happened after a certificate. */
    app.put('/api/compliance/items/:uuid/certificates/:certificate_uuid', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Record the document, tenant copy, remedial works or MEES exemption of a certificate',
        description:
          'job_file_uuid (the document), tenant_copy_served_on and tenant_copy_method, remedial_completed_on (unsatisfactory EICR), exemption_reference and ' +
          'exemption_until (EPC below E). Dates from the issue to today. Answers the item. Needs a CSRF token.',
        params: CertificateParams,
        body: UpdateCertificateBody,
        response: responses(DataEnvelope(ItemDetail), [400, 401, 403, 404, 422, 429]),
      },
      handler: async (request) =>
        ok(await updateCertificate(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.certificate_uuid, request.body), 'Certificate updated'),
    });

    /** POST /api/compliance/items/bulk: an item type for a selection, a building or the portfolio. */
    app.post('/api/compliance/items/bulk', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Add a compliance item type to many properties',
        description: 'type and exactly one of address_uuids (up to 500), building_uuid (every unit) or all: true. Properties that have one keep it. Needs a CSRF token.',
        body: BulkItemsBody,
        response: responses(DataEnvelope(BulkItemsResult), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await bulkAddItems(deps, requireAuth(request), actorOf(request), request.body), 'Compliance items added'),
    });

    /** PUT /api/compliance/properties/{uuid}/profile: what the property is. */
    app.put('/api/compliance/properties/:uuid/profile', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Record a property\'s gas supply, storeys and rooms with a fixed combustion appliance',
        description: 'The property gains the items it now needs; derived items it no longer needs and without certificates are removed. Needs a CSRF token.',
        params: UuidParams,
        body: ProfileBody,
        response: responses(DataEnvelope(ProfileResult), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await setPropertyProfile(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Property profile set'),
    });

    /** PUT /api/compliance/buildings/{uuid}/profile: whether the building has a lift. */
    app.put('/api/compliance/buildings/:uuid/profile', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Record whether a building has a passenger lift (LOLER)',
        description: 'Its communal areas need the LOLER thorough examination while it has one. Needs a CSRF token.',
        params: UuidParams,
        body: BuildingProfileBody,
        response: responses(DataEnvelope(BuildingProfileResult), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await setBuildingProfile(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.has_lift), 'Building profile set'),
    });
  };
}
