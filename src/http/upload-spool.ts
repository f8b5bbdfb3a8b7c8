/**
 * The file part of a multipart upload, streamed to a private temporary file while its size and
 * SHA-256 are computed, so no upload is ever held whole in memory (docs/operations.md "File
 * storage"). The services then sniff its type from the file and stream it to the FileStore.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HashingStream } from '../storage/file-store.ts';

/** An upload spooled to disk. */
export interface SpooledFile {
  /** Size in bytes. */
  size: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
  /** Path of the temporary file (for type sniffing). */
  path: string;
  /** A fresh stream of the content. */
  open(): Readable;
  /** The whole content (only for small files such as banners and certificate scans). */
  read(): Promise<Buffer>;
  /** Removes the temporary file; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Streams `source` to a temporary file.
 * @returns the spooled file; the caller disposes of it when the request ends
 * @throws whatever `source` throws (for example the multipart reader's file-too-large error);
 *   the temporary file is removed first
 */
export async function spoolToDisk(source: Readable): Promise<SpooledFile> {
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-upload-'));
  const file = path.join(dir, 'upload');
  const dispose = () => rm(dir, { recursive: true, force: true });
  const hashing = new HashingStream();
  try {
    await pipeline(source, hashing, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    size: hashing.bytes,
    sha256: hashing.digest(),
    path: file,
    open: () => createReadStream(file),
    read: () => readFile(file),
    dispose,
  };
}
