/**
 * Sends a stored file from the FileStore, streamed (never read whole into memory), on both
 * backends: Content-Length, ETag (the recorded SHA-256), Accept-Ranges, single byte ranges
 * (206 Partial Content with Content-Range; 416 in the error envelope when unsatisfiable),
 * If-None-Match (304), or a 302 to a presigned URL when the store presigns (S3_PRESIGN_TTL_S).
 * RFC 9110 sections 13.1.2, 13.1.5, 14. docs/operations.md "File storage".
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FileMissingError, type ByteRange, type FileStore } from '../storage/file-store.ts';
import { errorBody } from './envelope.ts';
import type { AppError } from '../core/errors.ts';

export interface StoredFileResponse {
  key: string;
  /** Recorded SHA-256, hex: the ETag. */
  sha256: string;
  mime: string;
  /** Full Content-Disposition value. */
  disposition: string;
  /** The 404 to answer when the bytes are gone from the store. */
  missing: () => AppError;
}

/**
 * Parses a Range header against a file of `size` bytes.
 * @returns the range; 'unsatisfiable' (416); undefined to send the whole file (no header, not a
 *   bytes range, or several ranges, which RFC 9110 lets a server ignore)
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * Answers `request` with the stored file.
 * @throws the `missing()` 404 when the object is gone; 503 (StorageUnavailableError) when the
 *   store is down
 */
export async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, store: FileStore, file: StoredFileResponse): Promise<FastifyReply> {
  const etag = `"${file.sha256.trim()}"`;
  const presigned = await store.presignedUrl(file.key, { mime: file.mime, disposition: file.disposition });
  if (presigned) {
    return reply.header('cache-control', 'no-store').redirect(presigned, 302);
  }
  const size = await store.stat(file.key);
  if (size === undefined) throw file.missing();
  void reply.type(file.mime).header('content-disposition', file.disposition).header('etag', etag).header('accept-ranges', 'bytes');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    return reply.status(304).send();
  }
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? undefined : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.removeHeader('content-disposition');
    return reply.status(416).header('content-range', `bytes */${size}`).type('application/json; charset=utf-8').send(errorBody('Range not satisfiable'));
  }
  let body;
  try {
    body = await store.open(file.key, range);
  } catch (err) {
    if (err instanceof FileMissingError) throw file.missing();
    throw err;
  }
  if (range) {
    void reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
  } else {
    void reply.header('content-length', size);
  }
  return reply.send(body);
}
