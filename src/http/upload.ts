/**
 * Reading one uploaded file from a multipart/form-data body (field `file`, plus text fields),
 * with a per-route size limit. Shared by job documents and photos, the dashboard banner and
 * certificate documents. The CSRF token of a multipart request comes in X-CSRF-Token or as the
 * form field `csrf_token` (spec 5.3): the pipeline leaves the latter to `readUpload`, so an upload
 * route reads its form with `readUpload` before it does anything else.
 */
import type { FastifyRequest } from 'fastify';
import { noteBodyHash } from '../db/idempotency-claim.ts';
import { AppError, invalidParam } from '../core/errors.ts';
import { requestHash } from './idempotency.ts';
import { findBadText, isBadText } from './input-guard.ts';
import { spoolToDisk, type SpooledFile } from './upload-spool.ts';

/** The upload as read from the multipart body. */
export interface Upload {
  /** The file, spooled to disk with its size and SHA-256; dispose() it when done. */
  file: SpooledFile;
  filename: string | undefined;
  /** The text fields sent beside the file. */
  fields: Record<string, string>;
}

/**
 * Reads the body.
 * @param maxBytes largest accepted file in bytes
 * @param tooLargeMessage the 413 text (default: the error handler's "Request body is too large")
 * @returns the spooled file (never held whole in memory), the client's file name and the text
 *   fields; the caller calls `upload.file.dispose()` when done
 * @throws 400 'Invalid or missing required parameter: file' when the body is not multipart, has
 *   no `file` part, carries a file under another name or a second file, or cannot be parsed at all
 *   (no boundary, truncated, mismatched boundary, bad part headers: every parser failure is a 400,
 *   docs/security.md promise 27); 400 naming a text field or `file` (its name) holding a NUL or a lone
 *   surrogate; 413 above maxBytes or over the part limits; 403 'Invalid or missing CSRF token' when
 *   the token was left to the form field and that is missing, used or of another session
 */
export async function readUpload(request: FastifyRequest, maxBytes: number, tooLargeMessage?: string): Promise<Upload> {
  if (!request.isMultipart()) throw invalidParam('file');
  let file: { data: SpooledFile; filename: string } | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type === 'file') {
        const data = await spoolToDisk(part.file);
        if (part.file.truncated) {
          await data.dispose();
          throw new AppError('payload_too_large', tooLargeMessage);
        }
        if (part.fieldname !== 'file' || file) {
          await data.dispose();
          throw invalidParam('file');
        }
        file = { data, filename: part.filename };
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    await file?.data.dispose();
    const code = (err as { code?: string }).code;
    if (tooLargeMessage && code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', tooLargeMessage);
    }
    if (err instanceof AppError || code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw err;
    // Anything else comes from the multipart parser (busboy): the body is malformed.
    throw invalidParam('file');
  }
  if (!file) throw invalidParam('file');
  if (file.filename !== undefined && isBadText(file.filename)) {
    await file.data.dispose();
    throw invalidParam('file');
  }
  const bad = findBadText(fields);
  if (bad !== undefined) {
    await file.data.dispose();
    throw invalidParam(bad);
  }
  const csrf = fields.csrf_token;
  delete fields.csrf_token;
  if (request.deferredCsrf) {
    const check = request.deferredCsrf;
    request.deferredCsrf = null;
    try {
      await check(csrf);
    } catch (err) {
      await file.data.dispose();
      throw err;
    }
  }
  // The Idempotency-Key's body hash: the text fields and the file's bytes (its SHA-256).
  try {
    noteBodyHash(requestHash(`${request.method} ${request.url}`, { fields, file: { sha256: file.data.sha256, size: file.data.size, filename: file.filename ?? null } }));
  } catch (err) {
    await file.data.dispose();
    throw err;
  }
  return { file: file.data, filename: file.filename, fields };
}
