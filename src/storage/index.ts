/**
 * The storage module's public door: the FileStore interface, both backends, and the factory that
 * picks one from the configuration (STORAGE_DRIVER; docs/operations.md "File storage").
 */
import path from 'node:path';
import type { Config } from '../config/config.ts';
import { LocalFileStore, type FileStore } from './file-store.ts';
import { S3FileStore } from './s3-store.ts';

export * from './file-store.ts';
export { S3FileStore, type S3StoreOptions } from './s3-store.ts';

/**
 * The configured store.
 * @param localDir folder of the local backend (default <dataDir>/files)
 * @returns a LocalFileStore for STORAGE_DRIVER=local, an S3FileStore for s3
 */
export function createFileStore(config: Readonly<Config>, localDir?: string): FileStore {
  if (config.storage.driver === 's3') {
    const s3 = config.storage.s3;
    return new S3FileStore({
      bucket: s3.bucket!, region: s3.region, endpoint: s3.endpoint, forcePathStyle: s3.forcePathStyle, presignTtlS: s3.presignTtlS,
    });
  }
  return new LocalFileStore(localDir ?? path.join(config.dataDir, 'files'));
}
