/**
 * Files that reach a job from outside an upload form: the attachments of a reply e-mail
 * (docs/conversations.md "Reply by e-mail"). The same policy as an upload (docs/job-files.md):
 * the type is decided from the content (a photo when it is one of the photo types, else a
 * document of the accepted types), the kind's size limit applies, and the bytes are stored under
 * a generated name with their SHA-256. Anything else is refused with a reason and stored nowhere.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import { acceptedType, sanitiseFilename, type FileKind } from './file-policy.ts';
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

/**
 * Checks and stores one incoming file (outside any transaction: the store may be remote).
 * @param content the file's bytes
 * @param filename the sender's name for it (sanitised here)
 * @returns the stored file, or `{ refused }` with a reason (`empty`, `too_large`, `unsupported_type`)
 */
export async function storeIncomingFile(deps: AppDeps, content: Buffer, filename: string | undefined): Promise<StoredIncomingFile | { refused: string }> {
  if (content.length === 0) return { refused: 'empty' };
  const name = sanitiseFilename(filename, 'attachment');
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-incoming-'));
  try {
    const file = path.join(dir, 'file');
    await writeFile(file, content);
    const spooled = { path: file, open: () => createReadStream(file) };
    let kind: FileKind = 'photo';
    let type = await acceptedType('photo', spooled, name);
    if (!type) {
      kind = 'document';
      type = await acceptedType('document', spooled, name);
    }
    if (!type) return { refused: 'unsupported_type' };
    if (content.length > maxBytes(deps, kind)) return { refused: 'too_large' };
    const stored = await deps.files.putStream(Readable.from([content]), type.ext);
    return { kind, storageKey: stored.key, filename: name, mime: type.mime, ext: type.ext, size: stored.size, sha256: stored.sha256 };
  } finally {
    await rm(dir, { recursive: true, force: true });
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
