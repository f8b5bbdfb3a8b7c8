/**
 * Backfills of derived state after an upgrade (docs/operations.md "Upgrades"): the registry, the
 * runner and its periodic task. The only door other modules use.
 */
import { backfillTask } from './backfills.service.ts';

export { BACKFILLS, BACKFILL_BATCH, backfillTask, runPendingBackfills, type Backfill, type BackfillRun } from './backfills.service.ts';
export { listBackfills, type BackfillRow } from './backfills.repository.ts';

/** The module's periodic tasks (listed in src/main/background.ts). */
export const periodicTasks = [backfillTask];
