/** Imports of properties, tenants, contractors and landlords (docs/onboarding.md). Rules live in imports.service.ts. */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, fileResponse, ok, okWithLongArray, responses } from '../../../http/envelope.ts';
import { AppError } from '../../../core/errors.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { readUpload, registerUploadParsing } from '../../../http/upload.ts';
import { cleanFileName } from '../../../http/file-checks.ts';
import { ENTITIES, type Entity } from './entities.ts';
import { Import, TemplateParams } from './imports.schemas.ts';
import * as service from './imports.service.ts';

const TAGS = ['imports'];
/** Largest accepted file (10 MiB: about 100,000 rows of properties). */
const MAX_BYTES = 10 * 1024 * 1024;

/** Registers the import routes. */
export function importsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);
    /** POST /api/imports: upload and dry run. */
    app.post('/api/imports', {
      config: { permission: 'api.imports.manage' },
      schema: {
        tags: TAGS,
        summary: 'Upload a file to import (dry run)',
        description:
          'multipart/form-data: `file` (CSV or XLSX, at most 10 MiB), `entity` (addresses, tenants, contractors or landlords with their properties and shares), optional ' +
          '`skip_bad_rows` (true: commit leaves bad rows out; default false: a file with a bad row commits nothing). Encoding ' +
          '(UTF-8, UTF-16, Windows-1252) and delimiter (, ; TAB |) are detected. Checks every row and writes nothing but the ' +
          'import: the answer lists every row with its outcome (create, update, unchanged, error with column and reason). ' +
          'Send the CSRF token in X-CSRF-Token or the form field `csrf_token`.',
        // Declares the multipart body: without it the media-type check (src/http/methods.ts) answers
        // 415 before the handler, and the pipeline would not leave the form's csrf_token to readUpload.
        consumes: ['multipart/form-data'],
        response: responses(DataEnvelope(Import), [400, 401, 403, 413, 415, 429], 201),
      },
      handler: async (request, reply) => {
        const upload = await readUpload(request, MAX_BYTES, 'The file is larger than 10 MiB; split it');
        try {
          const entity = upload.fields.entity as Entity;
          if (!ENTITIES.includes(entity)) throw new AppError('invalid_parameter', 'entity');
          const skip = upload.fields.skip_bad_rows ?? 'false';
          if (skip !== 'true' && skip !== 'false') throw new AppError('invalid_parameter', 'skip_bad_rows');
          const result = await service.createImport(deps, { ...actorOf(request), auth: requireAuth(request) }, {
            entity,
            skipBadRows: skip === 'true',
            fileName: cleanFileName(upload.filename, `${entity}.csv`),
            bytes: await upload.file.read(),
          });
          const { rows, ...summary } = result;
          const message = `Dry run: ${result.counts.create} to create, ${result.counts.update} to update, ${result.counts.unchanged} unchanged, ${result.counts.error} with errors`;
          // Every row of a file of up to 50,000 rows: written in slices, not in one go (okWithLongArray).
          return reply.status(201).type('application/json; charset=utf-8').send(await okWithLongArray(summary, 'rows', rows, message));
        } finally {
          await upload.file.dispose();
        }
      },
    });

    /** GET /api/imports/templates/{entity}.csv: the columns expected. */
    app.get('/api/imports/templates/:entity', {
      config: { permission: 'api.imports.manage' },
      schema: {
        tags: TAGS,
        summary: 'Download an import template',
        description: 'addresses.csv, tenants.csv, contractors.csv or landlords.csv: the header row and one example row (UTF-8 CSV).',
        params: TemplateParams,
        response: responses(fileResponse(['text/csv'], 'The template: a header row and one example row, UTF-8 CSV'), [400, 401, 403, 429]),
      },
      handler: async (request, reply) => {
        const entity = request.params.entity.replace(/\.csv$/, '') as Entity;
        void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${entity}.csv"`);
        return service.templateCsv(entity);
      },
    });

    /** GET /api/imports/{uuid}: progress and error rows. */
    app.get('/api/imports/:uuid', {
      config: { permission: 'api.imports.manage' },
      schema: {
        tags: TAGS,
        summary: 'Read an import and its progress',
        description: 'status, rows_done of rows_total, error_count, counts per outcome, and the rows with errors.',
        params: UuidParams,
        response: responses(DataEnvelope(Import), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await service.getImport(deps, requireAuth(request), request.params.uuid), 'Import retrieved'),
    });

    /** POST /api/imports/{uuid}/commit: writes the checked rows. */
    app.post('/api/imports/:uuid/commit', {
      config: { permission: 'api.imports.manage' },
      schema: {
        tags: TAGS,
        summary: 'Commit an import',
        description:
          'Writes the rows of a checked import. Up to 2,000 rows to write: written before the answer (200, status committed). More: ' +
          'queued (202, status queued), written by the background worker in chunks of 1,000 with progress in GET /api/imports/{uuid}; ' +
          'a stopped commit resumes after its last chunk. A file with rows in error and without skip_bad_rows: 409, nothing written.',
        params: UuidParams,
        response: responses(DataEnvelope(Import), [400, 401, 403, 404, 409, 429], 200),
      },
      handler: async (request, reply) => {
        const { import: imp, queued } = await service.commitImport(deps, { ...actorOf(request), auth: requireAuth(request) }, request.params.uuid);
        if (queued) void reply.status(202);
        return ok(imp, queued ? 'Import queued; follow its progress with GET /api/imports/{uuid}' : 'Import committed');
      },
    });
  };
}
