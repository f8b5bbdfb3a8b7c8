/**
 * The storage module's public door (docs/operations.md "File storage"): the orphan-cleanup
 * periodic task and the local-to-S3 migration (run by the `caretaker storage` command,
 * src/main/cli/storage.ts). The FileStore itself lives in src/storage/.
 */
import type { PeriodicTask } from '../../../events/handlers.ts';
import { fileIntegrityScanTask } from '../../jobs/job-files/index.ts';
import { orphanCleanupTask } from './orphans.ts';

export { removeOrphans, orphanCleanupTask } from './orphans.ts';
export { migrateFiles, type MigrateReport } from './migrate.ts';
export { recordedFiles } from './storage.repository.ts';

/** The periodic tasks of file storage: integrity scan (daily) and orphan cleanup (hourly). */
export const periodicTasks: PeriodicTask[] = [fileIntegrityScanTask, orphanCleanupTask];
