/**
 * A person-readable device name from a User-Agent header, for the session lists (docs/users.md
 * "Sessions"), parsed by ua-parser-js 1.x (MIT, no dependencies; kept current as browsers change,
 * which a hand-written parser would not be).
 */
import { createRequire } from 'node:module';

interface Parsed {
  browser: { name?: string; major?: string };
  os: { name?: string; version?: string };
  device: { vendor?: string; model?: string; type?: string };
}

// ua-parser-js 1.x is CommonJS without type declarations: loaded through require and typed here.
const parse = createRequire(import.meta.url)('ua-parser-js') as (ua: string) => Parsed;

/**
 * "Chrome 131 on Windows 10", "Mobile Safari 18 on iOS 18.1 (Apple iPhone)"; a User-Agent the
 * parser does not know (an API client, a mobile app) is returned as sent, cut to 80 characters.
 * @param userAgent the stored User-Agent header, or null when none was sent
 * @returns the device name, or null for no User-Agent
 */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os, device } = parse(userAgent);
  if (!browser.name && !os.name) return userAgent.slice(0, 80);
  const app = browser.name ? `${browser.name}${browser.major ? ` ${browser.major}` : ''}` : 'A browser';
  const system = os.name ? ` on ${os.name}${os.version ? ` ${os.version}` : ''}` : '';
  const model = device.model ? ` (${[device.vendor, device.model].filter(Boolean).join(' ')})` : '';
  return `${app}${system}${model}`;
}
