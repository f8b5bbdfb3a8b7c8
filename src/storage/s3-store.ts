/**
 * Files in an S3 bucket or an S3-compatible store (MinIO, Cloudflare R2, Backblaze B2, ...),
 * through AWS's own SDK: @aws-sdk/client-s3 for single requests, @aws-sdk/lib-storage for
 * streamed multipart uploads (parts of `partSize` bytes, at most `queueSize` parts in memory),
 * @aws-sdk/s3-request-presigner for short-lived download URLs. Credentials come from the SDK's
 * default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile, instance role, ...).
 * Configuration: docs/operations.md "File storage".
 */
import { createRequire } from 'node:module';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import {
  checkKey, FileMissingError, HashingStream, KEY_PATTERN, newKey, StorageUnavailableError,
  type ByteRange, type FileStore, type PresignOptions, type StoredFile, type StoredObject,
} from './file-store.ts';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** Endpoint of an S3-compatible store, e.g. http://127.0.0.1:9000; undefined for AWS. */
  endpoint: string | undefined;
  /** Path-style addressing (https://host/bucket/key), needed by MinIO and most local servers. */
  forcePathStyle: boolean;
  /** Lifetime of presigned download URLs in seconds; 0 turns presigning off. */
  presignTtlS: number;
  /** Multipart part size in bytes (at least 5 MiB; files smaller than this go in one PUT). */
  partSize?: number;
}

const MIN_PART = 5 * 1024 * 1024;

let sdk: { s3: typeof ClientS3; storage: typeof LibStorage; presigner: typeof Presigner } | undefined;
/**
 * The AWS SDK (its CommonJS build), loaded when the first S3 store is made: a server on local
 * storage never loads it (docs/operations.md "Starting").
 */
function awsSdk(): NonNullable<typeof sdk> {
  if (!sdk) {
    const load = createRequire(import.meta.url);
    sdk = {
      s3: load('@aws-sdk/client-s3') as typeof ClientS3,
      storage: load('@aws-sdk/lib-storage') as typeof LibStorage,
      presigner: load('@aws-sdk/s3-request-presigner') as typeof Presigner,
    };
  }
  return sdk;
}

function isMissing(err: unknown): boolean {
  if (err instanceof awsSdk().s3.S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
  }
  return false;
}

/** S3 (or compatible) implementation of FileStore. */
export class S3FileStore implements FileStore {
  readonly driver = 's3' as const;
  readonly client: ClientS3.S3Client;
  private readonly partSize: number;
  private readonly options: S3StoreOptions;

  constructor(options: S3StoreOptions) {
    this.options = options;
    this.client = new (awsSdk().s3.S3Client)({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
      // S3-compatible stores do not all accept the newer default CRC checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.partSize = Math.max(options.partSize ?? MIN_PART, MIN_PART);
  }

  put(data: Buffer, extension: string): Promise<StoredFile> {
    return this.putStream(Readable.from([data]), extension);
  }

  putStream(body: Readable, extension: string): Promise<StoredFile> {
    return this.putAt(newKey(extension), body);
  }

  async putAt(key: string, body: Readable): Promise<StoredFile> {
    checkKey(key);
    const hashing = new HashingStream();
    body.on('error', (err) => hashing.destroy(err));
    body.pipe(hashing);
    const upload = new (awsSdk().storage.Upload)({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: hashing },
      partSize: this.partSize,
      queueSize: 2,
      // The SDK's own abort on error would hide the first error behind the abort's; incomplete
      // multipart uploads are removed by the bucket's lifecycle rule (docs/operations.md).
      leavePartsOnError: true,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      throw new StorageUnavailableError(err);
    }
    return { key, size: hashing.bytes, sha256: hashing.digest() };
  }

  async get(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    checkKey(key);
    try {
      const res = await this.client.send(new (awsSdk().s3.GetObjectCommand)({
        Bucket: this.options.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }));
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new FileMissingError(key);
      throw new StorageUnavailableError(err);
    }
  }

  async stat(key: string): Promise<number | undefined> {
    checkKey(key);
    try {
      const res = await this.client.send(new (awsSdk().s3.HeadObjectCommand)({ Bucket: this.options.bucket, Key: key }));
      return res.ContentLength ?? 0;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw new StorageUnavailableError(err);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      await this.client.send(new (awsSdk().s3.DeleteObjectCommand)({ Bucket: this.options.bucket, Key: key }));
    } catch (err) {
      if (isMissing(err)) return;
      throw new StorageUnavailableError(err);
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      let res;
      try {
        res = await this.client.send(new (awsSdk().s3.ListObjectsV2Command)({ Bucket: this.options.bucket, ContinuationToken: token }));
      } catch (err) {
        throw new StorageUnavailableError(err);
      }
      for (const item of res.Contents ?? []) {
        if (!item.Key || !KEY_PATTERN.test(item.Key)) continue;
        yield { key: item.Key, size: item.Size ?? 0, lastModified: item.LastModified ?? new Date(0) };
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  async presignedUrl(key: string, options: PresignOptions): Promise<string | undefined> {
    if (this.options.presignTtlS <= 0) return undefined;
    const command = new (awsSdk().s3.GetObjectCommand)({
      Bucket: this.options.bucket, Key: checkKey(key), ResponseContentType: options.mime, ResponseContentDisposition: options.disposition,
    });
    return awsSdk().presigner.getSignedUrl(this.client, command, { expiresIn: this.options.presignTtlS });
  }

  /** Closes the SDK's sockets. */
  close(): void {
    this.client.destroy();
  }
}
