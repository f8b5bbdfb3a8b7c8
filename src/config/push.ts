/**
 * Push-provider configuration from the environment (docs/push.md "Configuration"). Each provider is
 * optional: without its variables it is "not configured" and deliveries to its platform fail with
 * that error. A provider with some but not all of its variables, or a key that does not parse,
 * stops the process with a ConfigError naming the variable.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './error.ts';

type Env = Record<string, string | undefined>;

/** Firebase Cloud Messaging HTTP v1, from a service-account JSON. */
export interface FcmConfig {
  projectId: string;
  clientEmail: string;
  /** PKCS#8 PEM (RS256 signing key of the service account). */
  privateKey: string;
  privateKeyId: string | undefined;
  /** OAuth2 token endpoint (the JSON's token_uri). */
  tokenUri: string;
  /** Base URL of the FCM API, no trailing slash (default https://fcm.googleapis.com). */
  baseUrl: string;
}

/** APNs token-based (ES256 JWT) authentication over HTTP/2. */
export interface ApnsConfig {
  keyId: string;
  teamId: string;
  /** PKCS#8 PEM of the .p8 key (P-256). */
  privateKey: string;
  /** apns-topic: the app's bundle id. */
  topic: string;
  production: boolean;
  /** Base URL, no trailing slash (production or sandbox host unless CARETAKER_APNS_URL is set). */
  baseUrl: string;
}

/** Web Push VAPID identity. */
export interface WebPushConfig {
  /** base64url, uncompressed P-256 point (65 bytes). */
  publicKey: string;
  /** base64url, 32 bytes. */
  privateKey: string;
  /** mailto: or https: contact of the sender. */
  subject: string;
}

export interface PushConfig {
  /** Deadline of every provider call in milliseconds (connect, request and response). */
  timeoutMs: number;
  /** Extra PEM CA certificates trusted for push calls besides the system ones (tests only). */
  extraCa: string | undefined;
  /** Allow Web Push endpoints on loopback and private networks (tests only; default false). */
  allowPrivateEndpoints: boolean;
  fcm: FcmConfig | undefined;
  apns: ApnsConfig | undefined;
  webPush: WebPushConfig | undefined;
}

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** An inline value (JSON or PEM) or the path of a file holding it. */
function inlineOrFile(env: Env, name: string, marker: '{' | '-----BEGIN'): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  // An inline PEM may come with its line breaks written as \n (one-line environment files).
  if (raw.startsWith(marker)) return marker === '{' ? raw : raw.replace(/\\n/g, '\n');
  try {
    return readFileSync(raw, 'utf8');
  } catch {
    throw new ConfigError(name, `must be the value itself or a readable file (cannot read '${raw}')`);
  }
}

function baseUrl(env: Env, name: string, fallback: string): string {
  const raw = str(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError(name, 'must use https: or http:');
  return raw.replace(/\/+$/, '');
}

function allOrNone(env: Env, names: string[]): boolean {
  const set = names.filter((n) => str(env, n) !== undefined);
  if (set.length === 0) return false;
  const missing = names.find((n) => str(env, n) === undefined);
  if (missing) throw new ConfigError(missing, `must be set when ${set[0]} is set`);
  return true;
}

function loadFcm(env: Env): FcmConfig | undefined {
  const name = 'CARETAKER_FCM_SERVICE_ACCOUNT';
  const raw = inlineOrFile(env, name, '{');
  if (raw === undefined) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new ConfigError(name, 'must be a service-account JSON document');
  }
  const field = (key: string) => (typeof json[key] === 'string' && json[key] !== '' ? (json[key] as string) : undefined);
  for (const key of ['project_id', 'client_email', 'private_key']) {
    if (!field(key)) throw new ConfigError(name, `has no ${key}`);
  }
  try {
    if (createPrivateKey(field('private_key')!).asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    throw new ConfigError(name, 'private_key must be an RSA private key in PEM');
  }
  return {
    projectId: field('project_id')!,
    clientEmail: field('client_email')!,
    privateKey: field('private_key')!,
    privateKeyId: field('private_key_id'),
    tokenUri: field('token_uri') ?? 'https://oauth2.googleapis.com/token',
    baseUrl: baseUrl(env, 'CARETAKER_FCM_URL', 'https://fcm.googleapis.com'),
  };
}

function loadApns(env: Env): ApnsConfig | undefined {
  const names = ['CARETAKER_APNS_KEY_ID', 'CARETAKER_APNS_TEAM_ID', 'CARETAKER_APNS_PRIVATE_KEY', 'CARETAKER_APNS_TOPIC'];
  if (!allOrNone(env, names)) return undefined;
  const privateKey = inlineOrFile(env, 'CARETAKER_APNS_PRIVATE_KEY', '-----BEGIN')!;
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not P-256');
  } catch {
    throw new ConfigError('CARETAKER_APNS_PRIVATE_KEY', 'must be the P-256 (.p8) key in PEM, inline or as a file path');
  }
  const productionRaw = (str(env, 'CARETAKER_APNS_PRODUCTION') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0', 'yes', 'no'].includes(productionRaw)) {
    throw new ConfigError('CARETAKER_APNS_PRODUCTION', `must be true or false (got '${productionRaw}')`);
  }
  const production = ['true', '1', 'yes'].includes(productionRaw);
  return {
    keyId: str(env, 'CARETAKER_APNS_KEY_ID')!,
    teamId: str(env, 'CARETAKER_APNS_TEAM_ID')!,
    privateKey,
    topic: str(env, 'CARETAKER_APNS_TOPIC')!,
    production,
    baseUrl: baseUrl(env, 'CARETAKER_APNS_URL', production ? 'https://api.push.apple.com' : 'https://api.sandbox.push.apple.com'),
  };
}

