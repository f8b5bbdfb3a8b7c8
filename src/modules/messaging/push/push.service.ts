/**
 * Push delivery to every device token of a user (spec 4.12; docs/push.md): each token goes to its
 * platform's provider (APNs for ios, FCM for android, Web Push for web); results are per token and
 * one failing token never stops the others. A token the provider reports unregistered or invalid
 * is deleted, with an activity entry, and reported as `removed`.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { openApns } from './apns.ts';
import { openFcm } from './fcm.ts';
import * as repo from './push.repository.ts';
import { errorText, type PushMessage, type PushResult, type PushSender, type PushTarget } from './push.types.ts';
import { openWebPush } from './webpush.ts';

/** Most tokens one user's message goes to (newest registrations first). */
export const MAX_TOKENS_PER_USER = 100;
export const NOT_CONFIGURED = 'not configured';

/** Opens the provider of `platform`, or undefined when it is not configured. */
function openSender(deps: AppDeps, platform: PushTarget['platform']): PushSender | undefined {
  const cfg = deps.config.push;
  if (platform === 'ios') return cfg.apns ? openApns(deps, cfg.apns, cfg.timeoutMs, cfg.extraCa) : undefined;
  if (platform === 'android') return cfg.fcm ? openFcm(deps, cfg.fcm, cfg.timeoutMs, cfg.extraCa) : undefined;
  return cfg.webPush ? openWebPush(cfg.webPush, cfg) : undefined;
}

/** Deletes a dead token with its activity entry (actor: the system, on behalf of the owner). */
async function removeDeadToken(deps: AppDeps, userId: number, target: PushTarget, error: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.ownerOf(trx, userId);
    if (!(await repo.deleteDeadToken(trx, target, userId))) return;
    await recordActivity(trx, { auth: null, ip: '127.0.0.1' }, now, {
      action: 'device_token.unregistered',
      resourceType: 'device_token',
      resourceId: target.id,
      agencyId: owner?.agency_id ?? null,
      userId,
      userName: 'system',
      details: { platform: target.platform, provider_error: error },
    });
  });
}

/**
 * Sends `message` to the user's device tokens.
 * @returns one PushResult per token: `sent`; `failed` with the error (provider status and reason,
 *          timeout, or 'not configured'); `removed` when the provider reported the token dead
 */
export async function deliverPushToUser(deps: AppDeps, message: PushMessage): Promise<PushResult[]> {
  const targets = await repo.tokensOfUser(deps.db, message.userId, MAX_TOKENS_PER_USER);
  const senders = new Map<PushTarget['platform'], PushSender | undefined>();
  for (const t of targets) if (!senders.has(t.platform)) senders.set(t.platform, openSender(deps, t.platform));
  try {
    return await Promise.all(
      targets.map(async (target): Promise<PushResult> => {
        const base = { deviceTokenId: target.id, platform: target.platform };
        const sender = senders.get(target.platform);
        if (!sender) return { ...base, status: 'failed', error: NOT_CONFIGURED };
        const outcome = await sender.send(target, message).catch((err: unknown) => ({ status: 'failed' as const, error: errorText(err) }));
        if (outcome.status === 'sent') return { ...base, status: 'sent' };
        if (outcome.status === 'failed') return { ...base, status: 'failed', error: outcome.error };
        try {
          await removeDeadToken(deps, message.userId, target, outcome.error);
        } catch (err) {
          return { ...base, status: 'failed', error: `${outcome.error}; removal failed: ${errorText(err)}` };
        }
        return { ...base, status: 'removed', error: outcome.error };
      }),
    );
  } finally {
    for (const sender of senders.values()) sender?.close();
  }
}
