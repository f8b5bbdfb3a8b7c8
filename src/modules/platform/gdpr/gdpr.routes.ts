/**
 * GDPR (docs/gdpr.md): consents (GET/POST /api/gdpr/consents, POST .../{uuid}/withdraw), the
 * subject-access report GET /api/tenants/{uuid}/gdpr-report (JSON or ?format=zip) and the
 * erasure POST /api/tenants/{uuid}/erase.
 */
import { inHeavySlot } from '../../../core/heavy-work.ts';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, alsoSentAs, done, list, ok, responses } from '../../../http/envelope.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { DateTime, Nullable, Uuid, UuidParams } from '../../../http/schema-primitives.ts';
import { Consent, CreateConsentBody, ListConsentsQuery, WithdrawConsentBody } from './consents.schemas.ts';
import { giveConsent, listConsents, withdrawConsent } from './consents.service.ts';
import { eraseTenant } from './erasure.service.ts';
import { TENANT_SECTIONS, addExemption, buildReport, removeExemption, renderReportPdf, reportZip } from './report.service.ts';
import { EXEMPTIBLE_SECTIONS, EXEMPTION_GROUNDS } from './exemptions.ts';
import { RETENTION_KINDS } from './retention.ts';
import { getRetention, setRetention } from './retention.service.ts';
import { LANDLORD_SECTIONS, buildLandlordReport, eraseLandlord } from './landlords.service.ts';

