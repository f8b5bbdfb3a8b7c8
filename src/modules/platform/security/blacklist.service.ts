/**
 * Rules of the security blacklist (docs/security.md "Blacklist"; docs/security.md promise 28):
 * - SysOps block addresses and ranges (platform-wide) and any account; agency admins block the
 *   accounts of their own agency only (another agency's user is 404 "User not found");
 * - every change is written with its activity entry in one transaction, then every instance's
 *   cached copy is invalidated (BlacklistGuard.changed);
 * - an address that trips the login throttle `autoTrips` times within `autoWindowS` is added
 *   automatically for `autoTtlS` seconds.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import { revokeUserTokens } from '../../people/auth/index.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { canonicalAddress, parseAddress, parseRange, type BlacklistGuard } from './blacklist.guard.ts';
import * as repo from './blacklist.repository.ts';
import type { BlacklistEntryDto, CreateBlacklistInput } from './blacklist.schemas.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toDto(r: repo.EntryRow): BlacklistEntryDto {
  return {
    uuid: r.uuid, kind: r.kind, value: r.value, user_uuid: r.user_uuid, user_email: r.user_email, reason: r.reason,
    automatic: r.automatic, added_by_uuid: r.added_by_uuid, expires_at: iso(r.expires_at), created_at: iso(r.created_at)!,
  };
}

const scopeOf = (auth: AuthContext) => (isSysOps(auth) ? undefined : (auth.agencyId ?? -1));

/**
 * GET /api/security/blacklist: live entries, newest first (admins: their agency's accounts).
 * @returns { rows: BlacklistEntryDto[], total }
 */
export async function listBlacklist(deps: AppDeps, auth: AuthContext, q: { kind?: string | undefined; limit: number; offset: number }) {
  const { rows, total } = await repo.listEntries(deps.db, { agencyId: scopeOf(auth), kind: q.kind, limit: q.limit, offset: q.offset });
  return { rows: rows.map(toDto), total };
}

/**
 * POST /api/security/blacklist: adds an entry.
 * @returns the entry
 * @throws 400 value/user_uuid/expires_at, 403 an address entry by a non-SysOps caller or one's
 *   own account, 404 user, 409 already blocked
 */
export async function addToBlacklist(deps: AppDeps, guard: BlacklistGuard, auth: AuthContext, actor: Actor, input: CreateBlacklistInput): Promise<BlacklistEntryDto> {
  const now = deps.clock.now();
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= now) throw invalidParam('expires_at');
  let value: string | null = null;
  let userId: number | null = null;
  let agencyId: number | null = null;
  if (input.kind === 'account') {
    if (!input.user_uuid || input.value !== undefined) throw invalidParam(input.user_uuid ? 'value' : 'user_uuid');
    const user = await repo.findUser(deps.db, input.user_uuid, scopeOf(auth));
    if (!user) throw notFound('User');
    if (user.id === auth.userId) throw forbidden('You cannot block your own account');
    [userId, agencyId] = [user.id, user.agency_id];
  } else {
    if (!isSysOps(auth)) throw forbidden('Only SysOps block addresses');
    if (!input.value || input.user_uuid !== undefined) throw invalidParam(input.value ? 'user_uuid' : 'value');
    if (input.kind === 'ip') {
      const addr = parseAddress(input.value);
      if (!addr) throw invalidParam('value');
      value = canonicalAddress(addr);
    } else {
      const range = parseRange(input.value);
      if (!range) throw invalidParam('value');
      value = `${range[0].toString()}/${range[1]}`;
    }
  }
  if (await repo.findSame(deps.db, input.kind, value, userId)) throw conflict('This address or account is already blocked');
  const uuid = newUuid();
  // changeIdentity: blocking an account ends its sessions and tokens in the same transaction, each
  // revoked 'blocked', so its next page says "Access to this account was blocked." (docs/security.md "Why a session ended").
  await changeIdentity(deps, async (trx) => {
    const ended = userId !== null ? await revokeUserTokens(trx, userId, now, 'blocked') : 0;
    const id = await repo.insertEntry(trx, {
      uuid, kind: input.kind, value, user_id: userId, agency_id: agencyId, reason: input.reason, added_by_user_id: auth.userId,
      expires_at: expiresAt, created_at: now, removed_at: null, removed_by_user_id: null,
    });
    await recordActivity(trx, actor, now, {
      action: 'security.blacklist_add', resourceType: 'blacklist', resourceId: id, agencyId,
      details: { kind: input.kind, value, user_id: userId, reason: input.reason, expires_at: iso(expiresAt), ...(userId !== null ? { sessions_ended: ended } : {}) },
    });
  });
  await guard.changed();
  return toDto((await repo.findEntry(deps.db, uuid))!);
}

/**
 * DELETE /api/security/blacklist/{uuid}: removes an entry (kept with removed_at for the record).
 * @throws 404 'Blacklist entry not found' (missing, removed, or outside the caller's scope)
 */
export async function removeFromBlacklist(deps: AppDeps, guard: BlacklistGuard, auth: AuthContext, actor: Actor, uuid: string): Promise<void> {
  const entry = await repo.findEntry(deps.db, uuid);
  const scope = scopeOf(auth);
  if (!entry || (scope !== undefined && entry.agency_id !== scope)) throw notFound('Blacklist entry');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.removeEntry(trx, entry.id, auth.userId, now);
    await recordActivity(trx, actor, now, {
      action: 'security.blacklist_remove', resourceType: 'blacklist', resourceId: entry.id, agencyId: entry.agency_id,
      details: { kind: entry.kind, value: entry.value, user_id: entry.user_id },
    });
  });
  await guard.changed();
}

/**
 * Called when an address trips the login throttle: counts the trip (shared across instances
 * through the rate-limit store) and blocks the address for `autoTtlS` once it has tripped
 * `autoTrips` times within `autoWindowS`.
 */
export async function loginThrottleTripped(deps: AppDeps, guard: BlacklistGuard, ip: string): Promise<void> {
  const cfg = deps.config.blacklist;
  const trips = await deps.limiter.consume(`bl-trip:${ip}`, cfg.autoTrips, cfg.autoWindowS).catch(() => null);
  if (!trips || (trips.allowed && trips.remaining > 0)) return;
  const addr = parseAddress(ip);
  if (!addr) return;
  const value = canonicalAddress(addr);
  if (await repo.findSame(deps.db, 'ip', value, null)) return;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertEntry(trx, {
      uuid: newUuid(), kind: 'ip', value, user_id: null, agency_id: null, reason: `Automatic: tripped the login throttle ${cfg.autoTrips} times`,
      added_by_user_id: null, automatic: true, expires_at: new Date(now.getTime() + cfg.autoTtlS * 1000), created_at: now, removed_at: null, removed_by_user_id: null,
    });
    await recordActivity(trx, { auth: null, ip }, now, {
      action: 'security.blacklist_auto_add', resourceType: 'blacklist', resourceId: id, agencyId: null, userId: null, userName: 'system',
      details: { value, trips: cfg.autoTrips, window_s: cfg.autoWindowS },
    });
  });
  await guard.changed();
}
