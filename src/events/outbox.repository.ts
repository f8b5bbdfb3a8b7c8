/** SQL of the outbox and of the handlers' completion rows (docs/events.md); the rules are in the other files of src/events. */
import { sql } from 'kysely';
import { columnParams, PreparedQuery, type Params } from '../db/prepared.ts';
import type { DbOrTrx, Trx } from '../db/types.ts';

/** An outbox row as written (payload as JSON text; traceparent null while tracing is off). */
interface OutboxRow {
  event_id: string;
  name: string;
  version: number;
  agency_id: number | null;
  payload: string;
  occurred_at: Date;
  traceparent: string | null;
}
const OUTBOX_COLUMNS = ['event_id', 'name', 'version', 'agency_id', 'payload', 'occurred_at', 'traceparent'] as const;

/**
 * Payload fields the insert reads from a row its transaction wrote before, in the same statement: each
 * column of `table`'s row `id` becomes the payload field of its name. For a value the database takes
 * as the row is written, such as a job's reference (src/modules/jobs/jobs/jobs.repository.ts), which
 * the server does not know when it builds the statements. Table and columns come from the code, never
 * from a request.
 */
export interface PayloadFill<C extends string = string> {
  table: 'jobs';
  id: number;
  columns: readonly C[];
}

/** The statement's shape: a plain insert, or one filling payload fields from a row (its table and columns). */
type OutboxShape = 'one' | { table: PayloadFill['table']; columns: readonly string[] };

/** Every event is one of these: a named prepared statement (src/db/prepared.ts). */
const OUTBOX_INSERT = new PreparedQuery('outbox_insert', (db, shape: OutboxShape, p: Params<OutboxRow & { fill_id?: number }>) => {
  const values = columnParams(p, OUTBOX_COLUMNS);
  if (shape === 'one') return db.insertInto('outbox').values(values);
  const fields = sql.join(shape.columns.map((c) => sql`${sql.lit(c)}, r.${sql.ref(c)}`));
  const filled = sql`(select jsonb_build_object(${fields}) from ${sql.table(shape.table)} r where r.id = ${p('fill_id')})`;
  return db.insertInto('outbox').values({ ...values, payload: sql`${p('payload')}::jsonb || ${filled}` });
});

/** The insert of one outbox row, not yet run; with `fill`, payload fields read from a row (PayloadFill). */
export function outboxInsertQuery(db: DbOrTrx, row: OutboxRow, fill?: PayloadFill) {
  return fill ? OUTBOX_INSERT.statement(db, { table: fill.table, columns: fill.columns }, { ...row, fill_id: fill.id }) : OUTBOX_INSERT.statement(db, 'one', row);
}

