/**
 * Device tokens of the caller (spec 2.4, 4.12; docs/devices.md): list, register (a token already
 * stored is refreshed and moved to the caller, never duplicated) and remove. Tokens are unique by
 * their SHA-256, so tokens of any length up to 4096 characters stay indexable.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { hashToken } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { parseWebPushSubscription } from '../../messaging/push/index.ts';
import * as repo from './devices.repository.ts';
import type { DeviceTokenDto, RegisterDeviceInput } from './devices.schemas.ts';

/** Wire shape of a device token record (spec 2.4: `ID` upper-case). */
export function toDeviceTokenDto(row: repo.DeviceTokenRow): DeviceTokenDto {
  return {
    ID: row.id,
    user_id: row.user_id,
    device_token: row.device_token,
    platform: row.platform,
    registered_at: new Date(row.registered_at).toISOString(),
  };
}

/**
 * GET /api/system/device-tokens: one page of the caller's tokens, newest registration first.
 * @returns { rows: DeviceTokenDto[], total }
 */
export async function listDeviceTokens(deps: AppDeps, auth: AuthContext, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.listUserTokens(deps.db, auth.userId, page);
  return { rows: rows.map(toDeviceTokenDto), total };
}

/**
 * A web token as stored: a PushSubscription JSON is validated and written in one canonical form
 * (`{"endpoint":...,"keys":{"p256dh":...,"auth":...}}`) so the same subscription is stored once;
 * any other text (a bare endpoint) is kept as given.
 * @throws 400 "Invalid or missing required parameter: device_token" for JSON that is not a valid
 *         PushSubscription
 */
function webToken(token: string): string {
  if (!token.trimStart().startsWith('{')) return token;
  const sub = parseWebPushSubscription(token);
  if (!sub) throw invalidParam('device_token');
  return JSON.stringify(sub);
}

/**
 * POST /api/system/device-tokens: registers a token for the caller. A token already stored (for
 * the caller or another account: the device changed hands) gets the caller, the new platform and
 * a fresh registered_at. A web token written as JSON must be a valid PushSubscription
 * (https endpoint, keys p256dh and auth; docs/push.md); any other token is stored as given.
 * @returns { token: DeviceTokenDto, created: boolean }
 * @throws 400 "Invalid or missing required parameter: device_token" for a JSON web token that is
 *         not a valid PushSubscription
 */
export async function registerDeviceToken(deps: AppDeps, auth: AuthContext, actor: Actor, input: RegisterDeviceInput) {
  const deviceToken = input.platform === 'web' ? webToken(input.device_token) : input.device_token;
  const now = deps.clock.now();
  const tokenHash = hashToken(deviceToken);
  return deps.db.transaction().execute(async (trx) => {
    const before = await repo.findByHash(trx, tokenHash);
    const row = await repo.upsertToken(trx, {
      user_id: auth.userId,
      device_token: deviceToken,
      token_hash: tokenHash,
      platform: input.platform,
      registered_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: before ? 'device_token.refresh' : 'device_token.register',
      resourceType: 'device_token',
      resourceId: row.id,
      details: before && before.user_id !== auth.userId ? { previous_user_id: before.user_id } : undefined,
    });
    return { token: toDeviceTokenDto(row), created: !before };
  });
}

/**
 * DELETE /api/system/device-tokens: removes one of the caller's tokens (a PushSubscription JSON
 * matches its stored canonical form).
 * @throws 404 "Device token not found" when the caller holds no such token
 */
export async function removeDeviceToken(deps: AppDeps, auth: AuthContext, actor: Actor, deviceToken: string): Promise<void> {
  const sub = deviceToken.trimStart().startsWith('{') ? parseWebPushSubscription(deviceToken) : undefined;
  const row = await repo.findByHash(deps.db, hashToken(sub ? JSON.stringify(sub) : deviceToken));
  if (!row || row.user_id !== auth.userId) throw notFound('Device token');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteToken(trx, row.id);
    await recordActivity(trx, actor, now, { action: 'device_token.delete', resourceType: 'device_token', resourceId: row.id });
  });
}
