/**
 * Activity log storage (spec 2.3, 4.6). Every authentication event, every write and every refused
 * authorisation calls `recordActivity`; a write passes its own transaction so the entry commits
 * or rolls back with it (docs/architecture.md "Data rules").
 */
import { sql, type RawBuilder } from 'kysely';
import type pg from 'pg';
import { QueryTemplates, slot } from '../../db/query-templates.ts';
import type { DbOrTrx } from '../../db/types.ts';
import type { Actor } from '../../http/auth-context.ts';

export type { DbOrTrx } from '../../db/types.ts';

export interface ActivityInput {
  /** `<resource>.<verb>`, for example `job.create` or `auth.login_failed`. */
  action: string;
  resourceType: string;
  resourceId?: number | null;
  /** Agency the entry belongs to; defaults to the actor's. */
  agencyId?: number | null;
  /** Overrides the actor for events without an authenticated caller (failed login). */
  userId?: number | null;
  userName?: string;
  /** Small JSON object of extra facts; never secrets. */
  details?: Record<string, unknown>;
}

/**
 * Appends one entry.
 * @param db the connection or, for a write, the write's transaction
 * @param actor the caller and its IP address
 * @param at UTC time of the event
 */
export async function recordActivity(db: DbOrTrx, actor: Actor, at: Date, input: ActivityInput): Promise<void> {
  await activityInsert(db, actor, at, input).execute();
}

/**
 * The insert of one entry, not yet run, for a write that records its entry in the same statement
 * as the record itself (a CTE of the record's insert: `resourceId` may then be an SQL expression
 * such as `(select id from j)`). recordActivity runs it on its own.
 * @param db the write's transaction
 * @returns the insert query builder
 */
export function activityInsert(db: DbOrTrx, actor: Actor, at: Date, input: Omit<ActivityInput, 'resourceId'> & { resourceId?: number | null | RawBuilder<number> }) {
  return db.insertInto('activity_log').values({
    agency_id: input.agencyId !== undefined ? input.agencyId : (actor.auth?.agencyId ?? null),
    user_id: input.userId !== undefined ? input.userId : (actor.auth?.userId ?? null),
    user_name: input.userName ?? actor.auth?.name ?? 'anonymous',
    action: input.action,
    resource_type: input.resourceType,
    resource_id: input.resourceId ?? null,
    ip_address: actor.ip,
    details: input.details ? JSON.stringify(input.details) : null,
    created_at: at,
  });
}

export interface ActivityFilter {
  /** Restrict to one agency; undefined for SysOps (all). */
  agencyId?: number;
  userId?: number;
  action?: string;
  /** Inclusive lower bound (UTC). */
  from?: Date;
  /** Exclusive upper bound (UTC). */
  to?: Date;
  /** Keyset cursor: only entries older (in list order) than the entry with this id. */
  before?: number;
  /** Keyset cursor: only entries newer (in list order) than the entry with this id. */
  after?: number;
  limit: number;
  offset: number;
}

/**
 * The largest count computed exactly: counting a million index entries on every page read costs
 * more than the page itself (bench/README.md), so above this the count stops at COUNT_CAP.
 */
export const COUNT_CAP = 10_000;

const listTemplates = new QueryTemplates();

/**
 * One page of entries, newest first, and the number of entries matching the filters (cursors
 * aside, exact up to COUNT_CAP) in one statement, the page written as JSON by the database
 * (src/db/json-sql.ts): `json` is the entries' objects joined by commas ('' for none). The cursors
 * compare (created_at, id), the list order, so a deep page costs what the first one does. Compiled once per set of filters; with `pool` (PostgreSQL, outside a transaction)
 * it runs as a named prepared statement.
 * @param objectSql the SQL writing one row of the subquery `p` (activity_log's columns) as its wire object
 * @returns json, total (<= COUNT_CAP) and capped (true when more entries match)
 */
export async function listActivityJson(db: DbOrTrx, f: ActivityFilter, objectSql: string, pool?: pg.Pool) {
  const values: Record<string, unknown> = {};
  const set = (Object.keys(f) as Array<keyof ActivityFilter>).filter((k) => f[k] !== undefined);
  for (const k of set) values[k] = f[k];
  const ascending = f.after !== undefined && f.before === undefined;
  const build = () => {
    let q = db.selectFrom('activity_log');
    if (f.agencyId !== undefined) q = q.where('agency_id', '=', slot<number>('agencyId'));
    if (f.userId !== undefined) q = q.where('user_id', '=', slot<number>('userId'));
    if (f.action !== undefined) q = q.where('action', '=', slot<string>('action'));
    if (f.from !== undefined) q = q.where('created_at', '>=', slot<Date>('from'));
    if (f.to !== undefined) q = q.where('created_at', '<', slot<Date>('to'));
    let page = q;
    const cursor = (name: string) => sql`(select c.created_at, c.id from activity_log c where c.id = ${slot<number>(name)})`;
    if (f.before !== undefined) page = page.where(sql<boolean>`(created_at, id) < ${cursor('before')}`);
    if (f.after !== undefined) page = page.where(sql<boolean>`(created_at, id) > ${cursor('after')}`);
    const direction = ascending ? 'asc' : 'desc';
    const rows = page.selectAll().orderBy('created_at', direction).orderBy('id', direction).limit(slot<number>('limit')).offset(slot<number>('offset'));
    const count = db.selectFrom(q.select(sql`1`.as('one')).limit(COUNT_CAP + 1).as('m')).select(sql<number>`count(*)::int`.as('n'));
    return db.selectNoFrom([
      sql<string | null>`(select string_agg(${sql.raw(objectSql)}, ',' order by p.created_at desc, p.id desc) from (${rows}) p)`.as('json'),
      sql<number>`(${count})`.as('n'),
    ]);
  };
  const key = JSON.stringify({ set, ascending, objectSql });
  const [row] = await listTemplates.rows<{ json: string | null; n: number }>(db, pool, key, build, values);
  const n = row?.n ?? 0;
  return { json: row?.json ?? '', total: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}
