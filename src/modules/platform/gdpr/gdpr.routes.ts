/**
 * GDPR (docs/gdpr.md): consents (GET/POST /api/gdpr/consents, POST .../{uuid}/withdraw), the
 * subject-access report GET /api/tenants/{uuid}/gdpr-report (JSON or ?format=zip) and the
 * erasure POST /api/tenants/{uuid}/erase.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, alsoSentAs, list, ok, responses } from '../../../http/envelope.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { DateTime, Uuid, UuidParams } from '../../../http/schema-primitives.ts';
import { Consent, CreateConsentBody, ListConsentsQuery, WithdrawConsentBody } from './consents.schemas.ts';
import { giveConsent, listConsents, withdrawConsent } from './consents.service.ts';
import { eraseTenant } from './erasure.service.ts';
import { buildReport, reportZip } from './report.service.ts';
import { LANDLORD_SECTIONS, buildLandlordReport, eraseLandlord } from './landlords.service.ts';

const ReportQuery = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('zip')], { default: 'json', description: 'json (envelope) or zip (download)' })) },
  { additionalProperties: false },
);
const EraseBody = Type.Object(
  {
    force: Type.Optional(Type.Boolean({ description: 'erase although open jobs need the tenant (Admin or SysOps only)' })),
  },
  { additionalProperties: false },
);
const LandlordErasureData = Type.Object({
  uuid: Uuid(),
  name: Type.String({ description: 'the anonymous name now on the record' }),
  erased_at: DateTime(),
  properties_unlinked: Type.Integer(),
  approvals_withdrawn: Type.Integer(),
  jobs_scrubbed: Type.Integer(),
  notes_scrubbed: Type.Integer(),
  comments_scrubbed: Type.Integer(),
});
const ErasureData = Type.Object({
  uuid: Uuid(),
  name: Type.String({ description: 'the anonymous name now on the record' }),
  erased_at: DateTime(),
  forced: Type.Boolean(),
  open_jobs: Type.Integer(),
  users_disabled: Type.Integer(),
  jobs_scrubbed: Type.Integer(),
  notes_scrubbed: Type.Integer(),
  activity_scrubbed: Type.Integer(),
});


/** Registers the GDPR routes. */
export function gdprRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/gdpr/consents: consents of the agency, newest first; filters tenant, user, purpose, active. */
    app.get('/api/gdpr/consents', {
      config: { permission: 'api.gdpr.consents.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'List consents',
        querystring: ListConsentsQuery,
        response: responses(ListEnvelope(Consent), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listConsents(deps, requireAuth(request), request.query);
        return list(rows, total, 'Consents retrieved');
      },
    });

    /** POST /api/gdpr/consents: records a consent (201), or returns the one in force (200). */
    app.post('/api/gdpr/consents', {
      config: { permission: 'api.gdpr.consents.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Record a consent',
        description: 'The person is tenant_uuid (or user_uuid); purpose and source from fixed lists; given_at defaults to now. 201 when recorded; 200 with the consent in force when one exists for the person and purpose. Needs a CSRF token.',
        body: CreateConsentBody,
        response: { ...responses(DataEnvelope(Consent), [400, 401, 403, 404, 409, 429], 201), 200: DataEnvelope(Consent) },
      },
      handler: async (request, reply) => {
        const { consent, created } = await giveConsent(deps, requireAuth(request), actorOf(request), request.body);
        void (reply as unknown as FastifyReply).status(created ? 201 : 200);
        return ok(consent, created ? 'Consent recorded' : 'Consent was already in force');
      },
    });

    /** POST /api/gdpr/consents/{uuid}/withdraw: withdraws a consent now. */
    app.post('/api/gdpr/consents/:uuid/withdraw', {
      config: { permission: 'api.gdpr.consents.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Withdraw a consent',
        description: 'source (default api) records how the withdrawal came in. 409 when already withdrawn. Needs a CSRF token.',
        params: UuidParams,
        body: WithdrawConsentBody,
        response: responses(DataEnvelope(Consent), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await withdrawConsent(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body?.source), 'Consent withdrawn'),
    });

    /** GET /api/tenants/{uuid}/gdpr-report: everything held about the tenant (JSON or zip). */
    app.get('/api/tenants/:uuid/gdpr-report', {
      config: { permission: 'api.tenants.gdpr-report.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Subject-access report of a tenant',
        description: 'Tenant record, login accounts, addresses, jobs (no costs), notes shared with the tenant, consents and activity entries. ?format=zip downloads a zip with report.json and README.txt. Each export is logged (tenant.gdpr_export).',
        params: UuidParams,
        querystring: ReportQuery,
        response: responses(alsoSentAs(DataEnvelope(Type.Record(Type.String(), Type.Any())), ['application/zip']), [400, 401, 403, 404, 429]),
      },
      handler: async (request, reply) => {
        const format = request.query.format ?? 'json';
        const report = await buildReport(deps, requireAuth(request), actorOf(request), request.params.uuid, format);
        if (format === 'json') return ok(report, 'Subject-access report');
        const zip = await reportZip(report);
        const day = report.generated_at.slice(0, 10);
        void reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="gdpr-report-${report.subject.uuid}-${day}.zip"`);
        return reply.send(zip);
      },
    });

    /** GET /api/landlords/{uuid}/gdpr-report: everything held about the landlord (JSON or zip). */
    app.get('/api/landlords/:uuid/gdpr-report', {
      config: { permission: 'api.landlords.gdpr-report.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Subject-access report of a landlord',
        description: 'Landlord record with bank details, properties and shares, approval requests with answers and comments, activity entries about them. ?format=zip downloads a zip with report.json and README.txt. Each export is logged (landlord.gdpr_export).',
        params: UuidParams,
        querystring: ReportQuery,
        response: { ...responses(DataEnvelope(Type.Record(Type.String(), Type.Any())), [400, 401, 403, 404, 429]) },
      },
      handler: async (request, reply) => {
        const format = request.query.format ?? 'json';
        const report = await buildLandlordReport(deps, requireAuth(request), actorOf(request), request.params.uuid, format);
        if (format === 'json') return ok(report, 'Subject-access report');
        const zip = await reportZip(report, LANDLORD_SECTIONS);
        void reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="gdpr-report-${report.subject.uuid}-${report.generated_at.slice(0, 10)}.zip"`);
        return reply.send(zip);
      },
    });

    /** POST /api/landlords/{uuid}/erase: anonymises the landlord for good. */
    app.post('/api/landlords/:uuid/erase', {
      config: { permission: 'api.landlords.erase.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Erase a landlord (GDPR)',
        description: 'Anonymises the landlord for good (contact, address, bank details, VAT number, notes), unlinks the properties, withdraws waiting approvals and scrubs the name, e-mail and phone from job texts, notes and approval comments. Logged as landlord.erase (without the name). 409 when already erased. Needs a CSRF token.',
        params: UuidParams,
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(LandlordErasureData), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await eraseLandlord(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Landlord erased'),
    });

    /** POST /api/tenants/{uuid}/erase: anonymises the tenant for good. */
    app.post('/api/tenants/:uuid/erase', {
      config: { permission: 'api.tenants.erase.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Erase a tenant (GDPR)',
        description: 'Anonymises the tenant and their login accounts for good, keeping jobs and the activity log. 409 while an open job needs the tenant unless force: true from Admin or SysOps. Logged as tenant.erase (without the name). Needs a CSRF token.',
        params: UuidParams,
        body: EraseBody,
        response: responses(DataEnvelope(ErasureData), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await eraseTenant(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body?.force === true), 'Tenant erased'),
    });
  };
}
