/**
 * The `caretaker storage ...` sub-commands (docs/operations.md "Moving files to S3"):
 *   caretaker storage migrate --from local --to s3   (or --from s3 --to local)
 * local is <CARETAKER_DATA_DIR>/files; s3 is the bucket of S3_BUCKET/S3_REGION/S3_ENDPOINT/
 * S3_FORCE_PATH_STYLE, whatever STORAGE_DRIVER says.
 */
import type { Config } from '../../config/config.ts';
import { migrateFiles } from '../../modules/platform/storage/index.ts';
import { openRuntime } from '../runtime.ts';
import { createFileStore, S3FileStore, type FileStore } from '../../storage/index.ts';

export const STORAGE_USAGE = 'Usage: caretaker storage migrate --from local|s3 --to s3|local';

function storeFor(config: Readonly<Config>, driver: 'local' | 's3'): FileStore {
  if (driver === 's3' && !config.storage.s3.bucket) throw new Error('S3_BUCKET must be set to migrate to or from s3');
  return createFileStore({ ...config, storage: { ...config.storage, driver } });
}

/**
 * Runs a storage sub-command.
 * @param args the words after `storage`
 * @returns the exit code: 0 done, 1 some files failed, 2 usage or configuration error
 */
export async function storageCommand(config: Readonly<Config>, args: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const from = flag('--from');
  const to = flag('--to');
  const valid = (d: string | undefined): d is 'local' | 's3' => d === 'local' || d === 's3';
  if (args[0] !== 'migrate' || !valid(from) || !valid(to) || from === to) {
    err(STORAGE_USAGE);
    return 2;
  }
  let source: FileStore;
  let target: FileStore;
  try {
    source = storeFor(config, from);
    target = storeFor(config, to);
  } catch (e) {
    err((e as Error).message);
    return 2;
  }
  const runtime = await openRuntime(config);
  try {
    const report = await migrateFiles(runtime.deps.db, source, target, out);
    for (const failure of report.failed) err(`${failure.key}: ${failure.reason}`);
    return report.failed.length > 0 ? 1 : 0;
  } finally {
    for (const store of [source, target]) if (store instanceof S3FileStore) store.close();
    await runtime.close();
  }
}
