/**
 * Verification of a Standard Webhooks signature (https://www.standardwebhooks.com/), as Caretaker
 * signs its deliveries (docs/webhooks.md "The request a receiver gets"): HMAC-SHA256 with the
 * base64 key after `whsec_` over `<webhook-id>.<webhook-timestamp>.<raw body>`, each signature
 * `v1,<base64>` in the space-separated `webhook-signature` header (two during a secret rotation),
 * and the timestamp within 5 minutes of now. Written with node:crypto so the package has no
 * runtime dependency (n8n's community-node rules); tested against Caretaker's own signer.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Seconds a delivery's timestamp may differ from now (the Standard Webhooks default). */
export const TOLERANCE_S = 5 * 60;

/**
 * Checks one delivery.
 * @param secret the endpoint's secret, `whsec_<base64>`
 * @param headers the request's headers (lower-case names)
 * @param rawBody the body exactly as received
 * @param nowSeconds the current time, Unix seconds
 * @throws Error saying what is wrong (a header missing, a stale timestamp, no matching signature)
 */
export function verifyStandardWebhook(secret: string, headers: Record<string, unknown>, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): void {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) throw new Error('Missing webhook-id, webhook-timestamp or webhook-signature header');
  const sentAt = Number(timestamp);
  if (!Number.isInteger(sentAt)) throw new Error('Invalid webhook-timestamp');
  if (Math.abs(nowSeconds - sentAt) > TOLERANCE_S) throw new Error('The webhook-timestamp is more than 5 minutes from now');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  for (const part of signature.split(' ')) {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return;
  }
  throw new Error('No matching signature');
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
}