const ReportQuery = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('zip')], { default: 'json', description: 'json (envelope) or zip (download)' })) },
  { additionalProperties: false },
);
const TenantReportQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('zip'), Type.Literal('pdf')], {
      default: 'json', description: 'json (envelope), zip (report.json, tables/<section>.json, report.pdf, files/, README.txt) or pdf (readable)',
    })),
  },
  { additionalProperties: false },
);
const ExemptionBody = Type.Object(
  {
    section: Type.Union(EXEMPTIBLE_SECTIONS.map((s) => Type.Literal(s)), { description: "the report's section holding the item" }),
    record_ref: Type.String({ minLength: 1, maxLength: 64, description: "the item's uuid (an activity entry: its ID)" }),
    ground: Type.Union(EXEMPTION_GROUNDS.map((g) => Type.Literal(g.key)), { description: EXEMPTION_GROUNDS.map((g) => `${g.key}: ${g.source}`).join('; ') }),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'why the ground applies to this item (kept with the exemption, not shown to the person)' }),
  },
  { additionalProperties: false },
);
const Exemption = Type.Object({
  uuid: Uuid(),
  section: Type.String(),
  record_ref: Type.String(),
  ground: Type.String(),
  ground_title: Type.String(),
  source: Type.String({ description: 'the paragraph of the Data Protection Act 2018' }),
  reason: Type.String(),
  applied_by: Nullable(Type.String()),
  applied_at: DateTime(),
});
const RetentionEntry = Type.Object({
  record_kind: Type.String(),
  title: Type.String(),
  months: Type.Integer({ description: "the agency's period in months" }),
  default_months: Type.Integer(),
  statutory: Type.Boolean({ description: 'the law sets the default: it may be lengthened, never shortened' }),
  source: Type.String({ description: 'the regulation, HMRC notice or policy the default follows' }),
  applies_to: Type.String({ description: 'what the periodic task gdpr.retention does when the period ends' }),
  set_by_agency: Type.Boolean(),
});
const RetentionBody = Type.Object(
  {
    periods: Type.Array(Type.Object({
      record_kind: Type.Union(RETENTION_KINDS.map((k) => Type.Literal(k.key))),
      months: Type.Integer({ minimum: 0, maximum: 1200 }),
    }, { additionalProperties: false }), { minItems: 1, maxItems: RETENTION_KINDS.length }),
  },
  { additionalProperties: false },
);
const ExemptionParams = Type.Object({ uuid: Uuid(), exemption: Uuid() }, { additionalProperties: false });
const Retained = Type.Object({
  record_kind: Type.String({ description: 'the retention kind (GET /api/gdpr/retention)' }),
  table: Type.String(),
  records: Type.Integer(),
  retained_until: Type.String({ description: 'London date the retention ends and the records are released' }),
  ground: Type.String({ description: 'the source of the period' }),
});
const Copies = Type.Object({
  mail_files_removed: Type.Integer({ description: 'e-mails to or about the person removed from the mail folder (file transport)' }),
  files_removed: Type.Integer({ description: 'photos and documents the person sent, deleted with their bytes' }),
  files_renamed: Type.Integer({ description: 'file names and captions scrubbed' }),
  backups: Type.String({ description: 'how copies in backups go (by expiry)' }),
});
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
  retained: Type.Array(Retained, {
    description: 'records kept (restricted, not cleared) because a stated retention requires them: the name and postal address on the landlord\'s VAT records (vat_records)',
  }),
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
  other_scrubbed: Type.Integer({ description: 'rows of other tables scrubbed (messages, reports, surveys, visits, imports, digest lines)' }),
  retained: Type.Array(Retained, { description: 'records kept (restricted, not deleted) because a stated retention requires them' }),
  copies: Copies,
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

    /** GET /api/tenants/{uuid}/gdpr-report: everything held about the tenant (JSON, zip or PDF). */
    app.get('/api/tenants/:uuid/gdpr-report', {
      config: { permission: 'api.tenants.gdpr-report.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Subject-access report of a tenant',
        description: 'Every record that names or is about the tenant (docs/gdpr.md "Subject-access report"), items withheld under an exemption shown with their ground. ?format=zip downloads report.json, tables/<section>.json, report.pdf, the files and README.txt; ?format=pdf the readable PDF. Each export is logged (tenant.gdpr_export). Heavy work: one of the agency\'s CARETAKER_AGENCY_HEAVY_MAX slots, 503 with queue_position after CARETAKER_HEAVY_WAIT_S in its queue (docs/operations.md "Fairness between agencies").',
        params: UuidParams,
        querystring: TenantReportQuery,
        response: responses(alsoSentAs(DataEnvelope(Type.Record(Type.String(), Type.Any())), ['application/zip', 'application/pdf']), [400, 401, 403, 404, 429, 503]),
      },
      handler: async (request, reply) => {
        const format = request.query.format ?? 'json';
        const auth = requireAuth(request);
        // Heavy work: built in one of the agency's slots (docs/operations.md "Fairness between agencies").
        return inHeavySlot(deps, auth.agencyId, 'gdpr_report', async () => {
          const { report, files } = await buildReport(deps, auth, actorOf(request), request.params.uuid, format);
          if (format === 'json') return ok(report, 'Subject-access report');
          const day = report.generated_at.slice(0, 10);
          const pdf = await renderReportPdf(report);
          if (format === 'pdf') {
            void reply.type('application/pdf').header('content-disposition', `attachment; filename="gdpr-report-${report.subject.uuid}-${day}.pdf"`);
            return reply.send(pdf);
          }
          const zip = await reportZip(report, TENANT_SECTIONS, { files, store: deps.files, pdf });
          void reply
            .type('application/zip')
            .header('content-disposition', `attachment; filename="gdpr-report-${report.subject.uuid}-${day}.zip"`);
          return reply.send(zip);
        });
      },
    });

    /** POST /api/tenants/{uuid}/gdpr-report/exemptions: withholds one item of the report under a ground. */
    app.post('/api/tenants/:uuid/gdpr-report/exemptions', {
      config: { permission: 'api.tenants.gdpr-report.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Withhold one item of a subject-access report',
        description: 'The item (section and uuid, an activity entry by its ID) is shown in the report as withheld with its ground from the Data Protection Act 2018 Schedules 2-4, and listed under exemptions. 404 when the report has no such item; 409 when it is already withheld. Logged as tenant.gdpr_exemption. Needs a CSRF token.',
        params: UuidParams,
        body: ExemptionBody,
        response: responses(DataEnvelope(Exemption), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const e = await addExemption(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void (reply as unknown as FastifyReply).status(201);
        return ok(e, 'Item withheld');
      },
    });

    /** DELETE /api/tenants/{uuid}/gdpr-report/exemptions/{exemption}: the item is shown again. */
    app.delete('/api/tenants/:uuid/gdpr-report/exemptions/:exemption', {
      config: { permission: 'api.tenants.gdpr-report.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Remove an exemption from a subject-access report',
        description: 'The item is in the report again. Logged as tenant.gdpr_exemption_removed. Needs a CSRF token.',
        params: ExemptionParams,
        body: CsrfOnlyBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await removeExemption(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.exemption);
        return done('Exemption removed');
      },
    });

    /** GET /api/landlords/{uuid}/gdpr-report: everything held about the landlord (JSON or zip). */
    app.get('/api/landlords/:uuid/gdpr-report', {
      config: { permission: 'api.landlords.gdpr-report.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Subject-access report of a landlord',
        description: 'Landlord record with bank details, properties and shares, approval requests with answers and comments, activity entries about them. ?format=zip downloads a zip with report.json and README.txt. Each export is logged (landlord.gdpr_export). Heavy work: one of the agency\'s CARETAKER_AGENCY_HEAVY_MAX slots, 503 with queue_position after CARETAKER_HEAVY_WAIT_S in its queue (docs/operations.md "Fairness between agencies").',
        params: UuidParams,
        querystring: ReportQuery,
        response: responses(alsoSentAs(DataEnvelope(Type.Record(Type.String(), Type.Any())), ['application/zip']), [400, 401, 403, 404, 429, 503]),
      },
      handler: async (request, reply) => {
        const format = request.query.format ?? 'json';
        const auth = requireAuth(request);
        // Heavy work: built in one of the agency's slots (docs/operations.md "Fairness between agencies").
        return inHeavySlot(deps, auth.agencyId, 'gdpr_report', async () => {
          const report = await buildLandlordReport(deps, auth, actorOf(request), request.params.uuid, format);
          if (format === 'json') return ok(report, 'Subject-access report');
          const zip = await reportZip(report, LANDLORD_SECTIONS);
          void reply
            .type('application/zip')
            .header('content-disposition', `attachment; filename="gdpr-report-${report.subject.uuid}-${report.generated_at.slice(0, 10)}.zip"`);
          return reply.send(zip);
        });
      },
    });

    /** GET /api/gdpr/retention: the agency's retention schedule. */
    app.get('/api/gdpr/retention', {
      config: { permission: 'api.tenants.erase.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Retention schedule of the agency',
        description: 'Every record kind with the agency\'s period in months, the lawful default and its source (docs/gdpr.md "Retention"). 403 for SysOps (no agency).',
        response: responses(ListEnvelope(RetentionEntry), [401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await getRetention(deps, requireAuth(request));
        return list(rows, rows.length, 'Retention schedule');
      },
    });

    /** PUT /api/gdpr/retention: sets periods of the agency's retention schedule. */
    app.put('/api/gdpr/retention', {
      config: { permission: 'api.tenants.erase.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Set retention periods',
        description: 'periods: [{ record_kind, months }] (0-1200). A statutory kind (VAT 72 months, AML 60) cannot go below its minimum (400). Logged as gdpr.retention_update. Needs a CSRF token.',
        body: RetentionBody,
        response: responses(ListEnvelope(RetentionEntry), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await setRetention(deps, requireAuth(request), actorOf(request), request.body.periods);
        return list(rows, rows.length, 'Retention schedule updated');
      },
    });

    /** POST /api/landlords/{uuid}/erase: anonymises the landlord for good. */
    app.post('/api/landlords/:uuid/erase', {
      config: { permission: 'api.landlords.erase.manage' },
      schema: {
        tags: ['gdpr'],
        summary: 'Erase a landlord (GDPR)',
        description: 'Anonymises the landlord for good (contact, address, bank details, VAT number, notes), unlinks the properties, withdraws waiting approvals and scrubs the name, e-mail and phone from job texts, notes and approval comments. The name and postal address on the landlord\'s VAT records (recharge invoices, credit notes, statements) are kept, restricted to them, for the agency\'s vat_records period (6 years: VATA 1994 Sch. 11 para. 6(3)) and listed in retained. Logged as landlord.erase (without the name). 409 when already erased. Needs a CSRF token.',
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
