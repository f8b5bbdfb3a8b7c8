/**
 * Reads of the queue and the outbox for the operators (docs/events.md): job counts per pg-boss
 * queue and state straight from pg-boss's job table (it exists once a worker has started), the age
 * of the oldest waiting job, and the outbox rows and relay lag.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { BOSS_SCHEMA, DEAD_LETTER_QUEUE } from '../../../events/queue.ts';

/** pg-boss job states. */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

/** One queue's figures. */
export interface QueueFigures {
  name: string;
  counts: Record<(typeof JOB_STATES)[number], number>;
  /** Seconds the oldest runnable job (created or retry, due now) has waited; null when none waits. */
  oldest_waiting_s: number | null;
}

/**
 * Counts per queue and state, and the oldest waiting job's age (database clock).
 * @returns one entry per queue that holds jobs, by name; [] before pg-boss installed its schema
 */
export async function queueFigures(db: DbOrTrx): Promise<QueueFigures[]> {
  if (!(await queueInstalled(db))) return [];
  const rows = await sql<{ name: string; state: string; count: number; oldest_s: number | null }>`
    select name, state::text as state, count(*)::int as count,
           floor(extract(epoch from (now() - min(created_on) filter (
             where state in ('created', 'retry') and start_after <= now()))))::int as oldest_s
    from ${sql.table(`${BOSS_SCHEMA}.job`)}
    group by name, state
    order by name, state`.execute(db);
  const byName = new Map<string, QueueFigures>();
  for (const r of rows.rows) {
    let q = byName.get(r.name);
    if (!q) {
      q = { name: r.name, counts: { created: 0, retry: 0, active: 0, completed: 0, cancelled: 0, failed: 0 }, oldest_waiting_s: null };
      byName.set(r.name, q);
    }
    if ((JOB_STATES as readonly string[]).includes(r.state)) q.counts[r.state as (typeof JOB_STATES)[number]] = r.count;
    if (r.oldest_s !== null) q.oldest_waiting_s = Math.max(q.oldest_waiting_s ?? 0, r.oldest_s);
  }
  return [...byName.values()];
}

/**
 * Relay lag: unpublished outbox rows and the age in seconds of the oldest (0 when none).
 */
export async function outboxLag(db: DbOrTrx): Promise<{ unpublished: number; lag_s: number }> {
  const r = await sql<{ unpublished: number; lag_s: number | null }>`
    select count(*)::int as unpublished, floor(extract(epoch from (now() - min(occurred_at))))::int as lag_s
    from outbox where published_at is null`.execute(db);
  return { unpublished: r.rows[0]?.unpublished ?? 0, lag_s: Math.max(0, r.rows[0]?.lag_s ?? 0) };
}

/**
 * Outbox rows, newest first, optionally of one event name.
 * @returns the page and the total matching rows
 */
export async function listEvents(db: DbOrTrx, filter: { name?: string | undefined; limit: number; offset: number }) {
  let q = db.selectFrom('outbox');
  if (filter.name !== undefined) q = q.where('outbox.name', '=', filter.name);
  const [rows, total] = await Promise.all([
    q
      .leftJoin('agencies', 'agencies.id', 'outbox.agency_id')
      .select(['outbox.id', 'outbox.event_id', 'outbox.name', 'outbox.version', 'agencies.uuid as agency_uuid', 'outbox.payload', 'outbox.occurred_at', 'outbox.published_at'])
      .orderBy('outbox.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Whether pg-boss has installed its tables (a worker has started once). */
export async function queueInstalled(db: DbOrTrx): Promise<boolean> {
  const r = await sql<{ t: string | null }>`select to_regclass(${`${BOSS_SCHEMA}.job`})::text as t`.execute(db);
  return Boolean(r.rows[0]?.t);
}

/** One job of the dead-letter queue: a copy of a job that failed for good. */
export interface DeadLetterRow {
  id: string;
  state: string;
  source_name: string | null;
  data: unknown;
  source_output: unknown;
  source_retry_count: number | null;
  source_created_on: Date | null;
  created_on: Date;
}

/** Which dead letters an action takes: some by id, those of one source queue, or (neither) all. */
export interface DeadLetterFilter {
  ids?: readonly string[] | undefined;
  queue?: string | undefined;
}

/** The where clause of a dead-letter filter on pgboss.job. */
function deadLetterWhere(filter: DeadLetterFilter) {
  return sql`name = ${DEAD_LETTER_QUEUE}
    ${filter.ids ? sql`and id = any(${[...filter.ids]}::uuid[])` : sql``}
    ${filter.queue !== undefined ? sql`and source_name = ${filter.queue}` : sql``}`;
}

/**
 * The dead-letter queue's jobs, oldest first (docs/operations.md "Dead-letter queue").
 * @returns the page and the total matching; none before pg-boss installed its tables
 */
export async function listDeadLetters(db: DbOrTrx, filter: DeadLetterFilter & { limit: number; offset: number }): Promise<{ rows: DeadLetterRow[]; total: number }> {
  if (!(await queueInstalled(db))) return { rows: [], total: 0 };
  const table = sql.table(`${BOSS_SCHEMA}.job`);
  const [rows, total] = await Promise.all([
    sql<DeadLetterRow>`
      select id, state::text as state, source_name, data, source_output, source_retry_count, source_created_on, created_on
      from ${table} where ${deadLetterWhere(filter)}
      order by created_on, id limit ${filter.limit} offset ${filter.offset}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from ${table} where ${deadLetterWhere(filter)}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/**
 * Deletes dead letters for good (docs/operations.md "Dead-letter queue").
 * @returns how many were deleted
 */
export async function purgeDeadLetters(db: DbOrTrx, filter: DeadLetterFilter): Promise<number> {
  if (!(await queueInstalled(db))) return 0;
  const r = await sql`delete from ${sql.table(`${BOSS_SCHEMA}.job`)} where ${deadLetterWhere(filter)}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
