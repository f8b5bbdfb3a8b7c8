/**
 * Orphan cleanup (docs/operations.md "File storage"): an object is stored before its record is
 * written, so a transaction that fails after the upload, or a store that was down during a
 * delete, can leave an object no record refers to. This task removes such objects once they are
 * older than CARETAKER_STORAGE_ORPHAN_AGE_H hours (young objects may belong to an upload whose
 * transaction is still running).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { PeriodicTask } from '../../../events/handlers.ts';
import type { StoredObject } from '../../../storage/file-store.ts';
import { referencedKeys } from './storage.repository.ts';

const BATCH = 500;

/**
 * Removes unreferenced objects older than the configured age.
 * @returns { checked: objects old enough to judge, removed: keys removed }
 * @throws 503 (StorageUnavailableError) when the store is down
 */
export async function removeOrphans(deps: AppDeps): Promise<{ checked: number; removed: string[] }> {
  const cutoff = deps.clock.now().getTime() - deps.config.storage.orphanMaxAgeH * 3_600_000;
  const removed: string[] = [];
  let checked = 0;
  let batch: StoredObject[] = [];
  const flush = async () => {
    const referenced = await referencedKeys(deps.db, batch.map((o) => o.key));
    for (const object of batch) {
      if (referenced.has(object.key)) continue;
      await deps.files.delete(object.key);
      removed.push(object.key);
    }
    batch = [];
  };
  for await (const object of deps.files.list()) {
    if (object.lastModified.getTime() > cutoff) continue;
    checked += 1;
    batch.push(object);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { checked, removed };
}

/** Periodic task `storage.orphan_cleanup`: hourly at minute 17, once per cluster. Idempotent. */
export const orphanCleanupTask: PeriodicTask = {
  name: 'storage.orphan_cleanup',
  cron: '17 * * * *',
  async run(deps) {
    await removeOrphans(deps);
  },
};
