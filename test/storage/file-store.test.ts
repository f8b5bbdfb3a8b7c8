/**
 * The FileStore contract on both backends (local disk and S3 through a local S3 server): streamed
 * puts with size and SHA-256 computed on the way (multipart above the part size on S3), ranges,
 * stat, list, delete, missing objects, and a store that is down.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  FileMissingError, hashStream, LocalFileStore, S3FileStore, StorageUnavailableError, type FileStore,
} from '../../src/storage/index.ts';
import { localS3, s3TestEnv } from '../helpers/s3-server.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function makeStore(driver: 'local' | 's3'): Promise<FileStore> {
  if (driver === 'local') return new LocalFileStore(await mkdtemp(path.join(tmpdir(), 'caretaker-store-')));
  const env = await s3TestEnv();
  return new S3FileStore({ bucket: env.S3_BUCKET!, region: 'us-east-1', endpoint: env.S3_ENDPOINT, forcePathStyle: true, presignTtlS: 60 });
}

/** A stream of `total` pseudo-random bytes in 64 KiB chunks, never held whole. */
function generated(total: number, seed: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let left = total;
  let i = seed;
  while (left > 0) {
    const n = Math.min(65_536, left);
    const chunk = Buffer.alloc(n, i++ % 251);
    hash.update(chunk);
    chunks.push(chunk);
    left -= n;
  }
  return { stream: Readable.from(chunks), sha256: hash.digest('hex') };
}

describe.each(['local', 's3'] as const)('FileStore on %s', (driver) => {
  it('streams a put, records size and SHA-256, and reads back whole, by range and by stat', async () => {
    const store = await makeStore(driver);
    const data = randomBytes(10_000);
    const stored = await store.putStream(Readable.from([data.subarray(0, 4000), data.subarray(4000)]), 'PNG');
    expect(stored).toMatchObject({ size: 10_000, sha256: sha(data) });
    expect(stored.key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    expect((await store.get(stored.key)).equals(data)).toBe(true);
    const part = Buffer.concat(await (await store.open(stored.key, { start: 100, end: 199 })).toArray());
    expect(part.equals(data.subarray(100, 200))).toBe(true);
    expect(await store.stat(stored.key)).toBe(10_000);
    const listed = [];
    for await (const o of store.list()) listed.push(o);
    expect(listed.map((o) => o.key)).toEqual([stored.key]);
    expect(listed[0]!.size).toBe(10_000);
    await store.delete(stored.key);
    expect(await store.stat(stored.key)).toBeUndefined();
    await expect(store.open(stored.key)).rejects.toBeInstanceOf(FileMissingError);
    await store.delete(stored.key); // deleting twice is fine
  });

  it('streams a 12 MB file (multipart upload on S3) with the hash computed on the way', async () => {
    const store = await makeStore(driver);
    const big = generated(12 * 1024 * 1024 + 7, 3);
    const stored = await store.putStream(big.stream, 'bin');
    expect(stored.size).toBe(12 * 1024 * 1024 + 7);
    expect(stored.sha256).toBe(big.sha256);
    expect((await hashStream(await store.open(stored.key))).sha256).toBe(big.sha256);
  });

  it('rejects keys that are not generated ones (no path from outside reaches the store)', async () => {
    const store = await makeStore(driver);
    await expect(store.open('../../etc/passwd')).rejects.toThrow('Invalid storage key');
  });
});

describe('S3 store that is down', () => {
  it('fails with StorageUnavailableError (503), not a generic error', async () => {
    await localS3(); // sets the test credentials
    const store = new S3FileStore({ bucket: 'caretaker-down', region: 'us-east-1', endpoint: 'http://127.0.0.1:9', forcePathStyle: true, presignTtlS: 0 });
    const err = await store.putStream(Readable.from([Buffer.from('x')]), 'txt').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageUnavailableError);
    expect((err as StorageUnavailableError).statusCode).toBe(503);
    await expect(store.stat('2026/11/00000000-0000-0000-0000-000000000000.png')).rejects.toBeInstanceOf(StorageUnavailableError);
    store.close();
  });
});
