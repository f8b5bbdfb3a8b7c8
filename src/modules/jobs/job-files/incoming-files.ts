/**
 * Files that reach a job from outside an upload form: the attachments of a reply e-mail
 * (docs/conversations.md "Reply by e-mail"). The same check as an upload (checkFile,
 * src/http/file-checks.ts; docs/security.md "One rule for every way in"): the type is decided from
 * the content (a photo when it is one of the photo types, else a document of the accepted types),
 * the kind's size limit and the image pixel limit apply, the name is cleaned, and the bytes are
 * stored under a generated name with their SHA-256. Anything else is refused with a reason and
 * stored nowhere.
 */
import { Readable } from 'node:stream';
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import { checkFile, type FileRefusal } from '../../../http/file-checks.ts';
import { spoolToDisk } from '../../../http/upload-spool.ts';
import { jobFileRules, type FileKind } from './file-policy.ts';
import { insertFile } from './job-files.repository.ts';
import { maxBytes } from './job-files.service.ts';

/** Bytes accepted and stored, waiting for their record. */
export interface StoredIncomingFile {
  kind: FileKind;
  storageKey: string;
  filename: string;
  mime: string;
  ext: string;
  size: number;
  sha256: string;
}

/** An incoming file kept out: why (checkFile's reasons), a sentence saying so, and its cleaned name. */
export interface RefusedIncomingFile {
  refused: FileRefusal;
  message: string;
  filename: string;
}

/**
 * Checks and stores one incoming file (outside any transaction: the store may be remote), through
 * the same check as an upload (checkFile, src/http/file-checks.ts): a photo when the content is
 * one of the photo types within the photo limits (size, 50 megapixels), else a document of the
 * accepted types within the document size limit; the name cleaned.
 * @param content the file's bytes
 * @param filename the sender's name for it (cleaned here)
 * @returns the stored file, or what kept it out (`empty`, `too_large`, `unsupported_type`,
 *   `image_too_large`, `image_without_size`); a refused file is stored nowhere
 */
export async function storeIncomingFile(deps: AppDeps, content: Buffer, filename: string | undefined): Promise<StoredIncomingFile | RefusedIncomingFile> {
  const file = await spoolToDisk(Readable.from([content]));
  try {
    const asPhoto = await checkFile(file, filename, jobFileRules('photo', maxBytes(deps, 'photo'), 'attachment'));
    let kind: FileKind = 'photo';
    let verdict = asPhoto;
    // Not a photo (or larger than a photo may be): perhaps a document. An image refused for its
    // pixels or header stays refused: no image type is a document.
    if (!asPhoto.ok && (asPhoto.reason === 'unsupported_type' || asPhoto.reason === 'too_large')) {
      const asDocument = await checkFile(file, filename, jobFileRules('document', maxBytes(deps, 'document'), 'attachment'));
      kind = 'document';
      verdict = !asDocument.ok && asDocument.reason === 'unsupported_type' && asPhoto.reason === 'too_large' ? asPhoto : asDocument;
    }
    if (!verdict.ok) return { refused: verdict.reason, message: verdict.message, filename: verdict.filename };
    const stored = await deps.files.putStream(file.open(), verdict.type.ext);
    return { kind, storageKey: stored.key, filename: verdict.filename, mime: verdict.type.mime, ext: verdict.type.ext, size: stored.size, sha256: stored.sha256 };
  } finally {
    await file.dispose();
  }
}

/**
 * Records a stored incoming file on a job, with its `job.file_added` event, in the caller's
 * transaction.
 * @returns the new file's id
 */
export async function recordIncomingFile(
  trx: DbOrTrx,
  f: StoredIncomingFile & { uuid: string; job: { id: number; uuid: string; agencyId: number; reference: string; branchId: number }; uploaderId: number | null; internal: boolean; description: string | null; at: Date },
): Promise<number> {
  const id = await insertFile(trx, {
    uuid: f.uuid, jobId: f.job.id, agencyId: f.job.agencyId, kind: f.kind, storageKey: f.storageKey, filename: f.filename, mime: f.mime, ext: f.ext,
    size: f.size, sha256: f.sha256, description: f.description, internal: f.internal, uploaderId: f.uploaderId, at: f.at,
  });
  await emitEvent(trx, f.at, {
    name: 'job.file_added',
    agencyId: f.job.agencyId,
    payload: { job_id: f.job.id, job_uuid: f.job.uuid, reference: f.job.reference, branch_id: f.job.branchId, file_id: id, kind: f.kind },
  });
  return id;
}
