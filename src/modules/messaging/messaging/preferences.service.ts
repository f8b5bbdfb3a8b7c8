/**
 * Notification preferences of the caller (docs/messaging.md "Preferences"): each message kind
 * the caller's role can receive, per channel (email, push), with its mode: `immediate` (one
 * message per event), `digest` (e-mail only, for the kinds of DIGEST_KINDS: gathered into the
 * hourly digest) or `off` (logged as `suppressed`, reason preference_off, and not sent). SLA
 * e-mails default to `digest`; administrators may ask for the SLA kinds too (default `off`).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './messaging.repository.ts';
import type { PreferenceDto, SavePreferencesInput } from './messaging.schemas.ts';
import { DIGEST_KINDS, MESSAGE_KINDS, modeOf, type Audience, type DeliveryMode, type MessageKind } from './template-catalogue.ts';

const AUDIENCE_OF_ROLE: Record<string, Audience> = { tenant: 'tenant', contractor: 'contractor', agent: 'branch_agents', admin: 'agency_admins' };
const CHANNELS = ['email', 'push'] as const;

/**
 * Kinds a caller can receive: those of their role's audience (any kind for other roles), and
 * for administrators also the digestible kinds (SLA), which they receive only when they ask
 * (`optIn`: the default is off).
 */
function kindsFor(auth: AuthContext): Array<{ kind: MessageKind; optIn: boolean }> {
  const audience = AUDIENCE_OF_ROLE[auth.roleCode];
  return Object.values(MESSAGE_KINDS).flatMap((k): Array<{ kind: MessageKind; optIn: boolean }> => {
    if (audience === undefined || k.audience === audience) return [{ kind: k, optIn: false }];
    if (audience === 'agency_admins' && DIGEST_KINDS[k.key] !== undefined) return [{ kind: k, optIn: true }];
    return [];
  });
}

/** GET /api/users/me/notification-preferences: every kind and channel with its mode. */
export async function getPreferences(deps: AppDeps, auth: AuthContext): Promise<PreferenceDto[]> {
  const rows = await repo.userPreferences(deps.db, auth.userId);
  const state = new Map(rows.map((r) => [`${r.template_key}|${r.channel}`, r]));
  return kindsFor(auth).flatMap(({ kind: k, optIn }) =>
    CHANNELS.map((channel) => {
      const stored = state.get(`${k.key}|${channel}`);
      // A kind asked for (optIn) is off until a mode is stored.
      const mode: DeliveryMode = optIn ? (stored?.mode ?? 'off') : modeOf(k.key, channel, stored);
      return { event: k.key, channel, enabled: mode !== 'off', mode, description: k.description };
    }),
  );
}

/**
 * The (enabled, mode) a change stores; throws 400 naming the field for a mode the kind and
 * channel do not have. `enabled: true` on a kind the caller asks for (optIn) stores its default mode.
 */
function storedOf(p: SavePreferencesInput['preferences'][number], i: number, optIn: boolean): { enabled: boolean; mode: DeliveryMode | null } {
  if (p.mode === undefined) {
    if (p.enabled === undefined) throw invalidParam(`preferences[${i}].enabled`);
    return { enabled: p.enabled, mode: optIn && p.enabled ? modeOf(p.event, p.channel, undefined) : null };
  }
  if (p.mode === 'digest' && (p.channel !== 'email' || DIGEST_KINDS[p.event] === undefined)) throw invalidParam(`preferences[${i}].mode`);
  if (p.enabled !== undefined && p.enabled !== (p.mode !== 'off')) throw invalidParam(`preferences[${i}].mode`);
  return { enabled: p.mode !== 'off', mode: p.mode };
}

/**
 * PUT /api/users/me/notification-preferences: sets the given kinds and channels (others
 * unchanged), each by `mode` (immediate, digest, off) or by `enabled` (on: the kind's default
 * mode; off).
 * @returns the full list as for GET
 * @throws 400 `Invalid or missing required parameter: preferences[i].event` for a kind the
 *   caller cannot receive, `preferences[i].mode` for `digest` on a kind or channel without
 *   digests or a mode that contradicts `enabled`, `preferences[i].enabled` when neither is given
 *   (nothing is written)
 */
export async function savePreferences(deps: AppDeps, auth: AuthContext, actor: Actor, input: SavePreferencesInput): Promise<PreferenceDto[]> {
  const allowed = new Map(kindsFor(auth).map((k) => [k.kind.key, k.optIn]));
  const changes = input.preferences.map((p, i) => {
    const optIn = allowed.get(p.event);
    if (optIn === undefined) throw invalidParam(`preferences[${i}].event`);
    return { ...p, ...storedOf(p, i, optIn) };
  });
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    for (const p of changes) await repo.upsertPreference(trx, { userId: auth.userId, key: p.event, channel: p.channel, enabled: p.enabled, mode: p.mode, at: now });
    await recordActivity(trx, actor, now, {
      action: 'notification_preferences.update', resourceType: 'user', resourceId: auth.userId,
      details: { changes: changes.map((p) => `${p.event}.${p.channel}=${p.mode ?? (p.enabled ? 'on' : 'off')}`) },
    });
  });
  return getPreferences(deps, auth);
}