function loadWebPush(env: Env): WebPushConfig | undefined {
  const names = ['CARETAKER_VAPID_PUBLIC_KEY', 'CARETAKER_VAPID_PRIVATE_KEY', 'CARETAKER_VAPID_SUBJECT'];
  if (!allOrNone(env, names)) return undefined;
  const publicKey = str(env, 'CARETAKER_VAPID_PUBLIC_KEY')!;
  const privateKey = str(env, 'CARETAKER_VAPID_PRIVATE_KEY')!;
  const subject = str(env, 'CARETAKER_VAPID_SUBJECT')!;
  if (!/^[A-Za-z0-9_-]+$/.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65) {
    throw new ConfigError('CARETAKER_VAPID_PUBLIC_KEY', 'must be a base64url P-256 public key (65 bytes); see `caretaker push vapid-keys`');
  }
  if (!/^[A-Za-z0-9_-]+$/.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32) {
    throw new ConfigError('CARETAKER_VAPID_PRIVATE_KEY', 'must be a base64url P-256 private key (32 bytes); see `caretaker push vapid-keys`');
  }
  if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/.test(subject)) {
    throw new ConfigError('CARETAKER_VAPID_SUBJECT', "must be a 'mailto:' address or an 'https://' URL");
  }
  return { publicKey, privateKey, subject };
}

/**
 * Reads the push variables (docs/push.md): CARETAKER_FCM_SERVICE_ACCOUNT, CARETAKER_FCM_URL,
 * CARETAKER_APNS_*, CARETAKER_VAPID_*, CARETAKER_PUSH_TIMEOUT_MS, CARETAKER_PUSH_CA_FILE,
 * CARETAKER_PUSH_ALLOW_PRIVATE_ENDPOINTS.
 * @throws ConfigError naming the first bad variable
 */
export function loadPushConfig(env: Env): PushConfig {
  const timeoutRaw = str(env, 'CARETAKER_PUSH_TIMEOUT_MS') ?? '10000';
  const timeoutMs = Number(timeoutRaw);
  if (!/^\d+$/.test(timeoutRaw) || timeoutMs < 100 || timeoutMs > 120_000) {
    throw new ConfigError('CARETAKER_PUSH_TIMEOUT_MS', `must be a whole number between 100 and 120000 (got '${timeoutRaw}')`);
  }
  const allowRaw = (str(env, 'CARETAKER_PUSH_ALLOW_PRIVATE_ENDPOINTS') ?? 'false').toLowerCase();
  if (!['true', 'false'].includes(allowRaw)) {
    throw new ConfigError('CARETAKER_PUSH_ALLOW_PRIVATE_ENDPOINTS', `must be true or false (got '${allowRaw}')`);
  }
  const extraCa = inlineOrFile(env, 'CARETAKER_PUSH_CA_FILE', '-----BEGIN');
  if (extraCa !== undefined && !extraCa.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError('CARETAKER_PUSH_CA_FILE', 'must hold PEM certificates');
  }
  return {
    timeoutMs,
    extraCa,
    allowPrivateEndpoints: allowRaw === 'true',
    fcm: loadFcm(env),
    apns: loadApns(env),
    webPush: loadWebPush(env),
  };
}
