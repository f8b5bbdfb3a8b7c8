/**
 * The Twilio adapter of the SMS provider interface (docs/conversations.md "SMS"): Twilio's
 * Programmable Messaging REST protocol spoken directly (a small protocol, so no SDK): send with
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (HTTP basic auth with the account SID and
 * auth token, form body To, From or MessagingServiceSid, Body, StatusCallback), and the
 * X-Twilio-Signature check of the requests Twilio makes to us (status callbacks, incoming
 * messages): base64 HMAC-SHA1 under the auth token of the full URL followed by every POST
 * parameter, sorted by name, as name and value.
 */
import { createHmac } from 'node:crypto';
import type { TwilioConfig } from '../../../config/conversations.ts';
import { safeEqual } from '../../../lib/crypto.ts';
import { outboundRequest } from '../../../lib/outbound-http.ts';
import { SmsSendError, type SmsProvider, type SmsSendResult } from './provider.ts';

/** Twilio error codes that no retry can fix (invalid or unreachable number, unsubscribed, blocked). */
const PERMANENT = new Set([21211, 21408, 21610, 21612, 21614, 30003, 30005, 30006, 30007]);
/** The recipient replied STOP to the sending number (Twilio keeps its own list too). */
export const TWILIO_UNSUBSCRIBED = 21610;

/** The signature Twilio puts in X-Twilio-Signature for a request to `url` with these form parameters. */
export function twilioSignature(authToken: string, url: string, params: Record<string, unknown>): string {
  const data = Object.keys(params)
    .sort()
    .map((k) => {
      const v = params[k];
      return (Array.isArray(v) ? v : [v]).map((x) => `${k}${String(x ?? '')}`).join('');
    })
    .join('');
  return createHmac('sha1', authToken).update(url + data, 'utf8').digest('base64');
}

/** Constant-time check of an X-Twilio-Signature header. */
export function verifyTwilioSignature(authToken: string, url: string, params: Record<string, unknown>, header: string | undefined): boolean {
  return header !== undefined && header.length > 0 && safeEqual(twilioSignature(authToken, url, params), header);
}

/** Sends through Twilio's Messages API. */
export class TwilioProvider implements SmsProvider {
  readonly name = 'twilio';
  private readonly cfg: TwilioConfig;
  private readonly timeoutMs: number;

  constructor(cfg: TwilioConfig, timeoutMs: number) {
    this.cfg = cfg;
    this.timeoutMs = timeoutMs;
  }

  /** The sender as shown in the log: the number, or the Messaging Service SID. */
  get from(): string {
    return this.cfg.from;
  }

  async send(msg: { to: string; body: string; statusCallback?: string | undefined }): Promise<SmsSendResult> {
    const form = new URLSearchParams({ To: msg.to, Body: msg.body });
    form.set(this.cfg.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', this.cfg.from);
    if (msg.statusCallback) form.set('StatusCallback', msg.statusCallback);
    const res = await outboundRequest({
      method: 'POST',
      url: `${this.cfg.apiUrl}/2010-04-01/Accounts/${this.cfg.accountSid}/Messages.json`,
      headers: {
        authorization: `Basic ${Buffer.from(`${this.cfg.accountSid}:${this.cfg.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      timeoutMs: this.timeoutMs,
    });
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(res.body) as Record<string, unknown>;
    } catch {
      // not JSON: reported with the status below
    }
    if (res.status < 200 || res.status >= 300) {
      const code = typeof json.code === 'number' ? json.code : null;
      const message = typeof json.message === 'string' ? json.message : `HTTP ${res.status}`;
      throw new SmsSendError(`${message}${code ? ` (Twilio ${code})` : ''}`, {
        code: code === null ? null : String(code),
        permanent: (code !== null && PERMANENT.has(code)) || res.status === 401 || res.status === 404,
        unsubscribed: code === TWILIO_UNSUBSCRIBED,
      });
    }
    if (typeof json.sid !== 'string') throw new SmsSendError('Twilio answered without a message sid', { code: null, permanent: false, unsubscribed: false });
    const segments = Number(json.num_segments);
    return { sid: json.sid, status: typeof json.status === 'string' ? json.status : 'queued', segments: Number.isFinite(segments) && segments > 0 ? segments : null };
  }
}
