/**
 * History partitions and their retention (docs/operations.md "History partitions and retention").
 * The activity log, job status history, the outbox and both delivery logs are partitioned by UTC
 * month (migration 2026_12_08_0300). The periodic task `history.partitions` (daily, and once at a
 * worker's start) keeps CARETAKER_HISTORY_MONTHS_AHEAD months ready beyond the current one, moves
 * rows that landed in a table's DEFAULT partition into their own month, and retires every month
 * whose end lies further back than the longest period any agency keeps that kind (the retention
 * schedule, src/modules/platform/gdpr/retention.ts): detached, archived to the file store as
 * gzip-compressed JSON lines (CARETAKER_HISTORY_ARCHIVE, default on) and dropped. A month still
 * holding work (an undelivered event, a queued message, a pending webhook) is kept.
 */
import { createGunzip, createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { AppDeps } from '../../../app-deps.ts';
import type { Db } from '../../../db/database.ts';
import type { PeriodicTask } from '../../../events/index.ts';
import * as repo from './history.repository.ts';
import { HISTORY_TABLES, type HistoryTable } from './history.repository.ts';
import { retentionKind } from './retention.ts';

/** Rows per page read for an archive and per insert of a restore. */
const PAGE = 2_000;

/** Start of the UTC month of `d`, moved by `offset` months. */
export function monthStart(d: Date, offset = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
}

/** The partition name of the month starting at `from`: `<table>_pYYYY_MM`. */
export function partitionName(table: string, from: Date): string {
  return `${table}_p${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** What one run did, per table. */
export interface HistoryRun {
  created: string[];
  /** Rows moved out of DEFAULT partitions into their months. */
  moved: number;
  archived: Array<{ partition: string; rows: number; storage_key: string | null }>;
  dropped: string[];
  /** Months past retention kept because they still hold work. */
  kept: string[];
}

/**
 * Creates the missing monthly partitions of `t` for the months starting at `months` (UTC),
 * moving rows of those months out of DEFAULT.
 * @returns the names created and the rows moved
 */
async function createMonths(db: Db, t: HistoryTable, months: Date[]): Promise<{ created: string[]; moved: number }> {
  const created: string[] = [];
  let moved = 0;
  for (const from of [...months].sort((a, b) => a.getTime() - b.getTime())) {
    const to = monthStart(from, 1);
    const parts = await repo.partitionsOf(db, t.table);
    const covered = parts.some((p) => !p.isDefault && (p.from === null || p.from < to) && (p.to === null || p.to > from));
    if (covered) continue;
    const name = partitionName(t.table, from);
    moved += await db.transaction().execute((trx) => repo.createPartition(trx, t, name, from, to));
    created.push(name);
  }
  return { created, moved };
}

/**
 * Creates the missing monthly partitions of `t` from the current month to `monthsAhead` beyond it,
 * and one for every month that has rows in DEFAULT (moving them there).
 */
async function ensureMonths(db: Db, t: HistoryTable, now: Date, monthsAhead: number): Promise<{ created: string[]; moved: number }> {
  const wanted = new Map<number, Date>();
  for (let i = 0; i <= monthsAhead; i++) wanted.set(monthStart(now, i).getTime(), monthStart(now, i));
  for (const m of await repo.monthsInDefault(db, t)) wanted.set(new Date(`${m}T00:00:00Z`).getTime(), new Date(`${m}T00:00:00Z`));
  return createMonths(db, t, [...wanted.values()]);
}

/**
 * Creates the monthly partitions of every history table for the UTC months from `from` to `to`
 * (both included) that none covers yet: a bulk load of old history (the bench's data set) lands in
 * its months rather than in DEFAULT.
 * @returns the partitions created
 */
export async function createHistoryMonths(db: Db, from: Date, to: Date): Promise<string[]> {
  const months: Date[] = [];
  for (let m = monthStart(from); m <= to; m = monthStart(m, 1)) months.push(m);
  const created: string[] = [];
  for (const t of HISTORY_TABLES) created.push(...(await createMonths(db, t, months)).created);
  return created;
}

/**
 * Writes the rows of the detached table `name` to the file store as gzip-compressed JSON lines.
 * @returns the stored file and the number of rows
 */
async function archiveTable(deps: AppDeps, name: string) {
  let count = 0;
  const db = deps.db;
  async function* lines() {
    let after = '-1';
    for (;;) {
      const page = await repo.rowsAfter(db, name, after, PAGE);
      for (const r of page) yield `${r.line}\n`;
      count += page.length;
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.id;
    }
  }
  const gzip = createGzip();
  Readable.from(lines()).on('error', (err) => gzip.destroy(err)).pipe(gzip);
  const stored = await deps.files.putStream(gzip, 'gz');
  return { stored, count };
}

/**
 * Retires the months of `t` whose end is before `cutoff`: detached, archived when `archive`, dropped.
 * A detached table left by a run that stopped midway is finished first.
 */
async function retire(deps: AppDeps, t: HistoryTable, cutoff: Date, archive: boolean, run: HistoryRun): Promise<void> {
  const parts = await repo.partitionsOf(deps.db, t.table);
  const due = parts.filter((p) => !p.isDefault && p.to !== null && p.to <= cutoff);
  for (const p of due) {
    if (await repo.holdsUnfinished(deps.db, t, p.name)) {
      run.kept.push(p.name);
      continue;
    }
    await repo.detachPartition(deps.db, t.table, p.name);
    await finish(deps, t, p.name, p.from, p.to!, archive, run);
  }
  for (const name of await repo.detachedTables(deps.db, t.table)) {
    if (due.some((p) => p.name === name)) continue;
    const bound = name.endsWith('_legacy') ? null : new Date(`${name.slice(-7).replace('_', '-')}-01T00:00:00Z`);
    await finish(deps, t, name, bound, bound ? monthStart(bound, 1) : cutoff, archive, run);
  }
}

/** Archives (when asked) and drops one detached month. */
async function finish(deps: AppDeps, t: HistoryTable, name: string, from: Date | null, to: Date, archive: boolean, run: HistoryRun): Promise<void> {
  let key: string | null = null;
  if (archive && !(await repo.archiveOf(deps.db, name))) {
    const { stored, count } = await archiveTable(deps, name);
    key = stored.key;
    await repo.insertArchive(deps.db, {
      table_name: t.table, partition_name: name, range_from: from, range_to: to, storage_key: stored.key, format: 'jsonl.gz',
      row_count: count, size_bytes: stored.size, sha256: stored.sha256, archived_at: deps.clock.now(),
    });
    run.archived.push({ partition: name, rows: count, storage_key: key });
  }
  await repo.dropTable(deps.db, name);
  run.dropped.push(name);
}

/**
 * One run of partition upkeep over every history table (the `history.partitions` task): safe to
 * run again, and after a run that stopped midway.
 * @returns what was created, moved, archived, dropped and kept
 */
export async function maintainHistory(deps: AppDeps): Promise<HistoryRun> {
  const now = deps.clock.now();
  const run: HistoryRun = { created: [], moved: 0, archived: [], dropped: [], kept: [] };
  const { monthsAhead, archive } = deps.config.history;
  for (const t of HISTORY_TABLES) {
    const made = await ensureMonths(deps.db, t, now, monthsAhead);
    run.created.push(...made.created);
    run.moved += made.moved;
    const months = await repo.longestPeriod(deps.db, t.kind, retentionKind(t.kind)!.months);
    await retire(deps, t, monthStart(now, -months), archive, run);
  }
  return run;
}

/** One partition as `caretaker history status` lists it. */
export interface PartitionStatus {
  table: string;
  partition: string;
  from: string | null;
  to: string | null;
}

/** Every partition of every history table, and the rows waiting in each DEFAULT partition. */
export async function historyStatus(deps: AppDeps): Promise<{ partitions: PartitionStatus[]; default_rows: Record<string, number> }> {
  const partitions: PartitionStatus[] = [];
  const defaultRows: Record<string, number> = {};
  for (const t of HISTORY_TABLES) {
    for (const p of await repo.partitionsOf(deps.db, t.table)) {
      partitions.push({ table: t.table, partition: p.name, from: p.from?.toISOString() ?? null, to: p.to?.toISOString() ?? null });
    }
    defaultRows[t.table] = await repo.defaultRowCount(deps.db, t.table);
  }
  return { partitions, default_rows: defaultRows };
}

/** The archived months, newest first. */
export function historyArchives(deps: AppDeps) {
  return repo.listArchives(deps.db);
}

/**
 * Restores an archived month into a plain table `<partition>_restored` (never attached, so no
 * retention run takes it again): read it with SQL, drop it when done.
 * @param partition the archive's partition name, e.g. `activity_log_p2026_01`
 * @returns the table written and its row count
 * @throws Error when no archive has that name, or the table already exists
 */
export async function restoreArchive(deps: AppDeps, partition: string): Promise<{ table: string; rows: number }> {
  const a = await repo.archiveOf(deps.db, partition);
  if (!a) throw new Error(`No archive of ${partition} (caretaker history archives lists them)`);
  const target = `${partition}_restored`;
  await repo.createRestoreTable(deps.db, a.table_name, target);
  const lines = createInterface({ input: (await deps.files.open(a.storage_key)).pipe(createGunzip()), crlfDelay: Infinity });
  let batch: string[] = [];
  let rows = 0;
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    if (batch.length === PAGE) {
      await repo.insertJsonRows(deps.db, target, batch);
      rows += batch.length;
      batch = [];
    }
  }
  await repo.insertJsonRows(deps.db, target, batch);
  rows += batch.length;
  await repo.markRestored(deps.db, a.id, deps.clock.now());
  return { table: target, rows };
}

/** The daily task keeping the history partitions (docs/operations.md "History partitions and retention"). */
export const historyPartitionsTask: PeriodicTask = {
  name: 'history.partitions',
  cron: '20 2 * * *',
  runAtStart: true,
  run: async (deps, log) => {
    const run = await maintainHistory(deps);
    log?.info({ created: run.created, moved: run.moved, archived: run.archived.length, dropped: run.dropped, kept: run.kept }, 'history partitions kept');
  },
};
