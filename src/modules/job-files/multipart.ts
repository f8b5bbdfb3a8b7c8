/**
 * Reading one uploaded file from a multipart/form-data body (field `file`, plus text fields),
 * with a per-route size limit: above it @fastify/multipart throws FST_REQ_FILE_TOO_LARGE, which
 * the error handler renders as 413. The CSRF token of a multipart request comes in X-CSRF-Token.
 */
import type { FastifyRequest } from 'fastify';
import { AppError, invalidParam } from '../../http/errors.ts';
import type { Upload } from './job-files.service.ts';

/**
 * Reads the body.
 * @param maxBytes largest accepted file in bytes
 * @returns the file bytes, the client's file name and the text fields
 * @throws 400 when the body is not multipart, has no `file` part or a file under another name;
 *   413 above maxBytes
 */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) throw new AppError('bad_request', 'Expected a multipart/form-data body with a file field');
  let file: { data: Buffer; filename: string } | undefined;
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 }})) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.fieldname !== 'file' || file) throw invalidParam(part.fieldname);
      file = { data, filename: part.filename };
    } else {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
    }
  }
  if (!file) throw invalidParam('file');
  return { data: file.data, filename: file.filename, fields };
}
