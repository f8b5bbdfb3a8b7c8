/**
 * SMS (docs/conversations.md "SMS"): sending a queued delivery through the configured provider,
 * the provider's delivery reports (status and price), received messages with the opt-out keywords
 * (STOP, UNSUBSCRIBE, ... and START), quiet hours and the costs counted per agency.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { SmsConfig } from '../../../config/conversations.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { forbidden, invalidParam } from '../../../core/errors.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { addDays, londonDate, londonTime, londonToUtc } from '../../../lib/london-time.ts';
import { SmsSendError, type SmsProvider } from './provider.ts';
import * as repo from './sms.repository.ts';
import { TwilioProvider, verifyTwilioSignature } from './twilio.ts';

/** Keywords that put a number on the opt-out list (the carriers' and Twilio's set). */
export const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'];
/** Keywords that take it off again. */
export const START_WORDS = ['START', 'UNSTOP', 'YES', 'SUBSCRIBE', 'OPTIN'];

const providers = new WeakMap<object, SmsProvider>();

/** The configured provider, or undefined when none is (SMS then fail at once with not_configured). */
export function smsProvider(cfg: SmsConfig): SmsProvider | undefined {
  if (!cfg.twilio) return undefined;
  let p = providers.get(cfg.twilio);
  if (!p) providers.set(cfg.twilio, (p = new TwilioProvider(cfg.twilio, cfg.timeoutMs)));
  return p;
}

/**
 * A phone number in E.164, for sending and for matching replies: spaces, dots, dashes and
 * brackets dropped, a UK national number (07..., 01..., 02...) or 44... given its +44.
 * @returns null when it is not a number
 */
export function normalisePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let n = raw.replace(/[\s().-]/g, '');
  if (n.startsWith('00')) n = `+${n.slice(2)}`;
  else if (/^0[1-9]\d{8,9}$/.test(n)) n = `+44${n.slice(1)}`;
  else if (/^44\d{9,10}$/.test(n)) n = `+${n}`;
  return /^\+[1-9]\d{6,14}$/.test(n) ? n : null;
}

/**
 * True when an E.164 number (from normalisePhone) can take a text: a UK mobile (+447...) or a
 * number outside the UK; a UK landline (+441..., +442..., +443...) cannot.
 */
export function isMobileNumber(e164: string): boolean {
  return e164.startsWith('+447') || !e164.startsWith('+44');
}

/**
 * When a message may go out: `now`, or for a non-urgent message inside the quiet hours
 * (CARETAKER_SMS_QUIET_HOURS, London wall clock, default 21:00-08:00) the London instant they end.
 */
export function smsSendAt(cfg: SmsConfig, now: Date, urgent: boolean): Date {
  if (urgent) return now;
  const { start, end } = cfg.quietHours;
  const t = londonTime(now);
  const today = londonDate(now);
  const wraps = start > end;
  const inside = wraps ? t >= start || t < end : t >= start && t < end;
  if (!inside) return now;
  const endDay = wraps && t >= start ? addDays(today, 1) : today;
  return londonToUtc(endDay, end);
}

/** True when the number opted out (replied STOP). */
export function smsOptedOut(db: DbOrTrx, phone: string): Promise<boolean> {
  return repo.isOptedOut(db, phone);
}

/** The outcome of one send attempt, in the terms of the delivery log (docs/messaging.md). */
export interface SmsAttempt {
  error: string | null;
  final?: 'failed' | 'suppressed';
  reason?: string;
}

/**
 * Sends one queued SMS delivery (called by the messaging sender, outside any transaction) and
 * logs it with the provider's id, so its delivery reports and replies find it.
 * @returns error null when the provider accepted it; `final` failed with reason `not_configured`
 *   without a provider, suppressed with reason `opted_out` for a number that replied STOP
 *   (here or at the provider), failed for a permanent refusal; otherwise a retryable error
 */
