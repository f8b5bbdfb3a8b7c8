/** Agencies and their profile (docs/onboarding.md). Rules live in agencies.service.ts. */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { Agency, CreateAgencyBody, CreatedAgency, ListAgenciesQuery, Setup, SuspendBody, UpdateAgencyBody } from './agencies.schemas.ts';
import * as service from './agencies.service.ts';
import { setupChecklist } from './setup.service.ts';
import { exportAgency } from './export.service.ts';
import { Type } from 'typebox';
import { listAgencyHeavyWork } from '../../../core/heavy-work.ts';

const TAGS = ['agencies'];

/** One piece of heavy work of GET /api/agencies/current/heavy-work. */
const HeavyWork = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  kind: Type.String({ description: 'export | report | gdpr_report | backup' }),
  status: Type.String({ description: 'running | waiting' }),
  queue_position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'waiting: its place in the agency\'s queue (1 is next); running: null' }),
  steps_done: Type.Integer({ minimum: 0, description: 'running: files (export) or rows (report) written so far' }),
  steps_total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'the steps in all, null while unknown (a report\'s rows)' }),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** Registers the agency routes. */
export function agenciesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    const caller = (request: Parameters<typeof requireAuth>[0]) => ({ ...actorOf(request), auth: requireAuth(request) });

    /** GET /api/agencies (SysOps): every agency. */
    app.get('/api/agencies', {
      config: { permission: 'api.agencies.view' },
      schema: {
        tags: TAGS,
        summary: 'List agencies',
        description: 'SysOps: every agency by trading name; q searches trading and legal name; status active or suspended.',
        querystring: ListAgenciesQuery,
        response: responses(ListEnvelope(Agency), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await service.listAgencies(deps, request.query);
        return list(rows, total, 'Agencies retrieved');
      },
    });

    /** POST /api/agencies (SysOps): creates an agency, its first branch and invites its first administrator. */
    app.post('/api/agencies', {
      config: { permission: 'api.agencies.manage' },
      schema: {
        tags: TAGS,
        summary: 'Create an agency',
        description:
          'SysOps only. Creates the agency with its profile, its first branch (branch_name, default "Head office") and its first ' +
          'administrator (admin.name, admin.email), who is e-mailed a single-use invitation valid 7 days. A trading name or e-mail already used: 409.',
        body: CreateAgencyBody,
        response: responses(DataEnvelope(CreatedAgency), [400, 401, 403, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const created = await service.createAgency(deps, caller(request), request.body);
        void reply.status(201);
        return ok(created, created.invitation_sent ? 'Agency created and administrator invited' : 'Agency created; the invitation e-mail could not be sent, send it again');
      },
    });

    /** GET /api/agencies/current: the caller's own agency. */
    app.get('/api/agencies/current', {
      config: { permission: 'api.agencies.current.view' },
      schema: {
        tags: TAGS,
        summary: 'Read one\'s own agency',
        description: 'The profile of the caller\'s agency. SysOps (no agency): 403.',
        response: responses(DataEnvelope(Agency), [401, 403, 429]),
      },
      handler: async (request) => ok(await service.currentAgency(deps, requireAuth(request)), 'Agency retrieved'),
    });

    /** PUT /api/agencies/current: an administrator changes their agency's profile. */
    app.put('/api/agencies/current', {
      config: { permission: 'api.agencies.current.manage' },
      schema: {
        tags: TAGS,
        summary: 'Update one\'s own agency',
        description: 'Any profile field; office_hours merges the days it names. The logo is the appearance upload (docs/appearance.md).',
        body: UpdateAgencyBody,
        response: responses(DataEnvelope(Agency), [400, 401, 403, 409, 429]),
      },
      handler: async (request) => ok(await service.updateCurrentAgency(deps, caller(request), request.body), 'Agency updated'),
    });

    /** GET /api/agencies/current/setup: what the agency still lacks. */
    app.get('/api/agencies/current/setup', {
      config: { permission: 'api.agencies.current.manage' },
      schema: {
        tags: TAGS,
        summary: 'Setup checklist',
        description: 'What a new agency still lacks (branches, users, SLA rules, contractors, trades, properties, templates), each { key, label, done, count, link }.',
        response: responses(DataEnvelope(Setup), [401, 403, 429]),
      },
      handler: async (request) => ok(await setupChecklist(deps, requireAuth(request)), 'Setup checklist retrieved'),
    });

    /** GET /api/agencies/current/export: the agency's data as a ZIP of CSV files. */
    app.get('/api/agencies/current/export', {
      config: { permission: 'api.agencies.export' },
      schema: {
        tags: TAGS,
        summary: 'Export the agency\'s data (ZIP)',
        description:
          'Streams a ZIP with one CSV per entity: branches, users (no passwords), properties, tenants, tenant_properties, contractors, ' +
          'certificates, jobs, job_notes, invoices. files=true adds the job documents and photos under files/<job reference>/. ' +
          'Cells starting with = + - @ are prefixed with a quote. Logged as agency.export. Heavy work: it takes one of the agency\'s ' +
          'CARETAKER_AGENCY_HEAVY_MAX slots and waits in its queue when all are taken (GET /api/agencies/current/heavy-work shows the ' +
          'position, then the progress); 503 with queue_position after CARETAKER_HEAVY_WAIT_S (docs/operations.md "Fairness between agencies").',
        querystring: Type.Object({ files: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
        response: responses(fileResponse(['application/zip'], 'ZIP of CSV files (and the job files with files=true)'), [400, 401, 403, 429, 503]),
      },
      handler: async (request, reply) => {
        const { fileName, stream } = await exportAgency(deps, requireAuth(request), actorOf(request), request.query.files ?? false);
        void reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename="${fileName}"`);
        return reply.send(stream);
      },
    });

    /** GET /api/agencies/current/heavy-work: the agency's heavy work running and waiting (docs/operations.md "Fairness between agencies"). */
    app.get('/api/agencies/current/heavy-work', {
      config: { permission: 'authenticated' },
      schema: {
        tags: TAGS,
        summary: 'The agency\'s heavy work: running, and waiting with its queue position',
        description:
          'Exports, report downloads and subject-access reports of the caller\'s agency (SysOps: the instance\'s own work, e.g. database copies) ' +
          'holding one of its CARETAKER_AGENCY_HEAVY_MAX slots (status running, with steps_done of steps_total; total null while unknown) ' +
          'or waiting for one (status waiting, queue_position 1 is next). Import commits show theirs at GET /api/imports/{uuid}.',
        response: responses(ListEnvelope(HeavyWork), [401, 429]),
      },
      handler: async (request) => {
        const rows = await listAgencyHeavyWork(deps, requireAuth(request).agencyId);
        return list(rows, rows.length, 'Heavy work retrieved');
      },
    });

    /** GET /api/agencies/{uuid} (SysOps). */
    app.get('/api/agencies/:uuid', {
      config: { permission: 'api.agencies.view' },
      schema: {
        tags: TAGS,
        summary: 'Read an agency',
        params: UuidParams,
        response: responses(DataEnvelope(Agency), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await service.getAgency(deps, request.params.uuid), 'Agency retrieved'),
    });

    /** PUT /api/agencies/{uuid} (SysOps). */
    app.put('/api/agencies/:uuid', {
      config: { permission: 'api.agencies.manage' },
      schema: {
        tags: TAGS,
        summary: 'Update an agency',
        description: 'SysOps only. Any profile field; office_hours merges the days it names.',
        params: UuidParams,
        body: UpdateAgencyBody,
        response: responses(DataEnvelope(Agency), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.updateAgency(deps, caller(request), request.params.uuid, request.body), 'Agency updated'),
    });

    /** POST /api/agencies/{uuid}/suspend (SysOps). */
    app.post('/api/agencies/:uuid/suspend', {
      config: { permission: 'api.agencies.manage' },
      schema: {
        tags: TAGS,
        summary: 'Suspend an agency',
        description: 'Nothing is deleted; every account of the agency gets 403 "This agency is suspended" on its next request until it is reactivated. Already suspended: 409.',
        params: UuidParams,
        body: SuspendBody,
        response: responses(DataEnvelope(Agency), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.setSuspended(deps, caller(request), request.params.uuid, true, request.body.reason), 'Agency suspended'),
    });

    /** POST /api/agencies/{uuid}/reactivate (SysOps). */
    app.post('/api/agencies/:uuid/reactivate', {
      config: { permission: 'api.agencies.manage' },
      schema: {
        tags: TAGS,
        summary: 'Reactivate a suspended agency',
        description: 'Its accounts work again from their next request. Not suspended: 409.',
        params: UuidParams,
        response: responses(DataEnvelope(Agency), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.setSuspended(deps, caller(request), request.params.uuid, false), 'Agency reactivated'),
    });
  };
}
