/**
 * Documents and photos of a job (docs/job-files.md; docs/security.md promise 16).
 *
 * Who: whoever can see the job lists and downloads its files, except that files marked internal
 * are for staff only (tenants and contractors do not see them). Staff, the job's contractor and
 * the job's tenant (anyone who can see the job) upload; only staff may mark a file internal.
 * Staff or the uploader delete (soft: the record and the bytes stay, the file disappears from
 * lists and downloads).
 * How: size limits per kind (413 above, nothing stored), type from the content (400 otherwise),
 * stored through deps.files under a generated name with its SHA-256; record and activity entry in
 * one transaction (the stored bytes are removed again when that transaction fails).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findVisibleJob } from '../job-access/index.ts';
import { emitEvent } from '../../../events/index.ts';
import { checkFile, fileCheckError } from '../../../http/file-checks.ts';
import { ACCEPTED_TEXT, jobFileRules, type FileKind } from './file-policy.ts';
import * as repo from './job-files.repository.ts';
import type { JobFileDto } from './job-files.schemas.ts';

export type { Upload } from '../../../http/upload.ts';
import type { Upload } from '../../../http/upload.ts';

const LABEL: Record<FileKind, { one: string; path: string }> = {
  document: { one: 'Document', path: 'documents' },
  photo: { one: 'Photo', path: 'photos' },
};

/** Upload limit of a kind in bytes (config.uploads). */
export function maxBytes(deps: AppDeps, kind: FileKind): number {
  return kind === 'document' ? deps.config.uploads.documentMaxBytes : deps.config.uploads.photoMaxBytes;
}

/** Wire shape of a file row. */
export function toFileDto(row: repo.FileRow): JobFileDto {
  return {
    uuid: row.uuid,
    job_uuid: row.job_uuid,
    kind: row.kind,
    filename: row.original_filename,
    description: row.description,
    mime: row.mime,
    size_bytes: row.size_bytes,
    sha256: row.sha256.trim(),
    internal: row.internal,
    uploaded_by_uuid: row.uploaded_by_uuid ?? null,
    uploaded_by_name: row.uploaded_by_name ?? null,
    created_at: new Date(row.created_at).toISOString(),
    download_url: `/api/jobs/${row.job_uuid}/${LABEL[row.kind].path}/${row.uuid}`,
  };
}

/**
 * GET /api/jobs/{uuid}/documents|photos: one page of a visible job's files, newest first.
 * @returns { rows: JobFileDto[], total }
 * @throws 404 "Job not found"
 */
export async function listJobFiles(deps: AppDeps, auth: AuthContext, jobUuid: string, kind: FileKind, page: { limit: number; offset: number }) {
  const { job, staff } = await findVisibleJob(deps.db, auth, jobUuid);
  const { rows, total } = await repo.listFiles(deps.db, job.id, kind, staff, page);
  return { rows: rows.map(toFileDto), total };
}

function parseInternal(raw: string | undefined, staff: boolean): boolean {
  if (raw === undefined || raw === '') return false;
  const value = raw.trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(value)) throw invalidParam('internal');
  const internal = value === 'true' || value === '1';
  if (internal && !staff) throw invalidParam('internal');
  return internal;
}

/**
 * POST /api/jobs/{uuid}/documents|photos: stores an upload.
 * @param upload the spooled file (already limited to maxBytes by the multipart reader), client name and
 *   the text fields (description up to 500 characters; internal 'true'|'false', staff only)
 * @returns the stored file as JobFileDto
 * @throws 404 "Job not found", 400 for an empty file, an unknown field, a bad description or
 *   internal flag, or content that is not of the kind, or a photo above 50 megapixels (src/http/image-limits.ts);
 *   413 above the kind's limit; 503 when the
 *   file store is down (no row written)
 */