export async function sendSms(deps: AppDeps, d: { deliveryId: number; agencyId: number; to: string; text: string; threadId: number | null }): Promise<SmsAttempt> {
  const provider = smsProvider(deps.config.sms);
  if (!provider) return { error: 'no SMS provider is configured', final: 'failed', reason: 'not_configured' };
  if (await repo.isOptedOut(deps.db, d.to)) return { error: 'the recipient opted out (STOP)', final: 'suppressed', reason: 'opted_out' };
  try {
    const sent = await provider.send({ to: d.to, body: d.text, statusCallback: `${deps.config.mail.publicUrl}/api/sms/twilio/status` });
    const now = deps.clock.now();
    await repo.insertSms(deps.db, {
      uuid: newUuid(), agency_id: d.agencyId, direction: 'outbound', delivery_id: d.deliveryId, thread_id: d.threadId, to_number: d.to, from_number: provider.from,
      body: null, provider: provider.name, provider_sid: sent.sid, status: sent.status, error_code: null, segments: sent.segments, price_micros: null,
      price_currency: null, created_at: now, updated_at: now,
    });
    return { error: null };
  } catch (err) {
    if (err instanceof SmsSendError) {
      if (err.unsubscribed) {
        await repo.optOut(deps.db, d.to, 'provider', deps.clock.now());
        return { error: err.message, final: 'suppressed', reason: 'opted_out' };
      }
      return err.permanent ? { error: err.message, final: 'failed' } : { error: err.message };
    }
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Checks the X-Twilio-Signature of a request Twilio made to `path` (resolved against
 * CARETAKER_PUBLIC_URL, the address Twilio was given).
 * @throws 403 "Invalid signature" when it does not hold or no provider is configured
 */
export function checkTwilioRequest(deps: AppDeps, path: string, params: Record<string, unknown>, signature: string | undefined): void {
  const cfg = deps.config.sms.twilio;
  if (!cfg || !verifyTwilioSignature(cfg.authToken, `${deps.config.mail.publicUrl}${path}`, params, signature)) throw forbidden('Invalid signature');
}

/** Millionths of the currency unit of a provider's price ("-0.04000" GBP: 40000); null when absent. */
export function priceMicros(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^-?\d+(\.\d+)?$/.test(raw.trim())) return null;
  return Math.round(Math.abs(Number(raw)) * 1_000_000);
}

/**
 * A delivery report (Twilio status callback: MessageSid, MessageStatus, ErrorCode, and Price,
 * PriceUnit, NumSegments when Twilio includes them): the status and the price are recorded on the
 * logged message. Twilio's signature carries no time and a message has several reports, so a
 * report is kept only when it moves the message on: one of an earlier stage after a final status
 * (delivered, undelivered, failed, ...: a late or replayed report) changes nothing.
 * @returns 'updated'; 'stale' for such a report; 'unknown' when the message is not ours (nothing recorded)
 */
export async function recordSmsStatus(deps: AppDeps, p: Record<string, unknown>): Promise<'updated' | 'stale' | 'unknown'> {
  const sid = typeof p.MessageSid === 'string' ? p.MessageSid : typeof p.SmsSid === 'string' ? p.SmsSid : null;
  const status = typeof p.MessageStatus === 'string' ? p.MessageStatus : typeof p.SmsStatus === 'string' ? p.SmsStatus : null;
  if (!sid || !status) throw invalidParam('MessageSid');
  const segments = Number(p.NumSegments);
  return repo.updateStatus(deps.db, 'twilio', sid, {
    status,
    errorCode: typeof p.ErrorCode === 'string' && p.ErrorCode !== '' ? p.ErrorCode : null,
    segments: Number.isInteger(segments) && segments > 0 ? segments : null,
    priceMicros: priceMicros(p.Price),
    currency: typeof p.PriceUnit === 'string' ? p.PriceUnit.toUpperCase() : null,
    at: deps.clock.now(),
  });
}

/**
 * What a STOP or START text does to the SMS consents of the people holding the number, in the
 * transaction of the opt-out (docs/gdpr.md "Consents by text"). The composition root passes the
 * GDPR module's smsReplyConsent (that module reads this one: it cannot be imported from here).
 * @returns the names of the agencies whose people hold the number (empty: nobody known)
 */
export type SmsReplyConsent = (trx: DbOrTrx, phone: string, keyword: string, action: 'stop' | 'start', now: Date) => Promise<string[]>;

/** "Headingley Homes", "A and B", or "us" when the number is nobody's we know. */
function senders(agencies: string[]): string {
  if (agencies.length === 0) return 'us';
  return agencies.length === 1 ? agencies[0]! : `${agencies.slice(0, -1).join(', ')} and ${agencies.at(-1)!}`;
}

/**
 * A received SMS (Twilio: From, To, Body, MessageSid). Each MessageSid is handled once, ever: a
 * redelivered or replayed request (Twilio's signature carries no time, so an old signed request
 * stays valid) changes nothing and is answered `duplicate` (docs/security.md "One rule for every
 * way in"). A STOP word (the whole text, any case) puts the number on the opt-out list and
 * withdraws the SMS consents of the people holding it; a START word takes it off and gives back
 * the consents a STOP withdrew (`consent`, in one transaction, under the number's lock: one
 * number's texts apply one at a time, each at its own time). Neither is logged as a message nor
 * lands in a thread; its MessageSid is kept (sms_keyword_texts). Anything else is logged and, when
 * the number was last written to from a conversation thread, announced as `sms.received` for that
 * thread (the conversations module posts it).
 * @returns the text to answer with (TwiML <Message>: the confirmation of a STOP or START, naming
 *   the agencies), or null for no answer
 * @throws 400 `From` (not a phone number) or `MessageSid` (missing)
 */
export async function receiveSms(
  deps: AppDeps,
  p: Record<string, unknown>,
  consent: SmsReplyConsent,
): Promise<{ reply: string | null; outcome: 'opted_out' | 'opted_in' | 'matched' | 'unmatched' | 'duplicate' }> {
  const from = normalisePhone(typeof p.From === 'string' ? p.From : null);
  if (!from) throw invalidParam('From');
  const sid = typeof p.MessageSid === 'string' && p.MessageSid.length > 0 && p.MessageSid.length <= 64 ? p.MessageSid : null;
  if (!sid) throw invalidParam('MessageSid');
  const body = typeof p.Body === 'string' ? p.Body : '';
  const word = body.trim().toUpperCase();
  const action = STOP_WORDS.includes(word) ? 'stop' : START_WORDS.includes(word) ? 'start' : null;
  if (action) {
    const agencies = await deps.db.transaction().execute(async (trx) => {
      await repo.lockNumberConsent(trx, from);
      // The time of the change is taken under the lock: a later text of the number is applied later.
      const at = deps.clock.now();
      if (!(await repo.recordKeywordText(trx, { provider: 'twilio', sid, keyword: word, action, at }))) return undefined;
      if (action === 'stop') await repo.optOut(trx, from, word, at);
      else await repo.optIn(trx, from);
      return consent(trx, from, word, action, at);
    });
    if (agencies === undefined) return { reply: null, outcome: 'duplicate' };
    return action === 'stop'
      ? { reply: `You will get no more texts from ${senders(agencies)}. Reply START to get them again.`, outcome: 'opted_out' }
      : { reply: `You will get texts from ${senders(agencies)} again. Reply STOP to stop them.`, outcome: 'opted_in' };
  }
  const now = deps.clock.now();
  const last = await repo.lastThreadMessageTo(deps.db, from);
  const id = await deps.db.transaction().execute(async (trx) => {
    const inserted = await repo.insertSms(trx, {
      uuid: newUuid(), agency_id: last?.agency_id ?? null, direction: 'inbound', delivery_id: null, thread_id: last?.thread_id ?? null, to_number: String(p.To ?? ''),
      from_number: from, body, provider: 'twilio', provider_sid: sid, status: 'received', error_code: null, segments: null, price_micros: null, price_currency: null,
      created_at: now, updated_at: now,
    });
    if (inserted !== undefined && last?.thread_id) await emitEvent(trx, now, { name: 'sms.received', agencyId: last.agency_id, payload: { sms_id: inserted, thread_id: last.thread_id } });
    return inserted;
  });
  if (id === undefined) return { reply: null, outcome: 'duplicate' };
  return { reply: null, outcome: last?.thread_id ? 'matched' : 'unmatched' };
}

/**
 * GET /api/sms/usage: the agency's SMS in a period: messages sent, segments, delivered, failed,
 * received, and the cost per currency as reported by the provider.
 * @param q from (inclusive) and to (exclusive), YYYY-MM-DD London days; default the current month
 * @throws 403 for SysOps (no agency), 400 for a bad range
 */
export async function smsUsage(deps: AppDeps, auth: AuthContext, q: { from?: string | undefined; to?: string | undefined }) {
  const agencyId = readAgency(auth);
  if (agencyId === null) throw forbidden();
  const today = londonDate(deps.clock.now());
  const from = q.from ?? `${today.slice(0, 7)}-01`;
  const [y, m] = today.split('-').map(Number) as [number, number];
  const to = q.to ?? (m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`);
  if (to <= from) throw invalidParam('to');
  const { rows, received } = await repo.usage(deps.db, agencyId, londonToUtc(from), londonToUtc(to));
  const sum = (k: 'messages' | 'segments' | 'delivered' | 'failed' | 'unpriced') => rows.reduce((n, r) => n + r[k], 0);
  return {
    from, to,
    messages: sum('messages'), segments: sum('segments'), delivered: sum('delivered'), failed: sum('failed'), received, unpriced: sum('unpriced'),
    costs: rows.filter((r) => r.price_currency !== null).map((r) => ({ currency: r.price_currency!, price_micros: Number(r.price_micros), amount_minor: Math.round(Number(r.price_micros) / 10_000) })),
  };
}
