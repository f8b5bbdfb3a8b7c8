/**
 * A local server that speaks the S3 protocol (the maintained s3rver fork @20minutes/s3rver:
 * signed requests, multipart upload, ranges), started once per test worker, with one fresh
 * bucket per test app. buildTestApp uses it when CARETAKER_TEST_STORAGE=s3, so the file suites
 * (test/jobs/job-files, test/platform/appearance, certificate documents) run on both backends unchanged.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error the fork ships no type declarations
import S3rver from '@20minutes/s3rver';

/** s3rver's fixed credentials; the SDK reads them from the environment (its default chain). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let server: Promise<{ endpoint: string; close(): Promise<void> }> | undefined;

/** True when the file suites should run against the local S3 server. */
export function testStorageIsS3(): boolean {
  return process.env.CARETAKER_TEST_STORAGE === 's3';
}

/** Starts (once per worker) the local S3 server; returns its endpoint. */
export function localS3(): Promise<{ endpoint: string; close(): Promise<void> }> {
  process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
  server ??= (async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'caretaker-s3rver-'));
    // The fork's SigV4 check disagrees with the current SDK on some query strings (ListObjectsV2,
    // CreateBucket); requests are still signed and parsed as S3 requests, the signature is not compared.
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, allowMismatchedSignatures: true });
    const address = (await s3.run()) as { port: number };
    (s3.httpServer as { unref(): void }).unref();
    return { endpoint: `http://127.0.0.1:${address.port}`, close: () => s3.close() as Promise<void> };
  })();
  return server;
}

/**
 * A fresh bucket on the local S3 server.
 * @returns the environment that points the app at it (STORAGE_DRIVER=s3, ...)
 */
export async function s3TestEnv(): Promise<Record<string, string>> {
  const { endpoint } = await localS3();
  const bucket = `caretaker-test-${randomBytes(6).toString('hex')}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return { STORAGE_DRIVER: 's3', S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1' };
}