/** The oldest unpublished events, at most `limit`, oldest first. */
export function unpublishedEvents(db: DbOrTrx, limit: number) {
  return db
    .selectFrom('outbox')
    .select(['id', 'event_id', 'name', 'version', 'agency_id', 'payload', 'occurred_at', 'traceparent'])
    .where('published_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The outbox rows of these events (any order; an id without a row is left out). */
export function eventsById(db: DbOrTrx, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('outbox').select(['event_id', 'name', 'version', 'agency_id', 'payload', 'occurred_at']).where('event_id', 'in', eventIds).execute();
}

/**
 * The oldest unpublished events locked for the caller's transaction, skipping rows another relay
 * holds (FOR UPDATE SKIP LOCKED).
 */
export function lockUnpublishedEvents(trx: DbOrTrx, limit: number) {
  return trx.selectFrom('outbox').select(['id', 'event_id', 'name']).where('published_at', 'is', null).orderBy('id').limit(limit).forUpdate().skipLocked().execute();
}

/** Marks outbox rows published at `at`. */
export async function markPublished(db: DbOrTrx, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('outbox').set({ published_at: at }).where('id', 'in', ids).execute();
}

/** One event by its uuid, as handlers read it, or undefined. */
export function findEvent(db: DbOrTrx, eventId: string) {
  return db.selectFrom('outbox').select(['event_id', 'name', 'version', 'agency_id', 'payload', 'occurred_at']).where('event_id', '=', eventId).executeTakeFirst();
}

/**
 * Records that `handler` completed `eventId`, unless it already had.
 * @returns true when this call recorded it (the handler should run), false when it was recorded before
 */
export async function claimHandlerRun(trx: DbOrTrx, handler: string, eventId: string, at: Date): Promise<boolean> {
  const done = await trx
    .insertInto('event_handler_runs')
    .values({ handler, event_id: eventId, completed_at: at })
    .onConflict((oc) => oc.columns(['handler', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return done !== undefined;
}

/**
 * Recent outbox rows (newest first), for `GET /api/system/events` and tests.
 * @param filter name, agency, limit and offset
 */
export async function listOutbox(db: DbOrTrx, filter: { name?: string; agencyId?: number; limit: number; offset: number }) {
  let q = db.selectFrom('outbox');
  if (filter.name !== undefined) q = q.where('name', '=', filter.name);
  if (filter.agencyId !== undefined) q = q.where('agency_id', '=', filter.agencyId);
  return q.selectAll().orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/**
 * Records that `handler` completed each of `eventIds` in one statement, skipping those it had
 * completed before.
 * @returns the event ids recorded by this call (the handler should run for these only)
 */
export async function claimHandlerRuns(trx: DbOrTrx, handler: string, eventIds: readonly string[], at: Date): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await trx
    .insertInto('event_handler_runs')
    .values([...new Set(eventIds)].map((event_id) => ({ handler, event_id, completed_at: at })))
    .onConflict((oc) => oc.columns(['handler', 'event_id']).doNothing())
    .returning('event_id')
    .execute();
  return new Set(rows.map((r) => r.event_id));
}

/** Removes the completion row of `handler` for `eventId` (its run failed and is retried). */
export async function unclaimHandlerRun(trx: DbOrTrx, handler: string, eventId: string): Promise<void> {
  await trx.deleteFrom('event_handler_runs').where('handler', '=', handler).where('event_id', '=', eventId).execute();
}

/** The events of `eventIds` as handlers read them (missing ids are absent). */
export function eventsByIds(db: DbOrTrx, eventIds: readonly string[]) {
  return db.selectFrom('outbox').select(['event_id', 'name', 'version', 'agency_id', 'payload', 'occurred_at', 'traceparent']).where('event_id', 'in', [...eventIds]).execute();
}

/** Sets savepoint `name` (letters, digits and underscores) in the transaction. */
export async function savepoint(trx: Trx, name: string): Promise<void> {
  await sql`savepoint ${sql.id(name)}`.execute(trx);
}

/** Undoes the transaction's work since savepoint `name`; the transaction goes on. */
export async function rollbackToSavepoint(trx: Trx, name: string): Promise<void> {
  await sql`rollback to savepoint ${sql.id(name)}`.execute(trx);
}

/** An outbox row as the live updates read it (docs/live-updates.md). */
export interface LiveOutboxRow {
  /** The row's bigserial id, as text: the stream's event id. */
  id: string;
  name: string;
  agency_id: number | null;
  payload: unknown;
  occurred_at: Date;
}

/** The outbox rows of these row ids (bigserial, as text), oldest first; missing ids are absent. */
export function outboxRowsByRowIds(db: DbOrTrx, ids: readonly string[]): Promise<LiveOutboxRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('outbox').select(['id', 'name', 'agency_id', 'payload', 'occurred_at']).where('id', 'in', [...ids]).orderBy('id').execute() as Promise<LiveOutboxRow[]>;
}

/**
 * The outbox rows after row id `afterId` (bigserial, as text), oldest first, at most `limit`.
 * @returns the rows (the caller checks their age against its replay window)
 */
export function outboxRowsAfter(db: DbOrTrx, afterId: string, limit: number): Promise<LiveOutboxRow[]> {
  return db.selectFrom('outbox').select(['id', 'name', 'agency_id', 'payload', 'occurred_at']).where('id', '>', afterId).orderBy('id').limit(limit).execute() as Promise<LiveOutboxRow[]>;
}

/** The newest outbox row id (bigserial, as text), or '0' when the outbox is empty. */
export async function latestOutboxId(db: DbOrTrx): Promise<string> {
  const row = await db.selectFrom('outbox').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return row?.id === null || row?.id === undefined ? '0' : String(row.id);
}

/**
 * Gives running pg-boss jobs back to their queues (a shutdown's grace ran out while this worker held
 * them): `active` becomes `created` with no start time, so the next claim does not count a try
 * (pg-boss counts one only when a job had started before). Jobs no longer active are left alone.
 * @param schema pg-boss's schema (src/events/queue.ts BOSS_SCHEMA)
 * @returns how many were given back
 */
export async function releaseRunningJobs(db: DbOrTrx, schema: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await sql`
    update ${sql.table(`${schema}.job`)}
    set state = 'created', started_on = null, heartbeat_on = null, upsert_by_key = null
    where id = any(${[...ids]}::uuid[]) and state = 'active'`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
