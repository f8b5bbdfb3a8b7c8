/**
 * Web Push with VAPID (RFC 8030, 8291, 8292; docs/push.md). The `web-push` library encrypts the
 * payload (aes128gcm) and signs the VAPID JWT; the request itself goes through the outbound HTTP
 * client, which refuses endpoints on non-public addresses (the endpoint comes from the browser,
 * so it is caller-controlled) and holds the deadline. 404 and 410 mean the subscription is gone.
 *
 * A web device token is the browser's PushSubscription as JSON
 * (`{"endpoint":"https://...","keys":{"p256dh":"...","auth":"..."}}`), which fits the 4096
 * characters of the token field; a bare endpoint URL is still accepted at registration but
 * cannot carry an encrypted payload, so its deliveries fail with a message saying so.
 */
import { createRequire } from 'node:module';
import type WebPushLibrary from 'web-push';
import { outboundRequest } from '../../../lib/outbound-http.ts';
import type { PushConfig, WebPushConfig } from '../../../config/push.ts';
import { clipBytes, errorText, type PushMessage, type PushOutcome, type PushSender, type PushTarget } from './push.types.ts';

let library: typeof WebPushLibrary | undefined;
/** web-push (and its crypto dependencies), loaded on first use rather than at start (docs/operations.md "Starting"). */
function webpush(): typeof WebPushLibrary {
  library ??= createRequire(import.meta.url)('web-push') as typeof WebPushLibrary;
  return library;
}

export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Parses a web device token as a PushSubscription JSON.
 * @returns the subscription, or undefined when the text is not a valid one (https endpoint, p256dh
 *          a 65-byte uncompressed P-256 point, auth 16 bytes, both base64url)
 */
export function parseWebPushSubscription(text: string): WebPushSubscription | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { endpoint, keys } = json as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
  if (typeof endpoint !== 'string' || typeof keys !== 'object' || keys === null) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return undefined;
  const { p256dh, auth } = keys;
  if (typeof p256dh !== 'string' || typeof auth !== 'string' || !B64URL.test(p256dh) || !B64URL.test(auth)) return undefined;
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || Buffer.from(auth, 'base64url').length !== 16) return undefined;
  return { endpoint, keys: { p256dh, auth } };
}

/**
 * A new VAPID key pair for CARETAKER_VAPID_PUBLIC_KEY / CARETAKER_VAPID_PRIVATE_KEY
 * (`caretaker push vapid-keys`).
 * @returns base64url publicKey (65 bytes) and privateKey (32 bytes)
 */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush().generateVAPIDKeys();
}

/** The JSON the service worker receives (decrypted): title, body and the data map. */
export function webPushPayload(message: PushMessage): string {
  return JSON.stringify({ title: clipBytes(message.title, 256), body: clipBytes(message.body, 2048), data: message.data ?? {} });
}

/** Opens Web Push for one batch (no connection is kept). */
export function openWebPush(cfg: WebPushConfig, push: PushConfig): PushSender {
  async function send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
    const subscription = parseWebPushSubscription(target.token);
    if (!subscription) return { status: 'failed', error: 'not a Web Push subscription (endpoint and keys are needed)' };
    let details: ReturnType<typeof WebPushLibrary.generateRequestDetails>;
    try {
      details = webpush().generateRequestDetails(subscription, webPushPayload(message), {
        vapidDetails: { subject: cfg.subject, publicKey: cfg.publicKey, privateKey: cfg.privateKey },
        TTL: 24 * 3600,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      });
    } catch (err) {
      return { status: 'failed', error: `Web Push: ${errorText(err)}` };
    }
    try {
      const res = await outboundRequest({
        method: 'POST',
        url: details.endpoint,
        headers: Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)])),
        ...(details.body ? { body: details.body } : {}),
        timeoutMs: push.timeoutMs,
        extraCa: push.extraCa,
        refusePrivate: !push.allowPrivateEndpoints,
      });
      if (res.status >= 200 && res.status < 300) return { status: 'sent' };
      const error = `Web Push ${res.status}`;
      return res.status === 404 || res.status === 410 ? { status: 'unregistered', error } : { status: 'failed', error };
    } catch (err) {
      return { status: 'failed', error: `Web Push: ${errorText(err)}` };
    }
  }
  return { send, close: () => undefined };
}
