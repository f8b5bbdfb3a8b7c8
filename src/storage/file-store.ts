/**
 * Where uploaded files live (job documents and photos, appearance banners): behind one interface,
 * stored under generated names (never the client's), with size and SHA-256 recorded by the caller.
 * The local implementation writes under <CARETAKER_DATA_DIR>/files; tests use a temporary folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../lib/crypto.ts';

export interface StoredFile {
  /** Generated storage key, for example `2026/11/0b6f...e1.pdf`. */
  key: string;
  /** Size in bytes. */
  size: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
}

export interface FileStore {
  /** Stores `data` under a generated key ending in `.${extension}`. */
  put(data: Buffer, extension: string): Promise<StoredFile>;
  /** Reads a stored file; throws when missing. */
  get(key: string): Promise<Buffer>;
  /** Removes a stored file; missing files are ignored. */
  delete(key: string): Promise<void>;
}

/** Files on the local disk under `root`. */
export class LocalFileStore implements FileStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private resolve(key: string): string {
    if (!/^[0-9]{4}\/[0-9]{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/.test(key)) throw new Error('Invalid storage key');
    return path.join(this.root, key);
  }

  async put(data: Buffer, extension: string): Promise<StoredFile> {
    const now = new Date();
    const ext = extension.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 8) || 'bin';
    const key = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${ext}`;
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data, { flag: 'wx' });
    return { key, size: data.length, sha256: sha256Hex(data) };
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.resolve(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }
}
