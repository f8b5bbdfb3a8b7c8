/** SQL of report subscriptions (docs/insight.md "Scheduled reports"). */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { Insertable, Updateable } from 'kysely';
import type { ReportSubscriptionTable } from '../../../db/schema.ts';

const COLUMNS = ['id', 'uuid', 'user_id', 'report', 'format', 'frequency', 'filters', 'last_period', 'last_sent_at', 'created_at', 'updated_at'] as const;

/** One page of a user's live subscriptions, oldest first, and their number. */
export async function listOwn(db: DbOrTrx, userId: number, page: { limit: number; offset: number }) {
  const base = db.selectFrom('report_subscriptions').where('user_id', '=', userId).where('deleted_at', 'is', null);
  const [rows, total] = await Promise.all([
    base.select(COLUMNS).orderBy('id').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** A user's live subscription by uuid, or undefined. */
export function findOwn(db: DbOrTrx, userId: number, uuid: string) {
  return db.selectFrom('report_subscriptions').select(COLUMNS).where('uuid', '=', uuid).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

export type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof findOwn>>>;

/** Every live subscription whose last delivered period differs from the current one of its frequency. */
export function due(db: DbOrTrx, keys: { weekly: string; monthly: string }) {
  return db
    .selectFrom('report_subscriptions')
    .select(COLUMNS)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([
      eb.and([eb('frequency', '=', 'weekly'), sql<boolean>`last_period is distinct from ${keys.weekly}`]),
      eb.and([eb('frequency', '=', 'monthly'), sql<boolean>`last_period is distinct from ${keys.monthly}`]),
    ]))
    .orderBy('id')
    .execute();
}

/** Marks a subscription delivered for `period` unless it already is; true when this call claimed it. */
export async function claim(db: DbOrTrx, id: number, period: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('report_subscriptions')
    .set({ last_period: period, last_sent_at: at })
    .where('id', '=', id)
    .where(sql<boolean>`last_period is distinct from ${period}`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** An active user with role and permission keys (the identity a scheduled report runs as), or undefined. */
export function findSubscriber(db: DbOrTrx, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id as user_id', 'u.uuid as user_uuid', 'u.name', 'u.email', 'u.status', 'u.agency_id', 'u.branch_id',
      'u.contractor_id', 'u.tenant_id', 'u.landlord_id', 'r.id as role_id', 'r.code as role_code', 'r.name as role_name', 'r.level',
      sql<string[]>`array(select rp.permission_key from role_permissions rp where rp.role_id = r.id order by 1)`.as('permissions'),
    ])
    .where('u.id', '=', userId)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
}

/** Inserts a subscription; returns its id. */
export async function insertSubscription(db: DbOrTrx, row: Insertable<ReportSubscriptionTable>): Promise<number> {
  return (await db.insertInto('report_subscriptions').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Sets fields of a subscription (soft delete: deleted_at). */
export async function updateSubscriptionRow(db: DbOrTrx, id: number, set: Updateable<ReportSubscriptionTable>): Promise<void> {
  await db.updateTable('report_subscriptions').set(set).where('id', '=', id).execute();
}
