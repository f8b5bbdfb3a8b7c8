/**
 * Backfills of derived state after an upgrade (docs/operations.md "Upgrades"). A migration that
 * adds derived state inserts a row into `data_backfills` naming one of the backfills below; the
 * background worker runs it on the queue (the periodic task `backfills.run`, also queued when a
 * worker starts) in batches by ascending id, each batch its own transaction, logging progress, and
 * resumes from its cursor after a restart. Every batch is idempotent, so a batch done twice (a
 * worker that died after the work, before the bookkeeping) does no harm.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { PeriodicTask, TaskLogger } from '../../../events/index.ts';
import { backfillClocksBatch, countOpenJobs } from '../../jobs/sla/index.ts';
import { backfillAddressPartsBatch, countAddressesForBackfill } from '../../people/addresses/index.ts';
import { countTotpSecretsForBackfill, sealTotpSecretsBatch } from '../../people/auth/index.ts';
import * as repo from './backfills.repository.ts';

/** A backfill: how many rows it has, and one batch after a cursor. */
export interface Backfill {
  /** What it fills, for the log and `caretaker migrate --plan`. */
  description: string;
  count(deps: AppDeps): Promise<number>;
  /** Does the rows with an id above `afterId`, at most `size`; 0 rows done means complete. */
  batch(deps: AppDeps, afterId: number, size: number): Promise<{ count: number; lastId: number }>;
}

/** Every backfill a migration may ask for, by the name it inserts into data_backfills. */
export const BACKFILLS: Readonly<Record<string, Backfill>> = {
  'sla.clocks': {
    description: 'SLA clocks of every open job (docs/sla.md)',
    count: countOpenJobs,
    batch: backfillClocksBatch,
  },
  'addresses.parts': {
    description: 'PAF parts of every address read from its lines (docs/tenants.md "Address parts")',
    count: countAddressesForBackfill,
    batch: backfillAddressPartsBatch,
  },
  'auth.totp-secrets': {
    description: 'TOTP secrets stored before encryption, encrypted under the secrets key (docs/security.md "Secrets at rest")',
    count: countTotpSecretsForBackfill,
    batch: sealTotpSecretsBatch,
  },
};

/** Rows per batch (one transaction each). */
export const BACKFILL_BATCH = 500;

/** How long a worker holds a backfill between two batches before another may take it over. */
const LEASE_MS = 5 * 60_000;

/** What a run did to each backfill it touched. */
export interface BackfillRun {
  name: string;
  done: number;
  total: number;
  finished: boolean;
}

/**
 * Runs every unfinished backfill this worker can lease, to the end.
 * @param log progress lines: one when a backfill starts, one per batch (done/total and percent), one at the end
 * @returns what was done; a backfill leased by another worker is skipped; one that failed is logged,
 *   keeps its cursor and is tried again on the next run
 */
export async function runPendingBackfills(deps: AppDeps, log: TaskLogger, size = BACKFILL_BATCH): Promise<BackfillRun[]> {
  const runs: BackfillRun[] = [];
  for (const name of await repo.unfinishedNames(deps.db)) {
    const backfill = BACKFILLS[name];
    if (!backfill) {
      log.error({ backfill: name }, `backfill ${name} is unknown to this build (a newer release asked for it); left for that release`);
      continue;
    }
    const leaseUntil = () => new Date(deps.clock.now().getTime() + LEASE_MS);
    const row = await repo.lease(deps.db, name, deps.clock.now(), leaseUntil());
    if (!row) continue;
    try {
      let total = row.total;
      if (total === null) {
        total = await backfill.count(deps);
        await repo.setTotal(deps.db, name, total);
      }
      log.info({ backfill: name, done: row.done, total }, `backfill ${name}: ${backfill.description}, ${row.done === 0 ? 'starting' : 'resuming'} (${row.done}/${total})`);
      let cursor = row.cursor_id;
      let done = row.done;
      for (;;) {
        const step = await backfill.batch(deps, cursor, size);
        if (step.count === 0) break;
        cursor = step.lastId;
        done += step.count;
        await repo.advance(deps.db, name, cursor, step.count, leaseUntil());
        const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 100;
        log.info({ backfill: name, done, total, percent }, `backfill ${name}: ${done}/${total} (${percent}%)`);
        if (step.count < size) break;
      }
      await repo.finish(deps.db, name, deps.clock.now());
      log.info({ backfill: name, done, total }, `backfill ${name}: done (${done} rows)`);
      runs.push({ name, done, total, finished: true });
    } catch (err) {
      const message = (err as Error).message;
      await repo.fail(deps.db, name, message).catch(() => undefined);
      log.error({ backfill: name, err: message }, `backfill ${name} failed; it resumes from its last batch on the next run`);
      runs.push({ name, done: row.done, total: row.total ?? 0, finished: false });
    }
  }
  return runs;
}

/** `backfills.run`: every minute and once when a worker starts, once per cluster. */
export const backfillTask: PeriodicTask = {
  name: 'backfills.run',
  cron: '* * * * *',
  runAtStart: true,
  async run(deps, log) {
    await runPendingBackfills(deps, log ?? { info: () => {}, error: () => {} });
  },
};
