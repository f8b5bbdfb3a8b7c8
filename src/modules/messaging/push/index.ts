/**
 * Push notifications to a user's registered device tokens (spec 4.12; docs/push.md):
 * Firebase Cloud Messaging HTTP v1 for android, APNs over HTTP/2 for ios, Web Push (VAPID) for web.
 * Called by the messaging handlers, never inside a request.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { deliverPushToUser, NOT_CONFIGURED } from './push.service.ts';
import type { PushMessage, PushResult } from './push.types.ts';

export type { PushMessage, PushResult } from './push.types.ts';
export { generateVapidKeys, parseWebPushSubscription, type WebPushSubscription } from './webpush.ts';

/** The `error` of a token's result when its platform's provider has no configuration. */
export const PUSH_NOT_CONFIGURED = NOT_CONFIGURED;

/**
 * Sends `message` to every device token of the user (newest 100 registrations), each through its
 * platform's provider. Never throws for a provider error: each token gets its own result.
 * @returns one result per token (empty when the user has none): `sent`; `failed` with `error`
 *          ('not configured' when the platform's provider has no configuration, else the
 *          provider's status and reason or 'timeout after N ms'); `removed` when the provider
 *          reported the token unregistered or invalid and it was deleted from device_tokens
 */
export async function deliverPush(deps: AppDeps, message: PushMessage): Promise<PushResult[]> {
  return deliverPushToUser(deps, message);
}
