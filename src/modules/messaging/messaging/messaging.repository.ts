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

/** (user, kind, channel) triples switched off among the users. */
export async function preferencesOff(db: DbOrTrx, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db.selectFrom('notification_preferences').select(['user_id', 'template_key', 'channel']).where('user_id', 'in', userIds).where('enabled', '=', false).execute();
}

/** Ids of the users (of the list) with at least one push device token. */
export async function usersWithDevices(db: DbOrTrx, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom('device_tokens').select('user_id').distinct().where('user_id', 'in', userIds).execute();
  return rows.map((r) => r.user_id);
}

/** Every stored preference of one user. */
export function userPreferences(db: DbOrTrx, userId: number) {
  return db.selectFrom('notification_preferences').select(['template_key', 'channel', 'enabled']).where('user_id', '=', userId).execute();
}

/** Sets one preference of a user (insert or update). */
export async function upsertPreference(db: DbOrTrx, p: { userId: number; key: string; channel: string; enabled: boolean; at: Date }): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({ user_id: p.userId, template_key: p.key, channel: p.channel, enabled: p.enabled, updated_at: p.at })
    .onConflict((oc) => oc.columns(['user_id', 'template_key', 'channel']).doUpdateSet({ enabled: p.enabled, updated_at: p.at }))
    .execute();
}
