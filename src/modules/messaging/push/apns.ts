/**
 * Apple Push Notification service over HTTP/2 with token-based authentication (docs/push.md):
 * an ES256 JWT (header kid = key id, claims iss = team id, iat) signed with the .p8 key through
 * `jose`, reused for 50 minutes (Apple refuses tokens older than an hour and ones renewed more
 * often than every 20 minutes); one HTTP/2 session per batch, `POST /3/device/{token}` per token.
 * 410 Unregistered and 400 BadDeviceToken mean the token is dead.
 */
import http2 from 'node:http2';
import tls from 'node:tls';
import type { AppDeps } from '../../../app-deps.ts';
import type { ApnsConfig } from '../../../config/push.ts';
import { clipBytes, errorText, type PushMessage, type PushOutcome, type PushSender, type PushTarget } from './push.types.ts';

const JWT_LIFETIME_S = 50 * 60;
/** Provider tokens per app instance (keyed by key id and team id). */
const jwtCache = new WeakMap<object, Map<string, { jwt: string; issuedAt: number }>>();
const DEAD_REASONS = new Set(['Unregistered', 'BadDeviceToken']);

/**
 * The APNs provider token for `cfg` at `now`: a cached one younger than 50 minutes, else a new one.
 * @returns the compact JWS
 */
export async function apnsProviderToken(deps: AppDeps, cfg: ApnsConfig): Promise<string> {
  const nowS = Math.floor(deps.clock.now().getTime() / 1000);
  let cache = jwtCache.get(deps);
  if (!cache) jwtCache.set(deps, (cache = new Map()));
  const key = `${cfg.teamId}/${cfg.keyId}`;
  const hit = cache.get(key);
  if (hit && nowS - hit.issuedAt < JWT_LIFETIME_S && nowS >= hit.issuedAt) return hit.jwt;
  // jose is loaded on first use rather than at start (docs/operations.md "Starting").
  const { importPKCS8, SignJWT } = await import('jose');
  const signingKey = await importPKCS8(cfg.privateKey, 'ES256');
  const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: cfg.keyId }).setIssuer(cfg.teamId).setIssuedAt(nowS).sign(signingKey);
  cache.set(key, { jwt, issuedAt: nowS });
  return jwt;
}

/** The JSON body APNs receives: an alert with title and body, the data map beside `aps`. */
export function apnsPayload(message: PushMessage): string {
  const alert = { title: clipBytes(message.title, 256), body: clipBytes(message.body, 2048) };
  const data = Object.fromEntries(Object.entries(message.data ?? {}).filter(([k]) => k !== 'aps'));
  return JSON.stringify({ ...data, aps: { alert, sound: 'default' } });
}

/**
 * Opens an HTTP/2 session to APNs for one batch.
 * @param extraCa PEM certificates trusted besides the system ones (tests)
 */
export function openApns(deps: AppDeps, cfg: ApnsConfig, timeoutMs: number, extraCa: string | undefined): PushSender {
  let session: http2.ClientHttp2Session | undefined;
  const connect = (): http2.ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    session = http2.connect(cfg.baseUrl, extraCa ? { ca: [...tls.rootCertificates, extraCa] } : {});
    session.on('error', () => undefined); // surfaced per request; an unhandled 'error' would crash the process
    session.setTimeout(timeoutMs, () => session?.destroy());
    return session;
  };

  async function send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
    if (!/^[0-9a-fA-F]{1,400}$/.test(target.token)) return { status: 'failed', error: 'malformed APNs device token' };
    let jwt: string;
    try {
      jwt = await apnsProviderToken(deps, cfg);
    } catch (err) {
      return { status: 'failed', error: `APNs provider token: ${errorText(err)}` };
    }
    const body = apnsPayload(message);
    return new Promise<PushOutcome>((resolve) => {
      let stream: http2.ClientHttp2Stream;
      const timer = setTimeout(() => {
        stream?.close(http2.constants.NGHTTP2_CANCEL);
        resolve({ status: 'failed', error: `timeout after ${timeoutMs} ms` });
      }, timeoutMs);
      const finish = (outcome: PushOutcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      try {
        stream = connect().request({
          ':method': 'POST',
          ':path': `/3/device/${target.token}`,
          authorization: `bearer ${jwt}`,
          'apns-topic': cfg.topic,
          'apns-push-type': 'alert',
          'apns-priority': '10',
          'content-type': 'application/json',
        });
      } catch (err) {
        finish({ status: 'failed', error: `APNs: ${errorText(err)}` });
        return;
      }
      let status = 0;
      let text = '';
      stream.setEncoding('utf8');
      stream.on('response', (headers) => (status = Number(headers[':status'] ?? 0)));
      stream.on('data', (chunk: string) => {
        if (text.length < 4096) text += chunk;
      });
      stream.on('error', (err) => finish({ status: 'failed', error: `APNs: ${errorText(err)}` }));
      stream.on('end', () => {
        if (status === 200) return finish({ status: 'sent' });
        let reason = '';
        try {
          reason = String((JSON.parse(text) as { reason?: unknown }).reason ?? '');
        } catch {
          reason = '';
        }
        const error = `APNs ${status}${reason ? ` ${reason}` : ''}`;
        finish(status === 410 || (status === 400 && DEAD_REASONS.has(reason)) ? { status: 'unregistered', error } : { status: 'failed', error });
      });
      stream.end(body);
    });
  }

  return {
    send,
    close: () => {
      session?.close();
    },
  };
}
