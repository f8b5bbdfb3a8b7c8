/**
 * Storage configuration: the local folder by default, S3 with its settings, and errors that name
 * the variable at fault.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

describe('storage configuration', () => {
  it('defaults to the local folder with presigning off', () => {
    const c = loadConfig({});
    expect(c.storage.driver).toBe('local');
    expect(c.storage.s3.presignTtlS).toBe(0);
    expect(c.storage.orphanMaxAgeH).toBe(24);
  });

  it('reads the S3 settings', () => {
    const c = loadConfig({
      STORAGE_DRIVER: 's3', S3_BUCKET: 'caretaker-files', S3_REGION: 'auto', S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com/',
      S3_FORCE_PATH_STYLE: 'true', S3_PRESIGN_TTL_S: '300',
    });
    expect(c.storage).toMatchObject({
      driver: 's3', s3: { bucket: 'caretaker-files', region: 'auto', endpoint: 'https://acc.r2.cloudflarestorage.com', forcePathStyle: true, presignTtlS: 300 },
    });
  });

  it.each([
    [{ STORAGE_DRIVER: 'gcs' }, 'STORAGE_DRIVER'],
    [{ STORAGE_DRIVER: 's3' }, 'S3_BUCKET'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'ok-bucket', S3_PRESIGN_TTL_S: '999999' }, 'S3_PRESIGN_TTL_S'],
    [{ S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE'],
  ])('refuses %o naming %s', (env, variable) => {
    let err: unknown;
    try {
      loadConfig(env as Record<string, string>);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(variable);
  });
});

describe('caretaker storage command', () => {
  it('refuses a wrong usage or a missing bucket with exit code 2 and a message, touching nothing', async () => {
    const { storageCommand, STORAGE_USAGE } = await import('../../src/main/cli/storage.ts');
    const errors: string[] = [];
    const config = loadConfig({});
    expect(await storageCommand(config, ['migrate', '--from', 'local'], () => undefined, (l) => errors.push(l))).toBe(2);
    expect(await storageCommand(config, ['migrate', '--from', 's3', '--to', 's3'], () => undefined, (l) => errors.push(l))).toBe(2);
    expect(await storageCommand(config, ['migrate', '--from', 'local', '--to', 's3'], () => undefined, (l) => errors.push(l))).toBe(2);
    expect(errors).toEqual([STORAGE_USAGE, STORAGE_USAGE, 'S3_BUCKET must be set to migrate to or from s3']);
  });
});
