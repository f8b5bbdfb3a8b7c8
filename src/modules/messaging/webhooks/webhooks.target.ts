/**
 * Which receiver URLs an endpoint may have (docs/webhooks.md "Targets"): `https://` only, or
 * `http://` to a loopback address in development (CARETAKER_WEBHOOKS_ALLOW_LOOPBACK=true); no
 * credentials in the URL; on a public address only the web ports, 443 or 8443 (WEB_PORTS; any port
 * on loopback in development, where local tools listen on their own); and every address the host
 * resolves to must be public (no loopback
 * outside development, private, link-local, metadata or reserved ranges: SSRF). The check runs on
 * save and the delivery connects only to a checked address (src/lib/outbound-http.ts).
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { addressAllowed, isLoopbackAddress } from '../../../lib/outbound-http.ts';
import type { WebhooksConfig } from '../../../config/webhooks.ts';

/**
 * The ports an https receiver on a public address may use: 443, the standard one, and 8443, the
 * usual alternative of web servers and API gateways (docs/webhooks.md "Targets"). Any other port
 * (22, 25, 6379, ...) would let an endpoint probe or talk to services that are not web receivers.
 */
export const WEB_PORTS: readonly number[] = [443, 8443];

/**
 * Checks a receiver URL.
 * @returns undefined when allowed, else the reason, which the API adds to its 400
 *   (`Invalid or missing required parameter: url (resolves to a private address)`): "is not a URL",
 *   "credentials are not allowed in the URL", "http is not allowed", "only https is allowed",
 *   "the host does not resolve", "resolves to a private address", "port 22 is not allowed (only 443
 *   or 8443)"
 */
export async function targetProblem(raw: string, cfg: WebhooksConfig): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'credentials are not allowed in the URL';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && cfg.allowLoopback)) return url.protocol === 'http:' ? 'http is not allowed' : 'only https is allowed';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return 'the host does not resolve';
    }
  }
  if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a, cfg.allowLoopback))) return 'resolves to a private address';
  if (url.protocol === 'http:' && !addresses.every(isLoopbackAddress)) return 'http is not allowed';
  const port = url.port === '' ? 443 : Number(url.port);
  if (!WEB_PORTS.includes(port) && !addresses.every(isLoopbackAddress)) return `port ${port} is not allowed (only ${WEB_PORTS.join(' or ')})`;
  return undefined;
}
