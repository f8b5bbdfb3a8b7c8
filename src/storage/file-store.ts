/**
 * Where uploaded files live (job documents and photos, appearance banners, certificate documents):
 * behind one interface, stored under generated names (never the client's), with size and SHA-256
 * computed while the bytes stream in (docs/operations.md "File storage").
 * Two backends: LocalFileStore under <CARETAKER_DATA_DIR>/files (the embedded default) and
 * S3FileStore (src/storage/s3-store.ts) for S3 and S3-compatible stores.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../core/errors.ts';

export interface StoredFile {
  /** Generated storage key, for example `2026/11/0b6f...e1.pdf`. */
  key: string;
  /** Size in bytes. */
  size: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
}

/** One stored object as listed by `list()`. */
export interface StoredObject {
  key: string;
  /** Size in bytes. */
  size: number;
  lastModified: Date;
}

/** Inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a presigned download should announce. */
export interface PresignOptions {
  /** Content-Type the store should answer with. */
  mime: string;
  /** Full Content-Disposition value. */
  disposition: string;
}

export interface FileStore {
  /** Which backend this is ('local' or 's3'), for logs and the CLI. */
  readonly driver: 'local' | 's3';
  /** Stores `data` under a generated key ending in `.${extension}`. */
  put(data: Buffer, extension: string): Promise<StoredFile>;
  /**
   * Streams `body` into the store under a generated key; size and SHA-256 are computed on the way.
   * @throws StorageUnavailableError (503) when the store cannot be reached
   */
  putStream(body: Readable, extension: string): Promise<StoredFile>;
  /**
   * Writes `body` under an existing key (used by `caretaker storage migrate`).
   * @returns size and SHA-256 of what was written
   */
  putAt(key: string, body: Readable): Promise<StoredFile>;
  /** Reads a whole stored file (small files only); throws FileMissingError when missing. */
  get(key: string): Promise<Buffer>;
  /**
   * Opens a stored file for reading, optionally one byte range of it.
   * @throws FileMissingError when missing, StorageUnavailableError when the store is down
   */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of a stored file in bytes, or undefined when missing. */
  stat(key: string): Promise<number | undefined>;
  /** Removes a stored file; missing files are ignored. */
  delete(key: string): Promise<void>;
  /** Every stored object (keys in the generated shape only). */
  list(): AsyncIterable<StoredObject>;
  /**
   * A short-lived URL the client may download from directly, or undefined when this store does
   * not presign (local disk, or no S3_PRESIGN_TTL_S).
   */
  presignedUrl(key: string, options: PresignOptions): Promise<string | undefined>;
}

/** The shape of every generated key: `YYYY/MM/<uuid>.<ext>`. */
export const KEY_PATTERN = /^[0-9]{4}\/[0-9]{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

/** A fresh key for `extension`, under the current UTC year and month. */
export function newKey(extension: string, now = new Date()): string {
  const ext = extension.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 8) || 'bin';
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${ext}`;
}

/** Throws for a key that is not in the generated shape (never a path from outside). */
export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error('Invalid storage key');
  return key;
}

/** The store cannot be reached or refused the operation: 503 in the envelope. */
export class StorageUnavailableError extends AppError {
  constructor(cause?: unknown) {
    super('unavailable', 'File storage is temporarily unavailable. Please try again.');
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/** The stored object does not exist. */
export class FileMissingError extends Error {
  readonly key: string;

  constructor(key: string) {
    super(`Stored file missing: ${key}`);
    this.key = key;
  }
}

/**
 * A pass-through stream that counts bytes and computes the SHA-256 of what flows through it.
 * (The count is `bytes`, not `size`: lib-storage reads a body's `size` as its total length.)
 */
export class HashingStream extends Transform {
  private readonly hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  /** Hex SHA-256; call once the stream has ended. */
  digest(): string {
    return this.hash.digest('hex');
  }
}

/** SHA-256 (hex) and size of everything `body` yields, read as a stream. */
export async function hashStream(body: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Files on the local disk under `root`. */
export class LocalFileStore implements FileStore {
  readonly driver = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private resolve(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  put(data: Buffer, extension: string): Promise<StoredFile> {
    return this.putStream(Readable.from([data]), extension);
  }

  putStream(body: Readable, extension: string): Promise<StoredFile> {
    return this.write(newKey(extension), body, 'wx');
  }

  putAt(key: string, body: Readable): Promise<StoredFile> {
    return this.write(key, body, 'w');
  }

  private async write(key: string, body: Readable, flags: 'w' | 'wx'): Promise<StoredFile> {
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    const hashing = new HashingStream();
    try {
      await pipeline(body, hashing, createWriteStream(file, { flags }));
    } catch (err) {
      await rm(file, { force: true }).catch(() => undefined);
      throw err;
    }
    return { key, size: hashing.bytes, sha256: hashing.digest() };
  }

  async get(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.resolve(key);
    if ((await this.stat(key)) === undefined) throw new FileMissingError(key);
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<number | undefined> {
    try {
      const info = await stat(this.resolve(key));
      return info.isFile() ? info.size : undefined;
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    let entries: string[];
    try {
      entries = (await readdir(this.root, { recursive: true })).map((e) => e.split(path.sep).join('/'));
    } catch {
      return;
    }
    for (const key of entries.sort()) {
      if (!KEY_PATTERN.test(key)) continue;
      const info = await stat(path.join(this.root, key)).catch(() => undefined);
      if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtime };
    }
  }

  presignedUrl(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}
