// History partitioned by month (docs/operations.md "History partitions and retention"): the activity
// log, job status history, the outbox, the message delivery log and the webhook delivery log become
// PostgreSQL declarative partitioned tables, PARTITION BY RANGE on their time column (created_at;
// the outbox's occurred_at), with one partition per UTC month (`<table>_pYYYY_MM`) and a DEFAULT
// partition (`<table>_default`) as a safety net. Monthly partitions ahead are created by the
// worker's periodic task `history.partitions`; this migration creates this month's and the next 3.
//
// Conversion path, chosen so that no row is copied: the existing table is renamed to
// `<table>_legacy`, a partitioned table with the old name, columns, defaults, checks, foreign keys,
// indexes and sequence is created, and the old table is attached to it as one partition covering
// everything before the next month (a CHECK constraint on the time column first, so the attach
// does not scan again). The lock is held for one sequential scan of the CHECK and one index build
// of the new keys (primary keys and unique keys must include the partition column); copying rows in
// batches instead would write every row twice (heap and WAL) for a 10,000,000-row log. An operator
// may build `(id, <time column>)` unique indexes CONCURRENTLY beforehand; the attach reuses a
// matching index. An empty old table is simply dropped.
//
// Keys that change: the primary keys become (id, time column); outbox (event_id) and the
// deliveries' uuid and idempotency slots become unique together with the time column. A delivery's
// slot stays one row per (event, message, recipient, channel) because the handler run that writes
// it is itself recorded once per (handler, event) in the same transaction (event_handler_runs).
// sms_messages.delivery_id keeps its value but loses its foreign key (a key to a partitioned table
// must name its partition column).
//
// Also: history_archives, one row per archived month (table, month, storage key, rows, bytes).
// Expand for the schema (same tables, same columns); run while no older instance writes the
// duplicated slot shapes of deliveries (their ON CONFLICT target changes): classed contract.
// Frozen: never import application code here.
import { sql, type Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

interface Converted {
  table: string;
  column: string;
  /** Constraint-backed unique keys to re-create with the partition column: name -> columns. */
  uniques: Record<string, string[]>;
}

const TABLES: Converted[] = [
  { table: 'activity_log', column: 'created_at', uniques: {} },
  { table: 'job_status_history', column: 'created_at', uniques: {} },
  { table: 'outbox', column: 'occurred_at', uniques: { outbox_event_id_key: ['event_id'] } },
  {
    table: 'message_deliveries', column: 'created_at',
    uniques: { message_deliveries_uuid_key: ['uuid'], message_deliveries_slot: ['event_id', 'template_key', 'recipient_key', 'channel'] },
  },
  {
    table: 'webhook_deliveries', column: 'created_at',
    uniques: { webhook_deliveries_uuid_key: ['uuid'], webhook_deliveries_endpoint_id_message_id_key: ['endpoint_id', 'message_id'] },
  },
];

const MONTHS_AHEAD = 3;

async function rows<T>(db: Kysely<any>, text: string): Promise<T[]> {
  return (await sql.raw<T>(text).execute(db)).rows;
}

/** 'YYYY-MM-01' of the UTC month `offset` months after `month` ('YYYY-MM-01'). */
function monthPlus(month: string, offset: number): string {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + offset);
  return d.toISOString().slice(0, 10);
}

