/**
 * Notification preferences of the caller (docs/messaging.md "Preferences"): each message kind
 * the caller's role can receive, per channel (email, push), on unless switched off. A kind
 * switched off is logged as `suppressed` (reason preference_off) and not sent.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './messaging.repository.ts';
import type { PreferenceDto, SavePreferencesInput } from './messaging.schemas.ts';
import { MESSAGE_KINDS, type Audience } from './template-catalogue.ts';

const AUDIENCE_OF_ROLE: Record<string, Audience> = { tenant: 'tenant', contractor: 'contractor', agent: 'branch_agents', admin: 'agency_admins' };
const CHANNELS = ['email', 'push'] as const;

/** Kinds a caller can receive: those of their role's audience (any kind for other roles). */
function kindsFor(auth: AuthContext) {
  const audience = AUDIENCE_OF_ROLE[auth.roleCode];
  return Object.values(MESSAGE_KINDS).filter((k) => audience === undefined || k.audience === audience);
}

/** GET /api/users/me/notification-preferences: every kind and channel with its state. */
export async function getPreferences(deps: AppDeps, auth: AuthContext): Promise<PreferenceDto[]> {
  const rows = await repo.userPreferences(deps.db, auth.userId);
  const state = new Map(rows.map((r) => [`${r.template_key}|${r.channel}`, r.enabled]));
  return kindsFor(auth).flatMap((k) =>
    CHANNELS.map((channel) => ({ event: k.key, channel, enabled: state.get(`${k.key}|${channel}`) ?? true, description: k.description })),
  );
}

/**
 * PUT /api/users/me/notification-preferences: sets the given kinds and channels on or off
 * (others unchanged).
 * @returns the full list as for GET
 * @throws 400 `Invalid or missing required parameter: preferences[i].event` for a kind the
 *   caller cannot receive (nothing is written)
 */
export async function savePreferences(deps: AppDeps, auth: AuthContext, actor: Actor, input: SavePreferencesInput): Promise<PreferenceDto[]> {
  const allowed = new Set(kindsFor(auth).map((k) => k.key));
  input.preferences.forEach((p, i) => {
    if (!allowed.has(p.event)) throw invalidParam(`preferences[${i}].event`);
  });
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    for (const p of input.preferences) await repo.upsertPreference(trx, { userId: auth.userId, key: p.event, channel: p.channel, enabled: p.enabled, at: now });
    await recordActivity(trx, actor, now, {
      action: 'notification_preferences.update', resourceType: 'user', resourceId: auth.userId,
      details: { changes: input.preferences.map((p) => `${p.event}.${p.channel}=${p.enabled ? 'on' : 'off'}`) },
    });
  });
  return getPreferences(deps, auth);
}
