/**
 * Activity log storage (spec 2.3, 4.6). Every authentication event, every write and every refused
 * authorisation calls `recordActivity`; a write passes its own transaction so the entry commits
 * or rolls back with it (ARCHITECTURE.md data rules).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Actor } from '../../http/auth-context.ts';

export type DbOrTrx = Kysely<Database> | Transaction<Database>;

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
  await db
    .insertInto('activity_log')
    .values({
      agency_id: input.agencyId !== undefined ? input.agencyId : (actor.auth?.agencyId ?? null),
      user_id: input.userId !== undefined ? input.userId : (actor.auth?.userId ?? null),
      user_name: input.userName ?? actor.auth?.name ?? 'anonymous',
      action: input.action,
      resource_type: input.resourceType,
      resource_id: input.resourceId ?? null,
      ip_address: actor.ip,
      details: input.details ? JSON.stringify(input.details) : null,
      created_at: at,
    })
    .execute();
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
  limit: number;
  offset: number;
}

/** One page of entries, newest first, and the total matching count. */
export async function listActivity(db: DbOrTrx, f: ActivityFilter) {
  let q = db.selectFrom('activity_log');
  if (f.agencyId !== undefined) q = q.where('agency_id', '=', f.agencyId);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('created_at', '<', f.to);
  const [rows, total] = await Promise.all([
    q
      .select(['id', 'user_id', 'user_name', 'action', 'resource_type', 'resource_id', 'ip_address', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
