/**
 * The periodic task `sla.scan` (docs/sla.md "At risk and breached"): every minute, moves running
 * clocks past their at-risk instant to `at_risk` and clocks past `due_at` to `breached`, with an
 * `sla.at_risk` / `sla.breached` event and an activity entry each. Runs in batches, each its own
 * transaction; the conditional updates (state still running, rows locked or skipped) make two
 * instances scanning at once flag every clock exactly once.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { PeriodicTask } from '../../../events/index.ts';
import { flagAtRisk, flagBreached } from './clocks.repository.ts';
import { announceFlagged } from './recompute.ts';

/** Clocks moved per transaction. */
export const SCAN_BATCH = 1_000;

/**
 * One scan: breaches first, then at-risk clocks, each in batches until none is left.
 * @returns how many clocks moved to each state
 */
export async function scanSlaClocks(deps: AppDeps, batch = SCAN_BATCH): Promise<{ breached: number; at_risk: number }> {
  const now = deps.clock.now();
  const moved = { breached: 0, at_risk: 0 };
  for (const state of ['breached', 'at_risk'] as const) {
    for (;;) {
      const n = await deps.db.transaction().execute(async (trx) => {
        const flagged = state === 'breached' ? await flagBreached(trx, now, batch) : await flagAtRisk(trx, now, batch);
        await announceFlagged(trx, now, state, flagged);
        return flagged.length;
      });
      moved[state] += n;
      if (n < batch) break;
    }
  }
  return moved;
}

/** `sla.scan`, every minute, once per cluster. */
export const slaScanTask: PeriodicTask = {
  name: 'sla.scan',
  cron: '* * * * *',
  async run(deps) {
    await scanSlaClocks(deps);
  },
};
