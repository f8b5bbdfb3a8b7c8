/**
 * Reading one uploaded file from a multipart/form-data body (field `file`, plus text fields),
 * with a per-route size limit. Shared by job documents and photos, the dashboard banner and
 * certificate documents. The CSRF token of a multipart request comes in X-CSRF-Token or as the
 * form field `csrf_token` (spec 5.3): the pipeline leaves the latter to `readUpload`, so an upload
 * route reads its form with `readUpload` before it does anything else.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Config } from '../config/config.ts';
import { AppError, invalidParam } from '../core/errors.ts';
import { requestHash } from './request-hash.ts';
import { findBadText, isBadText } from './input-guard.ts';
import { spoolToDisk, type SpooledFile } from './upload-spool.ts';

const MULTIPART = 'multipart/form-data';

/**
 * Registers multipart/form-data parsing (@fastify/multipart) on the plugin scope of a module with
 * upload routes, and only there: the plugin adds an onRequest and an onResponse hook and five
 * request fields to every request of its scope, which the reads and writes of every other module
 * would otherwise pay for nothing. Call it first in such a module's plugin; `assertUploadScopes`
 * refuses to start when a route that declares multipart is outside such a scope. The file size
 * limit here is the largest configured one; each upload route passes its own to `readUpload`.
 * @param uploads the configured upload limits in bytes (documents, photos, banners)
 */
export async function registerUploadParsing(app: FastifyInstance, uploads: Config['uploads']): Promise<void> {
  const { documentMaxBytes, photoMaxBytes, bannerMaxBytes } = uploads;
  await app.register(multipart, {
    limits: { fileSize: Math.max(documentMaxBytes, photoMaxBytes, bannerMaxBytes), files: 1, fields: 20, parts: 25 },
    throwFileSizeLimit: true,
  });
}

/**
 * Registers, on the root instance, the start-up check of `registerUploadParsing`: a route whose
 * schema declares multipart/form-data in a scope without the parser would answer 415 to every
 * upload, so the app refuses to start instead.
 * @throws Error at route registration, naming the route
 */
export function assertUploadScopes(app: FastifyInstance): void {
  app.addHook('onRoute', function check(this: FastifyInstance, route) {
    const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes;
    if (consumes?.includes(MULTIPART) && !this.hasContentTypeParser(MULTIPART)) {
      throw new Error(`Refusing to start: ${String(route.method)} ${route.url} takes ${MULTIPART} outside a scope that called registerUploadParsing`);
    }
  });
}

/**
 * True when the request is an upload: its route declares multipart/form-data and its body is one.
 * Safe on any route (the parser's `isMultipart` exists only in upload scopes).
 */
export function isUpload(request: FastifyRequest): boolean {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  return consumes?.includes(MULTIPART) === true && request.isMultipart();
}

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
  // The Idempotency-Key is claimed with the body's hash: the text fields and the file's bytes (its
  // SHA-256); a repeat is answered instead (src/http/idempotency.ts).
  try {
    await request.idempotency?.claimBody(requestHash(`${request.method} ${request.url}`, { fields, file: { sha256: file.data.sha256, size: file.data.size, filename: file.filename ?? null } }));
  } catch (err) {
    await file.data.dispose();
    throw err;
  }
  return { file: file.data, filename: file.filename, fields };
}
