/**
 * Which receiver URLs an endpoint may have (docs/webhooks.md "Targets"): `https://` only, or
 * `http://` to a loopback address in development (CARETAKER_WEBHOOKS_ALLOW_LOOPBACK=true); no
 * credentials in the URL; and every address the host resolves to must be public (no loopback
 * outside development, private, link-local, metadata or reserved ranges: SSRF). The check runs on
 * save and the delivery connects only to a checked address (src/lib/outbound-http.ts).
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { addressAllowed, isLoopbackAddress } from '../../lib/outbound-http.ts';
import type { WebhooksConfig } from '../../config/webhooks.ts';

/**
 * Checks a receiver URL.
 * @returns undefined when allowed, else the reason (for the docs and tests; the API answers 400 url)
 */
export async function targetProblem(raw: string, cfg: WebhooksConfig): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'credentials in the URL';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && cfg.allowLoopback)) return 'not https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return 'host does not resolve';
    }
  }
  if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a, cfg.allowLoopback))) return 'non-public address';
  if (url.protocol === 'http:' && !addresses.every(isLoopbackAddress)) return 'http only to loopback';
  return undefined;
}
