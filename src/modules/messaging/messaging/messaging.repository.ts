/** SQL of the messaging rules: GDPR consents, preferences and device tokens of recipients. No rules here. */
import type { DbOrTrx } from '../../../db/types.ts';

/** Withdrawal times (null: in force) of the consents for `purpose` of a tenant record or account in the agency. */
export async function consentStates(db: DbOrTrx, agencyId: number, tenantId: number | null, userId: number | null, purpose: string) {
  return db
    .selectFrom('gdpr_consents')
    .select(['withdrawn_at'])
    .where('agency_id', '=', agencyId)
    .where('purpose', '=', purpose)
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId ?? -1), eb('user_id', '=', userId ?? -1)]))
    .execute();
}

/** Ids of the users (of the list) with at least one push device token. */
export async function usersWithDevices(db: DbOrTrx, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom('device_tokens').select('user_id').distinct().where('user_id', 'in', userIds).execute();
  return rows.map((r) => r.user_id);
}

/** Every stored preference of one user. */
export function userPreferences(db: DbOrTrx, userId: number) {
  return db.selectFrom('notification_preferences').select(['template_key', 'channel', 'enabled', 'mode']).where('user_id', '=', userId).execute();
}

/** The stored preferences of the users for one kind (all channels). */
export async function preferencesOf(db: DbOrTrx, userIds: number[], key: string) {
  if (userIds.length === 0) return [];
  return db.selectFrom('notification_preferences').select(['user_id', 'channel', 'enabled', 'mode']).where('user_id', 'in', userIds).where('template_key', '=', key).execute();
}

/** Sets one preference of a user (insert or update); `mode` null: the kind's default while enabled. */
export async function upsertPreference(db: DbOrTrx, p: { userId: number; key: string; channel: string; enabled: boolean; mode: 'immediate' | 'digest' | 'off' | null; at: Date }): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({ user_id: p.userId, template_key: p.key, channel: p.channel, enabled: p.enabled, mode: p.mode, updated_at: p.at })
    .onConflict((oc) => oc.columns(['user_id', 'template_key', 'channel']).doUpdateSet({ enabled: p.enabled, mode: p.mode, updated_at: p.at }))
    .execute();
}

/** One line for a person's next digest; false when this event already gave them that line. */
export async function insertDigestItem(
  db: DbOrTrx,
  item: { agencyId: number; userId: number; eventId: string; eventName: string; key: string; line: string; url: string | null; at: Date },
): Promise<boolean> {
  const r = await db
    .insertInto('notification_digest_items')
    .values({ agency_id: item.agencyId, user_id: item.userId, event_id: item.eventId, event_name: item.eventName, template_key: item.key, line: item.line, url: item.url, created_at: item.at })
    .onConflict((oc) => oc.columns(['event_id', 'template_key', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Users with lines waiting for a digest written before `before`, oldest first (at most `limit`). */
export async function usersWithDigestLines(db: DbOrTrx, before: Date, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notification_digest_items')
    .select('user_id')
    .where('sent_at', 'is', null)
    .where('created_at', '<=', before)
    .groupBy('user_id')
    .orderBy((eb) => eb.fn.min('id'))
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Claims a user's waiting lines (rows another sender holds are skipped), oldest first. */
export function claimDigestLines(db: DbOrTrx, userId: number, before: Date) {
  return db
    .selectFrom('notification_digest_items')
    .select(['id', 'agency_id', 'event_name', 'template_key', 'line', 'url', 'created_at'])
    .where('user_id', '=', userId)
    .where('sent_at', 'is', null)
    .where('created_at', '<=', before)
    .orderBy('id')
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Marks digest lines as gathered into the delivery `deliveryUuid` (null: dropped, nobody to send to). */
export async function markDigestLines(db: DbOrTrx, ids: number[], deliveryUuid: string | null, at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('notification_digest_items').set({ sent_at: at, delivery_uuid: deliveryUuid }).where('id', 'in', ids).execute();
}

/** A digest's reader: an active user with the agency's name, or undefined. */
export function digestReader(db: DbOrTrx, userId: number, agencyId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('agencies as ag', 'ag.id', 'u.agency_id')
    .select(['u.id', 'u.name', 'u.email', 'ag.name as agency_name'])
    .where('u.id', '=', userId)
    .where('u.agency_id', '=', agencyId)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
}
