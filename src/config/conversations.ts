/**
 * Conversation channels from the environment (docs/conversations.md "Configuration"): reply by
 * e-mail (the reply addresses' domain, the SMTP listener, the Mailgun inbound webhook's signing
 * key) and SMS (the Twilio account, quiet hours). Everything is optional: without an inbound
 * domain outgoing messages carry no reply address, without a port no listener starts, without a
 * provider SMS deliveries fail at once with `not_configured`. A provider with some but not all of
 * its variables stops the process with a ConfigError naming the missing one.
 */
import { ConfigError } from './error.ts';

type Env = Record<string, string | undefined>;

export interface InboundMailConfig {
  /** Domain of the reply addresses (reply+<thread>.<person>.<signature>@domain); undefined: no reply address. */
  domain: string | undefined;
  /** Port of the SMTP listener started with the server; undefined: none. */
  smtpPort: number | undefined;
  /** Interface the listener binds. */
  smtpHost: string;
  /** Largest accepted message in bytes (SIZE extension; refused above). */
  maxBytes: number;
  /** Mailgun's HTTP webhook signing key; undefined: the Mailgun route answers 503. */
  mailgunSigningKey: string | undefined;
}

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** Sender: a phone number in E.164, or a Messaging Service SID (MG...). */
  from: string;
  /** API base URL, no trailing slash (default https://api.twilio.com). */
  apiUrl: string;
}

export interface SmsConfig {
  /** The provider; undefined when none is configured. */
  twilio: TwilioConfig | undefined;
  /** London wall-clock window in which non-urgent SMS wait, [start, end) as HH:MM. */
  quietHours: { start: string; end: string };
  /** Deadline of a provider call in milliseconds. */
  timeoutMs: number;
}

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function intIn(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `must be a whole number between ${min} and ${max} (got '${raw}')`);
  return Number(raw);
}

/**
 * Reads CARETAKER_INBOUND_EMAIL_DOMAIN, CARETAKER_INBOUND_SMTP_PORT, CARETAKER_INBOUND_SMTP_HOST,
 * CARETAKER_INBOUND_MAX_BYTES and CARETAKER_MAILGUN_SIGNING_KEY.
 * @param defaultHost the HTTP server's HOST, the listener's default interface
 * @throws ConfigError naming a bad variable
 */
export function loadInboundMailConfig(env: Env, defaultHost: string): InboundMailConfig {
  const domain = str(env, 'CARETAKER_INBOUND_EMAIL_DOMAIN')?.toLowerCase();
  if (domain !== undefined && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(domain)) {
    throw new ConfigError('CARETAKER_INBOUND_EMAIL_DOMAIN', `must be a domain name like reply.example.com (got '${domain}')`);
  }
  const port = str(env, 'CARETAKER_INBOUND_SMTP_PORT');
  return {
    domain,
    smtpPort: port === undefined ? undefined : intIn(env, 'CARETAKER_INBOUND_SMTP_PORT', 0, 0, 65_535),
    smtpHost: str(env, 'CARETAKER_INBOUND_SMTP_HOST') ?? defaultHost,
    maxBytes: intIn(env, 'CARETAKER_INBOUND_MAX_BYTES', 25 * 1_048_576, 1024, 200 * 1_048_576),
    mailgunSigningKey: str(env, 'CARETAKER_MAILGUN_SIGNING_KEY'),
  };
}

/**
 * Reads TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM, TWILIO_API_URL,
 * CARETAKER_SMS_QUIET_HOURS and CARETAKER_SMS_TIMEOUT_MS.
 * @throws ConfigError naming a bad or missing variable
 */
export function loadSmsConfig(env: Env): SmsConfig {
  const sid = str(env, 'TWILIO_ACCOUNT_SID');
  const token = str(env, 'TWILIO_AUTH_TOKEN');
  const from = str(env, 'TWILIO_FROM');
  const set = [sid, token, from].filter((x) => x !== undefined).length;
  if (set > 0 && set < 3) {
    const missing = sid === undefined ? 'TWILIO_ACCOUNT_SID' : token === undefined ? 'TWILIO_AUTH_TOKEN' : 'TWILIO_FROM';
    throw new ConfigError(missing, 'must be set with the other TWILIO_ variables');
  }
  if (sid !== undefined && !/^AC[0-9a-zA-Z]{32}$/.test(sid)) throw new ConfigError('TWILIO_ACCOUNT_SID', 'must be an account SID (AC followed by 32 characters)');
  if (from !== undefined && !/^(\+[1-9]\d{6,14}|MG[0-9a-zA-Z]{32})$/.test(from)) {
    throw new ConfigError('TWILIO_FROM', 'must be a phone number in E.164 (+447700900123) or a Messaging Service SID (MG...)');
  }
  let apiUrl = 'https://api.twilio.com';
  const rawUrl = sid === undefined ? undefined : str(env, 'TWILIO_API_URL');
  if (rawUrl !== undefined) {
    try {
      if (!['http:', 'https:'].includes(new URL(rawUrl).protocol)) throw new Error('protocol');
    } catch {
      throw new ConfigError('TWILIO_API_URL', 'must be an http(s) URL');
    }
    apiUrl = rawUrl.replace(/\/+$/, '');
  }
  const quiet = str(env, 'CARETAKER_SMS_QUIET_HOURS') ?? '21:00-08:00';
  const m = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(quiet);
  if (!m) throw new ConfigError('CARETAKER_SMS_QUIET_HOURS', `must be HH:MM-HH:MM in London time, e.g. 21:00-08:00 (got '${quiet}')`);
  return {
    twilio: sid && token && from ? { accountSid: sid, authToken: token, from, apiUrl } : undefined,
    quietHours: { start: `${m[1]}:${m[2]}`, end: `${m[3]}:${m[4]}` },
    timeoutMs: intIn(env, 'CARETAKER_SMS_TIMEOUT_MS', 10_000, 100, 60_000),
  };
}
