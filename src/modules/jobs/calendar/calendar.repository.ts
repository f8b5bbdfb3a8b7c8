/** SQL for the calendar and its feed keys (docs/calendar.md). Rules live in the services. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { JobScope } from '../jobs/index.ts';
import { jobsQuery } from '../jobs/index.ts';

/** Visible, not cancelled jobs scheduled in [from, to). */
function scheduledQuery(db: DbOrTrx, scope: JobScope, from: Date, to: Date) {
  return jobsQuery(db, scope)
    .leftJoin('job_time_ranges as tr', 'tr.id', 'j.time_range_id')
    .leftJoin('trades as trd', 'trd.id', 'j.trade_id')
    .where('j.scheduled_for', 'is not', null)
    .where('j.scheduled_for', '>=', from)
    .where('j.scheduled_for', '<', to)
    .where('s.code', '!=', 'cancelled');
}

const COLUMNS = [
  'j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 'j.status_id', 's.name as status', 'j.scheduled_for',
  'j.estimated_cost_pence', 'j.agreed_cost_pence', 'j.currency', 'b.name as branch_name', 'c.company_name as contractor_name',
  'ad.uuid as address_uuid', 'ad.line1', 'ad.line2', 'ad.town', 'ad.postcode',
  'tr.id as slot_id', 'tr.range_label', 'tr.starts_at', 'tr.ends_at',
  // For the weather block of outdoor trades (docs/insight.md "Weather").
  'trd.outdoor as trade_outdoor', 'ad.latitude', 'ad.longitude',
] as const;

/** One page of scheduled jobs in [from, to), earliest first, and the total. */
export async function scheduledJobs(db: DbOrTrx, scope: JobScope, from: Date, to: Date, page: { limit: number; offset: number }) {
  const base = scheduledQuery(db, scope, from, to);
  const [rows, total] = await Promise.all([
    base.select(COLUMNS).orderBy('j.scheduled_for').orderBy('j.id').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export type ScheduledRow = Awaited<ReturnType<typeof scheduledJobs>>['rows'][number];

/** The feed key of a user, if any. */
export function findFeedKey(db: DbOrTrx, userId: number) {
  return db.selectFrom('calendar_feed_keys').select(['user_id', 'created_at', 'last_used_at']).where('user_id', '=', userId).executeTakeFirst();
}

/** Creates or replaces the feed key hash of a user; returns true when one was replaced. */
export async function upsertFeedKey(db: DbOrTrx, userId: number, keyHash: string, at: Date): Promise<boolean> {
  const existed = await findFeedKey(db, userId);
  await db
    .insertInto('calendar_feed_keys')
    .values({ user_id: userId, key_hash: keyHash, created_at: at, last_used_at: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ key_hash: keyHash, created_at: at, last_used_at: null }))
    .execute();
  return existed !== undefined;
}

/** Removes the feed key of a user; returns true when there was one. */
export async function deleteFeedKey(db: DbOrTrx, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('calendar_feed_keys').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The active owner of a feed key hash with role and permission keys, or undefined. */
export function findFeedOwner(db: DbOrTrx, keyHash: string) {
  return db
    .selectFrom('calendar_feed_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id as user_id', 'u.uuid as user_uuid', 'u.name', 'u.email', 'u.status', 'u.agency_id', 'u.branch_id',
      'u.contractor_id', 'u.tenant_id', 'u.landlord_id', 'r.id as role_id', 'r.code as role_code', 'r.name as role_name', 'r.level',
      sql<string[]>`array(select rp.permission_key from role_permissions rp where rp.role_id = r.id order by 1)`.as('permissions'),
    ])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Stamps the last use of a feed key. */
export async function touchFeedKey(db: DbOrTrx, userId: number, at: Date): Promise<void> {
  await db.updateTable('calendar_feed_keys').set({ last_used_at: at }).where('user_id', '=', userId).execute();
}
