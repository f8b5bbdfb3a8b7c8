/**
 * SQL of the history partitions (docs/operations.md "History partitions and retention"): the
 * monthly partitions of the partitioned history tables, read from the catalogue; creating a month
 * (moving its rows out of the DEFAULT partition first), detaching and dropping one, reading a
 * partition's rows for its archive, and the archives' bookkeeping (history_archives).
 * Table and partition names come from HISTORY_TABLES and the catalogue only, never from a request.
 */
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { HistoryArchiveTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** One partitioned history table: its time column and the retention kind that governs it. */
export interface HistoryTable {
  table: 'activity_log' | 'job_status_history' | 'outbox' | 'message_deliveries' | 'webhook_deliveries';
  column: 'created_at' | 'occurred_at';
  /** The retention kind (src/modules/platform/gdpr/retention.ts). */
  kind: string;
  /** A row that is still work, not history: a month holding one is never dropped. */
  unfinished?: string;
}

export const HISTORY_TABLES: readonly HistoryTable[] = [
  { table: 'activity_log', column: 'created_at', kind: 'activity_log' },
  { table: 'job_status_history', column: 'created_at', kind: 'job_history' },
  { table: 'outbox', column: 'occurred_at', kind: 'event_log', unfinished: 'published_at is null' },
  { table: 'message_deliveries', column: 'created_at', kind: 'message_log', unfinished: "status = 'queued'" },
  { table: 'webhook_deliveries', column: 'created_at', kind: 'webhook_log', unfinished: "status = 'pending'" },
];

/** One partition of a history table. */
export interface Partition {
  name: string;
  /** Start of its range (inclusive); null for MINVALUE (the legacy partition) and for DEFAULT. */
  from: Date | null;
  /** End of its range (exclusive); null for DEFAULT. */
  to: Date | null;
  isDefault: boolean;
}

/** A timestamp as PostgreSQL prints it in a partition bound ('2026-12-01 00:00:00+00'). */
function boundDate(text: string): Date {
  const iso = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return new Date(iso);
}

/**
 * The partitions of `table` with their ranges, oldest first (DEFAULT last).
 * @throws when a bound is not a timestamp range (not a table of HISTORY_TABLES)
 */
export async function partitionsOf(db: DbOrTrx, table: string): Promise<Partition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = ${table}::regclass`.execute(db);
  const parts = rows.map((r): Partition => {
    if (r.bound === 'DEFAULT') return { name: r.name, from: null, to: null, isDefault: true };
    const m = /FROM \((MINVALUE|'([^']+)')\) TO \((MAXVALUE|'([^']+)')\)/.exec(r.bound);
    if (!m) throw new Error(`Unexpected partition bound of ${r.name}: ${r.bound}`);
    return { name: r.name, from: m[2] ? boundDate(m[2]) : null, to: m[4] ? boundDate(m[4]) : null, isDefault: false };
  });
  return parts.sort((a, b) => (a.isDefault ? 1 : b.isDefault ? -1 : (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity)));
}

/** The UTC months ('YYYY-MM-01') that rows in `table`'s DEFAULT partition fall in, oldest first. */
export async function monthsInDefault(db: DbOrTrx, t: HistoryTable): Promise<string[]> {
  const { rows } = await sql<{ month: string }>`
    select distinct to_char(date_trunc('month', ${sql.ref(t.column)} at time zone 'UTC'), 'YYYY-MM-DD') as month
      from ${sql.table(`${t.table}_default`)} order by 1`.execute(db);
  return rows.map((r) => r.month);
}

/** Rows in `table`'s DEFAULT partition. */
export async function defaultRowCount(db: DbOrTrx, table: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(`${table}_default`)}`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Creates the partition `name` for [from, to) of `t`. Rows of that range waiting in the DEFAULT
 * partition are moved into it first (PostgreSQL refuses a new partition whose rows sit in DEFAULT):
 * the month is built as a plain table, filled from DEFAULT in the same statement that deletes them
 * there, then attached. Run inside a transaction.
 * @returns the number of rows moved out of DEFAULT
 */
export async function createPartition(trx: DbOrTrx, t: HistoryTable, name: string, from: Date, to: Date): Promise<number> {
  const parent = sql.table(t.table);
  const part = sql.table(name);
  const col = sql.ref(t.column);
  const fromIso = sql.lit(from.toISOString());
  const toIso = sql.lit(to.toISOString());
  const { rows } = await sql<{ any: boolean }>`
    select exists (select 1 from ${sql.table(`${t.table}_default`)} where ${col} >= ${from} and ${col} < ${to}) as any`.execute(trx);
  if (!rows[0]!.any) {
    await sql`create table ${part} partition of ${parent} for values from (${fromIso}) to (${toIso})`.execute(trx);
    return 0;
  }
  await sql`create table ${part} (like ${parent} including defaults including constraints)`.execute(trx);
  const moved = await sql`
    with moved as (delete from ${sql.table(`${t.table}_default`)} where ${col} >= ${from} and ${col} < ${to} returning *)
    insert into ${part} select * from moved`.execute(trx);
  await sql`alter table ${part} add constraint ${sql.id(`${name}_bound`)} check (${col} >= ${fromIso} and ${col} < ${toIso})`.execute(trx);
  await sql`alter table ${parent} attach partition ${part} for values from (${fromIso}) to (${toIso})`.execute(trx);
  await sql`alter table ${part} drop constraint ${sql.id(`${name}_bound`)}`.execute(trx);
  return Number(moved.numAffectedRows ?? 0);
}

/** Whether partition `name` of `t` still holds work (an undelivered event, a queued message). */
export async function holdsUnfinished(db: DbOrTrx, t: HistoryTable, name: string): Promise<boolean> {
  if (!t.unfinished) return false;
  const { rows } = await sql<{ any: boolean }>`select exists (select 1 from ${sql.table(name)} where ${sql.raw(t.unfinished)}) as any`.execute(db);
  return rows[0]!.any;
}

/** Detaches partition `name` from `table` (it stays as a plain table until dropped). */
export async function detachPartition(db: DbOrTrx, table: string, name: string): Promise<void> {
  await sql`alter table ${sql.table(table)} detach partition ${sql.table(name)}`.execute(db);
}

/** Drops a detached partition. */
export async function dropTable(db: DbOrTrx, name: string): Promise<void> {
  await sql`drop table if exists ${sql.table(name)}`.execute(db);
}

/** Whether a plain table `name` exists (a partition detached by a run that stopped before dropping it). */
export async function detachedTables(db: DbOrTrx, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind = 'r' and not c.relispartition
       and (c.relname like ${`${table}\\_p____\\___`} or c.relname = ${`${table}_legacy`})`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * One page of a table's rows as JSON text, in id order after `afterId` (keyset paging).
 * @returns up to `limit` rows: their id and the row as one JSON object
 */
export async function rowsAfter(db: DbOrTrx, name: string, afterId: string, limit: number): Promise<Array<{ id: string; line: string }>> {
  const { rows } = await sql<{ id: string; line: string }>`
    select t.id::text as id, row_to_json(t)::text as line from ${sql.table(name)} t
     where t.id > ${afterId}::bigint order by t.id limit ${limit}`.execute(db);
  return rows;
}

/** Records one archived month. */
export async function insertArchive(db: DbOrTrx, row: Insertable<HistoryArchiveTable>): Promise<void> {
  await db.insertInto('history_archives').values(row).onConflict((oc) => oc.columns(['table_name', 'partition_name']).doNothing()).execute();
}

/** Every archived month, newest archive first. */
export function listArchives(db: DbOrTrx) {
  return db.selectFrom('history_archives').selectAll().orderBy('archived_at', 'desc').orderBy('id', 'desc').execute();
}

/** One archive by its partition name, or undefined. */
export function archiveOf(db: DbOrTrx, partitionName: string) {
  return db.selectFrom('history_archives').selectAll().where('partition_name', '=', partitionName).executeTakeFirst();
}

/** Marks an archive restored at `now`. */
export async function markRestored(db: DbOrTrx, id: number, now: Date): Promise<void> {
  await db.updateTable('history_archives').set({ restored_at: now }).where('id', '=', id).execute();
}

/** Creates the plain table `name` with the columns of `table` (where an archive is restored). */
export async function createRestoreTable(db: DbOrTrx, table: string, name: string): Promise<void> {
  await sql`create table ${sql.table(name)} (like ${sql.table(table)} including defaults)`.execute(db);
}

/** Inserts rows given as JSON objects into `name` (columns by name; unknown keys ignored). */
export async function insertJsonRows(db: DbOrTrx, name: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const array = `[${lines.join(',')}]`;
  await sql`insert into ${sql.table(name)} select * from jsonb_populate_recordset(null::${sql.table(name)}, ${array}::jsonb)`.execute(db);
}

/**
 * The longest period in months any agency keeps `kind` (its own setting, else `defaultMonths`):
 * a month of the shared tables is dropped only when every agency's period has passed.
 */
export async function longestPeriod(db: DbOrTrx, kind: string, defaultMonths: number): Promise<number> {
  const r = await db
    .selectFrom('agencies as a')
    .leftJoin('retention_periods as p', (j) => j.onRef('p.agency_id', '=', 'a.id').on('p.record_kind', '=', kind))
    .select((eb) => eb.fn.max(eb.fn.coalesce('p.months', eb.val(defaultMonths))).as('months'))
    .executeTakeFirst();
  return r?.months === null || r?.months === undefined ? defaultMonths : Number(r.months);
}