async function convert(db: Kysely<any>, t: Converted): Promise<void> {
  const { table, column } = t;
  const legacy = `${table}_legacy`;
  const constraintIndexes = (await rows<{ name: string }>(db, `
    select i.relname as name from pg_constraint c join pg_class i on i.oid = c.conindid
     where c.conrelid = '${table}'::regclass and c.contype in ('p', 'u')`)).map((r) => r.name);
  const indexes = (await rows<{ indexname: string; indexdef: string }>(db, `
    select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = '${table}' order by indexname`))
    .filter((i) => !constraintIndexes.includes(i.indexname));
  const foreignKeys = await rows<{ conname: string; def: string }>(db, `
    select conname, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = '${table}'::regclass and contype = 'f' order by conname`);
  const triggers = await rows<{ tgname: string; def: string }>(db, `
    select tgname, pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = '${table}'::regclass and not tgisinternal order by tgname`);
  const sequences = await rows<{ seq: string }>(db, `select pg_get_serial_sequence('${table}', 'id') as seq`);

  // A key to the old table cannot point at the partitioned one (it would have to name the partition column).
  const referencing = await rows<{ rel: string; conname: string }>(db, `
    select conrelid::regclass::text as rel, conname from pg_constraint where confrelid = '${table}'::regclass and contype = 'f'`);
  for (const r of referencing) await sql.raw(`alter table ${r.rel} drop constraint ${r.conname}`).execute(db);

  await sql.raw(`alter table ${table} rename to ${legacy}`).execute(db);
  for (const name of constraintIndexes) {
    const con = await rows<{ conname: string }>(db, `select conname from pg_constraint where conrelid = '${legacy}'::regclass and conindid = '${name}'::regclass`);
    await sql.raw(`alter table ${legacy} drop constraint ${con[0]!.conname}`).execute(db);
  }
  for (const i of indexes) await sql.raw(`alter index ${i.indexname} rename to ${i.indexname}_legacy`).execute(db);
  for (const tg of triggers) await sql.raw(`drop trigger ${tg.tgname} on ${legacy}`).execute(db);

  await sql.raw(`create table ${table} (like ${legacy} including defaults including constraints) partition by range (${column})`).execute(db);
  const seq = sequences[0]?.seq;
  if (seq) await sql.raw(`alter sequence ${seq} owned by ${table}.id`).execute(db);
  await sql.raw(`alter table ${table} add constraint ${table}_pkey primary key (id, ${column})`).execute(db);
  for (const [name, cols] of Object.entries(t.uniques)) {
    await sql.raw(`alter table ${table} add constraint ${name} unique (${[...cols, column].join(', ')})`).execute(db);
  }
  for (const fk of foreignKeys) await sql.raw(`alter table ${table} add constraint ${fk.conname} ${fk.def}`).execute(db);
  for (const i of indexes) await sql.raw(i.indexdef).execute(db);
  for (const tg of triggers) await sql.raw(tg.def).execute(db);

  const [stats] = await rows<{ any: boolean; last: string | null; next: string }>(db, `
    select exists (select 1 from ${legacy}) as any,
           to_char(date_trunc('month', max(${column}) at time zone 'UTC') + interval '1 month', 'YYYY-MM-DD') as last,
           to_char(date_trunc('month', now() at time zone 'UTC') + interval '1 month', 'YYYY-MM-DD') as next
      from ${legacy}`);
  const thisMonth = monthPlus(stats!.next, -1);
  let from = thisMonth;
  if (stats!.any) {
    const bound = stats!.last && stats!.last > stats!.next ? stats!.last : stats!.next;
    await sql.raw(`alter table ${legacy} add constraint ${legacy}_bound check (${column} < '${bound}T00:00:00Z')`).execute(db);
    await sql.raw(`alter table ${table} attach partition ${legacy} for values from (minvalue) to ('${bound}T00:00:00Z')`).execute(db);
    from = bound;
  } else {
    await sql.raw(`drop table ${legacy}`).execute(db);
  }
  const until = monthPlus(thisMonth, MONTHS_AHEAD + 1);
  for (let m = from; m < until; m = monthPlus(m, 1)) {
    await sql.raw(`create table ${table}_p${m.slice(0, 4)}_${m.slice(5, 7)} partition of ${table}
      for values from ('${m}T00:00:00Z') to ('${monthPlus(m, 1)}T00:00:00Z')`).execute(db);
  }
  await sql.raw(`create table ${table}_default partition of ${table} default`).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const t of TABLES) await convert(db, t);
  await runScript(db, `
    create table history_archives (
      id serial primary key,
      table_name text not null,
      partition_name text not null,
      range_from timestamptz,
      range_to timestamptz not null,
      storage_key text not null,
      format text not null,
      row_count bigint not null,
      size_bytes bigint not null,
      sha256 text not null,
      archived_at timestamptz not null,
      restored_at timestamptz,
      unique (table_name, partition_name)
    );
  `);
}

/** Back to plain tables: every partition's rows copied into one table under the old name. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table if exists history_archives').execute(db);
  for (const { table, column, uniques } of [...TABLES].reverse()) {
    const sequences = await rows<{ seq: string }>(db, `select pg_get_serial_sequence('${table}', 'id') as seq`);
    await sql.raw(`create table ${table}_plain (like ${table} including defaults including constraints)`).execute(db);
    await sql.raw(`insert into ${table}_plain select * from ${table}`).execute(db);
    const seq = sequences[0]?.seq;
    if (seq) await sql.raw(`alter sequence ${seq} owned by ${table}_plain.id`).execute(db);
    await sql.raw(`drop table ${table} cascade`).execute(db);
    await sql.raw(`alter table ${table}_plain rename to ${table}`).execute(db);
    await sql.raw(`alter table ${table} add primary key (id)`).execute(db);
    for (const [name, cols] of Object.entries(uniques)) await sql.raw(`alter table ${table} add constraint ${name} unique (${cols.join(', ')})`).execute(db);
    await sql.raw(`create index ${table}_time on ${table} (${column})`).execute(db);
  }
}
