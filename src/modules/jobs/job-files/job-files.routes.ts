/**
 * Documents and photos of a job (docs/job-files.md): under /api/jobs/{uuid}/documents and
 * /api/jobs/{uuid}/photos, GET (list), POST (multipart upload: field `file`, optional
 * `description`, `internal`), GET /{file_uuid} (download), DELETE /{file_uuid} (soft delete).
 */
import type { AppDeps } from '../../../app-deps.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { ACCEPTED_TEXT, contentDisposition, type FileKind } from './file-policy.ts';
import { FileParams, JobFile, JobParams, ListFilesQuery } from './job-files.schemas.ts';
import { deleteJobFile, downloadJobFile, listJobFiles, maxBytes, uploadJobFile } from './job-files.service.ts';
import { notFound } from '../../../core/errors.ts';
import { readUpload, registerUploadParsing } from '../../../http/upload.ts';
import { sendStoredFile } from '../../../http/send-file.ts';

const KINDS: Array<{ kind: FileKind; path: string; one: string; permission: string }> = [
  { kind: 'document', path: 'documents', one: 'Document', permission: 'api.jobs.documents.manage' },
  { kind: 'photo', path: 'photos', one: 'Photo', permission: 'api.jobs.photos.manage' },
];

/** Registers the document and photo routes. */
export function jobFilesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);
    for (const { kind, path, one, permission } of KINDS) {
      const base = `/api/jobs/:uuid/${path}`;
      const limit = maxBytes(deps, kind);

      /** GET .../{path}: the live files of a visible job, newest first. */
      app.get(base, {
        config: { permission },
        schema: {
          tags: ['jobs'],
          summary: `List the ${path} of a job`,
          description: `Whoever can see the job; files marked internal are listed for staff only. Newest first.`,
          params: JobParams,
          querystring: ListFilesQuery,
          response: responses(ListEnvelope(JobFile), [400, 401, 403, 404, 429]),
        },
        handler: async (request) => {
          const { rows, total } = await listJobFiles(deps, requireAuth(request), request.params.uuid, kind, request.query);
          return list(rows, total, `${one}s retrieved`);
        },
      });

      /** POST .../{path}: multipart upload of one file. */
      app.post(base, {
        config: { permission },
        schema: {
          tags: ['jobs'],
          summary: `Upload a ${one.toLowerCase()} to a job`,
          description:
            `multipart/form-data with field \`file\` and optional \`description\` (up to 500 characters) and \`internal\` ` +
            `(true/false, staff only). Accepted content: ${ACCEPTED_TEXT[kind]}, decided from the bytes, not the name; ` +
            `at most ${limit} bytes (413 above). Send the CSRF token in X-CSRF-Token.`,
          params: JobParams,
          consumes: ['multipart/form-data'],
          response: responses(DataEnvelope(JobFile), [400, 401, 403, 404, 413, 429], 201),
        },
        handler: async (request, reply) => {
          const auth = requireAuth(request);
          const upload = await readUpload(request, limit);
          try {
            const file = await uploadJobFile(deps, auth, actorOf(request), request.params.uuid, kind, upload);
            void reply.status(201);
            return ok(file, `${one} uploaded`);
          } finally {
            await upload.file.dispose();
          }
        },
      });

      /** GET .../{path}/{file_uuid}: the stored bytes. */
      app.get(`${base}/:file_uuid`, {
        config: { permission },
        schema: {
          tags: ['jobs'],
          summary: `Download a ${one.toLowerCase()}`,
          description:
            'The stored bytes with the stored content type, Content-Disposition (attachment for documents, inline for ' +
            'photos) with the sanitised name, ETag and Repr-Digest carrying the recorded SHA-256. Streams the bytes; ' +
            'a single `Range: bytes=` answers 206 with Content-Range (416 when unsatisfiable); If-None-Match answers 304; ' +
            'with S3_PRESIGN_TTL_S set on an S3 store, 302 to a short-lived presigned URL. 503 when the file store is down.',
          params: FileParams,
          response: responses(fileResponse(kind === 'photo' ? ['image/*'] : ['*/*'], 'the file content, with its stored Content-Type'), [400, 401, 403, 404, 429, 503]),
        },
        handler: async (request, reply) => {
          const { uuid, file_uuid } = request.params;
          const { file, key, downloadName } = await downloadJobFile(deps, requireAuth(request), uuid, kind, file_uuid);
          void reply
            .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`)
            .header('content-security-policy', "default-src 'none'; sandbox");
          return sendStoredFile(request, reply, deps.files, {
            key, sha256: file.sha256, mime: file.mime,
            disposition: contentDisposition(kind === 'photo' ? 'inline' : 'attachment', downloadName),
            missing: () => notFound(one),
          });
        },
      });

      /** DELETE .../{path}/{file_uuid}: soft delete by staff or the uploader. */
      app.delete(`${base}/:file_uuid`, {
        config: { permission },
        schema: {
          tags: ['jobs'],
          summary: `Delete a ${one.toLowerCase()} (soft)`,
          description:
            'Staff or the uploader. The file disappears from lists and downloads; the record and the bytes are kept ' +
            '(evidence, integrity scan). Needs a CSRF token.',
          params: FileParams,
          body: CsrfOnlyBody,
          response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
        },
        handler: async (request) => {
          const { uuid, file_uuid } = request.params;
          await deleteJobFile(deps, requireAuth(request), actorOf(request), uuid, kind, file_uuid);
          return done(`${one} deleted`);
        },
      });
    }
  };
}
