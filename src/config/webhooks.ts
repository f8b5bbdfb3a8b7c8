/**
 * Outbound-webhook configuration from the environment (docs/webhooks.md "Configuration").
 * CARETAKER_WEBHOOKS_ALLOW_LOOPBACK=true is development mode: `http://` and loopback targets are
 * accepted (a local n8n, a test receiver); otherwise only `https://` to public addresses.
 */
import { ConfigError } from './error.ts';

export interface WebhooksConfig {
  /** Development mode: http:// and loopback targets allowed (default false). */
  allowLoopback: boolean;
  /** Deadline of one delivery attempt in milliseconds. */
  timeoutMs: number;
}

/**
 * Reads CARETAKER_WEBHOOKS_ALLOW_LOOPBACK and CARETAKER_WEBHOOKS_TIMEOUT_MS.
 * @throws ConfigError naming a bad variable
 */
export function loadWebhooksConfig(env: Record<string, string | undefined>): WebhooksConfig {
  const allow = (env.CARETAKER_WEBHOOKS_ALLOW_LOOPBACK ?? 'false').trim().toLowerCase() || 'false';
  if (!['true', 'false'].includes(allow)) throw new ConfigError('CARETAKER_WEBHOOKS_ALLOW_LOOPBACK', `must be true or false (got '${allow}')`);
  const rawTimeout = (env.CARETAKER_WEBHOOKS_TIMEOUT_MS ?? '10000').trim() || '10000';
  const timeoutMs = Number(rawTimeout);
  if (!/^\d+$/.test(rawTimeout) || timeoutMs < 100 || timeoutMs > 60_000) {
    throw new ConfigError('CARETAKER_WEBHOOKS_TIMEOUT_MS', `must be a whole number between 100 and 60000 (got '${rawTimeout}')`);
  }
  return { allowLoopback: allow === 'true', timeoutMs };
}
