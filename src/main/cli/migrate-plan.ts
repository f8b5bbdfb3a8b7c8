/**
 * `caretaker migrate --plan` (docs/operations.md "Upgrades"): prints the pending migrations in the
 * order they would run, each with its class (`expand`: safe while older instances serve;
 * `contract`: every instance must run the new release first) and the backfill it asks for, and the
 * unfinished backfills. Opens the database, changes nothing.
 */
import type { Config } from '../../config/config.ts';
import { createDatabase } from '../../db/database.ts';
import { migrationStatus, unfinishedBackfills, type MigrationStatus } from '../../db/migrate.ts';

/**
 * The plan's lines for a status.
 * @param unfinished backfills not yet finished, with done/total
 */
export function planLines(status: MigrationStatus, unfinished: ReadonlyArray<{ name: string; done: number; total: number | null }>): string[] {
  const lines: string[] = [];
  if (status.newer.length > 0) {
    lines.push(`The database has ${status.newer.length} migration(s) of a newer release: ${status.newer.join(', ')}.`);
  }
  if (status.pending.length === 0) {
    lines.push(`No pending migrations (${status.applied.length} applied).`);
  } else {
    lines.push(`${status.pending.length} pending migration(s), in the order they run (${status.applied.length} applied):`);
    const width = Math.max(...status.pending.map((p) => p.name.length));
    for (const p of status.pending) {
      lines.push(`  ${p.name.padEnd(width)}  ${p.phase.padEnd(8)}  ${p.summary}${p.backfill ? `; then backfill ${p.backfill} on the queue` : ''}`);
    }
    const contract = status.pending.filter((p) => p.phase === 'contract');
    lines.push(
      contract.length === 0
        ? 'All expand: migrate while the older instances serve, then restart them one at a time.'
        : `${contract.length} contract: upgrade every instance to the release before this one's, then migrate (docs/operations.md "Upgrades").`,
    );
  }
  for (const b of unfinished) lines.push(`Backfill ${b.name} unfinished: ${b.done}/${b.total ?? '?'} (the background worker runs it).`);
  return lines;
}

/**
 * Prints the plan.
 * @returns exit code 0
 */
export async function migratePlan(config: Readonly<Config>, out: (line: string) => void): Promise<number> {
  const database = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2, pooler: config.databasePooler });
  try {
    const status = await migrationStatus(database.db);
    const unfinished = status.applied.includes('2026_11_26_0800_backfills') ? await unfinishedBackfills(database.db) : [];
    for (const line of planLines(status, unfinished)) out(line);
    return 0;
  } finally {
    await database.close();
  }
}
