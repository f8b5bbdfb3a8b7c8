/**
 * Tenancies and the documents served on them (docs/compliance.md "Tenancies and served documents"):
 * GET/POST /api/properties/{uuid}/tenancies, GET /api/properties/{uuid}/tenancies/{tenancy_uuid},
 * POST .../tenancies/{tenancy_uuid}/served-documents, POST/GET .../served-documents/{served_uuid}/proof.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { notFound } from '../../../core/errors.ts';
import { DataEnvelope, ListEnvelope, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { sendStoredFile } from '../../../http/send-file.ts';
import { readUpload, registerUploadParsing } from '../../../http/upload.ts';
import { CreateTenancyBody, ServeBody, ServedDocument, ServedParams, TenanciesQuery, Tenancy, TenancyParams } from './tenancies.schemas.ts';
import { attachProof, createTenancy, getTenancy, listTenancies, readProof, recordService } from './tenancies.service.ts';

/** Registers the tenancy routes. */
export function tenanciesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);

    /** GET /api/properties/{uuid}/tenancies: the property's tenancies with what is served and owed. */
    app.get('/api/properties/:uuid/tenancies', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'A property\'s tenancies with their served documents',
        description:
          'The tenancies of the property (an address of the caller\'s agency), latest start first, each with its tenants, the documents served on them ' +
          'and `documents`: what the gas safety record, EICR, EPC and How to Rent guide rules require on today\'s London date ' +
          '(served, served_late, owed, overdue, not_required) with the regulation cited; `owed` counts the documents still owed.',
        params: UuidParams,
        querystring: TenanciesQuery,
        response: responses(ListEnvelope(Tenancy), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listTenancies(deps, requireAuth(request), request.params.uuid, request.query);
        return list(rows, total, 'Tenancies retrieved');
      },
    });

    /** POST /api/properties/{uuid}/tenancies: a tenancy with its dates and tenants. */
    app.post('/api/properties/:uuid/tenancies', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Record a tenancy',
        description: 'starts_on, optional ends_on (on or after starts_on) and kind (assured_shorthold, the default, or other), tenant_uuids (1 to 10 of the agency\'s tenants; 400 otherwise). Needs a CSRF token.',
        params: UuidParams,
        body: CreateTenancyBody,
        response: responses(DataEnvelope(Tenancy), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const t = await createTenancy(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(t, 'Tenancy recorded');
      },
    });

    /** GET /api/properties/{uuid}/tenancies/{tenancy_uuid}: one tenancy. */
    app.get('/api/properties/:uuid/tenancies/:tenancy_uuid', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'Read a tenancy with its served documents',
        params: TenancyParams,
        response: responses(DataEnvelope(Tenancy), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getTenancy(deps, requireAuth(request), request.params.uuid, request.params.tenancy_uuid), 'Tenancy retrieved'),
    });

    /** POST .../tenancies/{tenancy_uuid}/served-documents: records a document served on the tenants. */
    app.post('/api/properties/:uuid/tenancies/:tenancy_uuid/served-documents', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Record a document served on a tenancy',
        description:
          'document (gas_safety, eicr, epc: with certificate_uuid, the property\'s certificate of that type served; how_to_rent: with guide_edition, the date of the edition), ' +
          'served_on (not in the future), method (hand, post, email), proof_note (or upload a file to .../proof). Answers the tenancy with what is still owed. Needs a CSRF token.',
        params: TenancyParams,
        body: ServeBody,
        response: responses(DataEnvelope(Tenancy), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const t = await recordService(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.tenancy_uuid, request.body);
        void reply.status(201);
        return ok(t, 'Service recorded');
      },
    });

    /** POST .../served-documents/{served_uuid}/proof: uploads the proof of service (multipart field "file"). */
    app.post('/api/properties/:uuid/tenancies/:tenancy_uuid/served-documents/:served_uuid/proof', {
      config: { permission: 'api.compliance.manage' },
      schema: {
        tags: ['compliance'],
        summary: 'Upload the proof of service',
        description: 'multipart/form-data with one file (field "file"): PDF, JPEG or PNG, decided from the content. Replaces an earlier proof. Send the CSRF token in X-CSRF-Token.',
        params: ServedParams,
        consumes: ['multipart/form-data'],
        response: responses(DataEnvelope(ServedDocument), [400, 401, 403, 404, 413, 429]),
      },
      handler: async (request) => {
        const auth = requireAuth(request);
        const { file } = await readUpload(request, deps.config.uploads.documentMaxBytes);
        try {
          return ok(await attachProof(deps, auth, actorOf(request), request.params.uuid, request.params.tenancy_uuid, request.params.served_uuid, file), 'Proof uploaded');
        } finally {
          await file.dispose();
        }
      },
    });

    /** GET .../served-documents/{served_uuid}/proof: downloads the proof of service. */
    app.get('/api/properties/:uuid/tenancies/:tenancy_uuid/served-documents/:served_uuid/proof', {
      config: { permission: 'api.compliance.view' },
      schema: {
        tags: ['compliance'],
        summary: 'Download the proof of service',
        params: ServedParams,
        response: responses(fileResponse(['application/pdf', 'image/jpeg', 'image/png'], 'the proof of service'), [400, 401, 403, 404, 429]),
      },
      handler: async (request, reply) => {
        const doc = await readProof(deps, requireAuth(request), request.params.uuid, request.params.tenancy_uuid, request.params.served_uuid);
        return sendStoredFile(request, reply, deps.files, {
          key: doc.key, sha256: doc.sha256, mime: doc.mime, disposition: `attachment; filename="${doc.name}"`, missing: () => notFound('Proof'),
        });
      },
    });
  };
}
