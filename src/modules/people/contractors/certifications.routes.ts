/**
 * Contractor certificates (docs/contractors.md): GET/POST /api/contractors/{uuid}/certifications,
 * DELETE .../{cert_uuid}, POST/GET .../{cert_uuid}/document (multipart upload, download) and
 * GET /api/contractors/certifications/expiring.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { notFound } from '../../../core/errors.ts';
import { readUpload, registerUploadParsing } from '../../../http/upload.ts';
import { sendStoredFile } from '../../../http/send-file.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import {
  attachDocument, createCertification, deleteCertification, listCertifications, listExpiring, readDocument,
} from './certifications.service.ts';
import { CertParams, Certification, CreateCertificationBody, ExpiringQuery } from './contractors.schemas.ts';

/** Registers the certificate routes. */
export function certificationsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);
    /** GET /api/contractors/certifications/expiring: certificates expiring within `days`. */
    app.get('/api/contractors/certifications/expiring', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: 'Certificates expiring soon',
        description: "The agency's certificates of active contractors expiring from today through today + days (1 to 365, default 30), soonest first.",
        querystring: ExpiringQuery,
        response: responses(ListEnvelope(Certification), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listExpiring(deps, requireAuth(request), request.query);
        return list(rows, total, 'Expiring certificates retrieved');
      },
    });

    /** GET /api/contractors/{uuid}/certifications: the contractor's certificates by expiry. */
    app.get('/api/contractors/:uuid/certifications', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: "List a contractor's certificates",
        params: UuidParams,
        response: responses(ListEnvelope(Certification), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const rows = await listCertifications(deps, requireAuth(request), request.params.uuid);
        return list(rows, rows.length, 'Certifications retrieved');
      },
    });

    /** POST /api/contractors/{uuid}/certifications: records a certificate. */
    app.post('/api/contractors/:uuid/certifications', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Add a certificate',
        description: 'cert_type (gas_safe, niceic, napit, oftec, fensa, chas, public_liability), reference, expires_on, optional issued_on (ISO dates). Attach the scan with POST .../{cert_uuid}/document. Needs a CSRF token.',
        params: UuidParams,
        body: CreateCertificationBody,
        response: responses(DataEnvelope(Certification), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const cert = await createCertification(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(cert, 'Certification added');
      },
    });

    /** DELETE /api/contractors/{uuid}/certifications/{cert_uuid}: removes a certificate. */
    app.delete('/api/contractors/:uuid/certifications/:cert_uuid', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Remove a certificate',
        description: 'The record is kept (soft delete) but no longer counts. Needs a CSRF token.',
        params: CertParams,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await deleteCertification(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.cert_uuid);
        return done('Certification removed');
      },
    });

    /** POST .../{cert_uuid}/document: uploads the certificate document (multipart field "file"). */
    app.post('/api/contractors/:uuid/certifications/:cert_uuid/document', {
      config: { permission: 'api.contractors.manage' },
      schema: {
        tags: ['contractors'],
        summary: 'Upload the certificate document',
        description: 'multipart/form-data with one file (field "file"): PDF, JPEG or PNG, decided from the content. Replaces an earlier document. Send the CSRF token in X-CSRF-Token.',
        params: CertParams,
        consumes: ['multipart/form-data'],
        response: responses(DataEnvelope(Certification), [400, 401, 403, 404, 413, 429]),
      },
      handler: async (request) => {
        const auth = requireAuth(request);
        const { file } = await readUpload(request, deps.config.uploads.documentMaxBytes);
        try {
          return ok(await attachDocument(deps, auth, actorOf(request), request.params.uuid, request.params.cert_uuid, file), 'Document uploaded');
        } finally {
          await file.dispose();
        }
      },
    });

    /** GET .../{cert_uuid}/document: downloads the stored document. */
    app.get('/api/contractors/:uuid/certifications/:cert_uuid/document', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: 'Download the certificate document',
        params: CertParams,
        response: responses(fileResponse(['application/pdf', 'image/jpeg', 'image/png'], 'the certificate document'), [400, 401, 403, 404, 429]),
      },
      handler: async (request, reply) => {
        const doc = await readDocument(deps, requireAuth(request), request.params.uuid, request.params.cert_uuid);
        return sendStoredFile(request, reply, deps.files, {
          key: doc.key, sha256: doc.sha256, mime: doc.mime, disposition: `attachment; filename="${doc.name}"`, missing: () => notFound('Document'),
        });
      },
    });
  };
}