export async function uploadJobFile(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, kind: FileKind, upload: Upload): Promise<JobFileDto> {
  const { job, staff } = await findVisibleJob(deps.db, auth, jobUuid);
  for (const name of Object.keys(upload.fields)) {
    if (!['description', 'internal'].includes(name)) throw invalidParam(name);
  }
  const description = upload.fields.description?.trim() || null;
  if (description !== null && description.length > 500) throw invalidParam('description');
  const internal = parseInternal(upload.fields.internal, staff);
  // The one check of every way in (src/http/file-checks.ts): size, type from the bytes, image pixels, name.
  const verdict = await checkFile(upload.file, upload.filename, jobFileRules(kind, maxBytes(deps, kind), LABEL[kind].one.toLowerCase()));
  if (!verdict.ok) {
    if (verdict.reason === 'empty') throw invalidParam('file');
    throw fileCheckError(verdict, { unsupported_type: `Unsupported file type: ${LABEL[kind].path} must be ${ACCEPTED_TEXT[kind]}` });
  }
  const { type, filename } = verdict;

  // The object first, the row after: a store that is down answers 503 and nothing is recorded.
  const stored = await deps.files.putStream(upload.file.open(), type.ext);
  const now = deps.clock.now();
  const uuid = newUuid();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const id = await repo.insertFile(trx, {
        uuid,
        jobId: job.id,
        agencyId: job.agencyId,
        kind,
        storageKey: stored.key,
        filename,
        mime: type.mime,
        ext: type.ext,
        size: stored.size,
        sha256: stored.sha256,
        description,
        internal,
        uploaderId: auth.userId,
        at: now,
      });
      await recordActivity(trx, actor, now, {
        action: `job_${kind}.upload`,
        resourceType: 'job_file',
        resourceId: id,
        agencyId: job.agencyId,
        details: { job_uuid: job.uuid, file_uuid: uuid, mime: type.mime, size_bytes: stored.size },
      });
      await emitEvent(trx, now, {
        name: 'job.file_added',
        agencyId: job.agencyId,
        payload: { job_id: job.id, job_uuid: job.uuid, reference: job.reference, branch_id: job.branchId, file_id: id, kind },
      });
    });
  } catch (err) {
    await deps.files.delete(stored.key).catch(() => undefined);
    throw err;
  }
  const row = await repo.findFile(deps.db, job.id, kind, uuid, true);
  if (!row) throw new AppError('internal');
  return toFileDto(row);
}

/**
 * GET /api/jobs/{uuid}/documents|photos/{file_uuid}: the record of a downloadable file (the
 * route streams the bytes with sendStoredFile).
 * @returns { file: JobFileDto, key: storage key, downloadName } where downloadName ends in the
 *   stored type's extension
 * @throws 404 "Job not found" / "Document not found" / "Photo not found" (deleted, internal for
 *   a tenant or contractor, or of another job)
 */
export async function downloadJobFile(deps: AppDeps, auth: AuthContext, jobUuid: string, kind: FileKind, fileUuid: string) {
  const { job, staff } = await findVisibleJob(deps.db, auth, jobUuid);
  const row = await repo.findFile(deps.db, job.id, kind, fileUuid, staff);
  if (!row) throw notFound(LABEL[kind].one);
  const exts = row.ext === 'jpg' ? ['jpg', 'jpeg'] : [row.ext];
  const lower = row.original_filename.toLowerCase();
  const downloadName = exts.some((e) => lower.endsWith(`.${e}`)) ? row.original_filename : `${row.original_filename}.${row.ext}`;
  return { file: toFileDto(row), key: row.storage_key, downloadName };
}

/**
 * DELETE /api/jobs/{uuid}/documents|photos/{file_uuid}: soft delete by staff or the uploader,
 * with its activity entry in one transaction. The bytes stay in the store (evidence, integrity
 * scan).
 * @throws 404 as for download, 403 for anyone else
 */
export async function deleteJobFile(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, kind: FileKind, fileUuid: string): Promise<void> {
  const { job, staff } = await findVisibleJob(deps.db, auth, jobUuid);
  const row = await repo.findFile(deps.db, job.id, kind, fileUuid, staff);
  if (!row) throw notFound(LABEL[kind].one);
  if (!staff && row.uploaded_by_user_id !== auth.userId) throw forbidden('Only staff or the uploader may delete a file');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.softDeleteFile(trx, row.id, auth.userId, now))) throw notFound(LABEL[kind].one);
    await recordActivity(trx, actor, now, {
      action: `job_${kind}.delete`,
      resourceType: 'job_file',
      resourceId: row.id,
      agencyId: job.agencyId,
      details: { job_uuid: job.uuid, file_uuid: row.uuid },
    });
  });
}
