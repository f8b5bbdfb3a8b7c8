/**
 * Firebase Cloud Messaging HTTP v1 (docs/push.md). OAuth2 for a service account: an RS256 JWT
 * assertion (iss = client_email, aud = token_uri, scope firebase.messaging, one hour) signed with
 * `jose` is exchanged at the token endpoint for an access token, cached until a minute before it
 * expires; then `POST {base}/v1/projects/{project}/messages:send` per token. 404 UNREGISTERED /
 * NOT_FOUND and 400 INVALID_ARGUMENT about the token mean the token is dead.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { outboundRequest } from '../../../lib/outbound-http.ts';
import type { FcmConfig } from '../../../config/push.ts';
import { clipBytes, errorText, type PushMessage, type PushOutcome, type PushSender, type PushTarget } from './push.types.ts';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** Access tokens per app instance, keyed by service account and token endpoint. */
const tokenCache = new WeakMap<object, Map<string, { token: string; expiresAt: number }>>();

/**
 * An OAuth2 access token for the service account: a cached one valid for at least another
 * minute, else a new one from the token endpoint.
 * @throws Error with the endpoint's status when the exchange fails
 */
export async function fcmAccessToken(deps: AppDeps, cfg: FcmConfig, timeoutMs: number, extraCa: string | undefined): Promise<string> {
  const nowS = Math.floor(deps.clock.now().getTime() / 1000);
  let cache = tokenCache.get(deps);
  if (!cache) tokenCache.set(deps, (cache = new Map()));
  const key = `${cfg.clientEmail} ${cfg.tokenUri}`;
  const hit = cache.get(key);
  if (hit && hit.expiresAt - 60 > nowS) return hit.token;
  // jose is loaded on first use rather than at start (docs/operations.md "Starting").
  const { importPKCS8, SignJWT } = await import('jose');
  const signingKey = await importPKCS8(cfg.privateKey, 'RS256');
  const assertion = await new SignJWT({ scope: FCM_SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(cfg.privateKeyId ? { kid: cfg.privateKeyId } : {}) })
    .setIssuer(cfg.clientEmail)
    .setAudience(cfg.tokenUri)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + 3600)
    .sign(signingKey);
  const res = await outboundRequest({
    method: 'POST',
    url: cfg.tokenUri,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
    timeoutMs,
    extraCa,
  });
  let json: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    json = JSON.parse(res.body) as typeof json;
  } catch {
    json = {};
  }
  if (res.status !== 200 || typeof json.access_token !== 'string') {
    throw new Error(`FCM token endpoint ${res.status}${typeof json.error === 'string' ? ` ${json.error}` : ''}`);
  }
  const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600;
  cache.set(key, { token: json.access_token, expiresAt: nowS + expiresIn });
  return json.access_token;
}

/** The messages:send body for one registration token. */
export function fcmBody(token: string, message: PushMessage): string {
  return JSON.stringify({
    message: {
      token,
      notification: { title: clipBytes(message.title, 256), body: clipBytes(message.body, 2048) },
      ...(message.data && Object.keys(message.data).length > 0 ? { data: message.data } : {}),
      android: { priority: 'high' },
    },
  });
}

interface FcmError {
  error?: {
    status?: string;
    message?: string;
    details?: { errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
}

/** Reads an FCM error response: the outcome for the token. */
export function fcmOutcome(status: number, body: string): PushOutcome {
  let err: FcmError['error'] = {};
  try {
    err = (JSON.parse(body) as FcmError).error ?? {};
  } catch {
    err = {};
  }
  const codes = (err.details ?? []).map((d) => d.errorCode).filter(Boolean);
  const code = codes[0] ?? err.status ?? '';
  const error = `FCM ${status}${code ? ` ${code}` : ''}`;
  if (status === 404 || codes.includes('UNREGISTERED')) return { status: 'unregistered', error };
  const aboutToken =
    (err.details ?? []).some((d) => (d.fieldViolations ?? []).some((v) => v.field === 'message.token')) ||
    /registration token/i.test(err.message ?? '');
  if (status === 400 && (code === 'INVALID_ARGUMENT' || err.status === 'INVALID_ARGUMENT') && aboutToken) return { status: 'unregistered', error };
  return { status: 'failed', error };
}

/** Opens FCM for one batch: one access-token exchange shared by the batch's sends. */
export function openFcm(deps: AppDeps, cfg: FcmConfig, timeoutMs: number, extraCa: string | undefined): PushSender {
  let accessToken: Promise<string> | undefined;
  const url = `${cfg.baseUrl}/v1/projects/${encodeURIComponent(cfg.projectId)}/messages:send`;

  async function send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
    let bearer: string;
    try {
      accessToken ??= fcmAccessToken(deps, cfg, timeoutMs, extraCa);
      bearer = await accessToken;
    } catch (err) {
      return { status: 'failed', error: errorText(err) };
    }
    try {
      const res = await outboundRequest({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json; charset=utf-8' },
        body: fcmBody(target.token, message),
        timeoutMs,
        extraCa,
      });
      if (res.status === 200) return { status: 'sent' };
      if (res.status === 401) tokenCache.get(deps)?.delete(`${cfg.clientEmail} ${cfg.tokenUri}`);
      return fcmOutcome(res.status, res.body);
    } catch (err) {
      return { status: 'failed', error: `FCM: ${errorText(err)}` };
    }
  }

  return { send, close: () => undefined };
}
