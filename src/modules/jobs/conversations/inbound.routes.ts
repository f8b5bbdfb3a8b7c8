/**
 * The inbound-mail webhook (docs/conversations.md "Reply by e-mail"): POST /api/inbound/mailgun,
 * in the format of Mailgun's routes forwarding raw MIME (a `forward()` action to a URL, with the
 * message in `body-mime`), as application/x-www-form-urlencoded or multipart/form-data. Mailgun
 * signs every call: `signature` is HMAC-SHA256 under the account's HTTP webhook signing key
 * (CARETAKER_MAILGUN_SIGNING_KEY) of `timestamp` followed by `token`, hex; a timestamp more than
 * five minutes from the server's clock is refused too, and so is a (timestamp, token) pair already
 * accepted once (remembered until it is no longer fresh: deps.callbackUses, src/core/callback-uses.ts;
 * docs/security.md "One rule for every way in"). The message then goes the same way as one
 * received by the SMTP listener.
 */
import { createHmac } from 'node:crypto';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { conflict, forbidden, invalidParam } from '../../../core/errors.ts';
import type { App } from '../../../http/route-types.ts';
import { safeEqual } from '../../../lib/crypto.ts';
import { receiveEmail } from './inbound.service.ts';
import { registerUploadParsing } from '../../../http/upload.ts';

/** Seconds a signed call stays fresh either side of the server's clock. */
const MAX_SKEW_S = 300;
/** Seconds a used (timestamp, token) is remembered beyond its freshness, for clocks of other instances a little apart. */
const USE_MARGIN_S = 60;

const Outcome = Type.Object({
  outcome: Type.String({ description: 'posted, duplicate, ignored (auto-reply or bounce) or refused' }),
  reason: Type.Optional(Type.String({ description: 'why ignored or refused: auto_reply, bounce, forged, no_reply_address, unknown_thread, not_a_participant, empty' })),
  message_uuid: Type.Optional(Type.String()),
  thread_uuid: Type.Optional(Type.String()),
  attachments: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** Mailgun's signature of a webhook call. */
export function mailgunSignature(signingKey: string, timestamp: string, token: string): string {
  return createHmac('sha256', signingKey).update(timestamp + token, 'utf8').digest('hex');
}

async function formFields(request: FastifyRequest, maxBytes: number): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  if (request.isMultipart()) {
    for await (const part of request.parts({ limits: { fieldSize: maxBytes, files: 0, fields: 50 } })) {
      if (part.type === 'field' && typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
    return fields;
  }
  for (const [k, v] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') fields[k] = v;
  }
  return fields;
}

/** Registers the inbound-mail webhook. */
export function inboundMailRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);
    /** POST /api/inbound/mailgun: a reply e-mail forwarded by a Mailgun route (raw MIME). */
    app.post('/api/inbound/mailgun', {
      config: { permission: 'public' },
      bodyLimit: Math.ceil(deps.config.inboundMail.maxBytes * 1.4),
      schema: {
        tags: ['messaging'],
        summary: 'A reply e-mail forwarded by Mailgun (raw MIME)',
        description:
          "Mailgun's store-and-forward format for raw MIME: fields `body-mime`, `recipient`, `sender`, `timestamp`, `token`, `signature` " +
          '(form or multipart). A wrong signature or a timestamp more than 5 minutes off is 403, and so is every request without CARETAKER_MAILGUN_SIGNING_KEY. ' +
          'A signature is accepted once: the same timestamp and token again (a replay, whatever the message) is 409 "This signature was already used" and posts nothing. ' +
          'The answer says what became of the message: posted in its thread, a duplicate, ignored (auto-reply, bounce) or refused (unknown or ' +
          'forged reply address, a sender who is not a person of the thread); 200 in every case, so Mailgun does not retry.',
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
        response: responses(DataEnvelope(Outcome), [400, 403, 409, 413, 429]),
      },
      handler: async (request) => {
        const key = deps.config.inboundMail.mailgunSigningKey;
        // Without the key no request can be verified: refused like a bad signature, as Twilio's are.
        if (!key) throw forbidden('Inbound mail is not configured');
        const f = await formFields(request, deps.config.inboundMail.maxBytes);
        const { timestamp = '', token = '', signature = '' } = f;
        const skew = Math.abs(deps.clock.now().getTime() / 1000 - Number(timestamp));
        if (!/^\d{1,12}$/.test(timestamp) || !(skew <= MAX_SKEW_S) || token.length === 0 || token.length > 256 || !safeEqual(mailgunSignature(key, timestamp, token), signature)) {
          throw forbidden('Invalid signature');
        }
        const mime = f['body-mime'];
        if (!mime) throw invalidParam('body-mime');
        // Once only: claimed before anything is done, given back if the message could not be handled.
        const use = `${timestamp}.${token}`;
        const expiresAt = new Date((Number(timestamp) + MAX_SKEW_S + USE_MARGIN_S) * 1000);
        if (!(await deps.callbackUses.claim('mailgun', use, deps.clock.now(), expiresAt))) {
          request.log.warn({ reason: 'replayed_signature', timestamp }, 'inbound e-mail refused');
          throw conflict('This signature was already used');
        }
        const to = (f.recipient ?? '').split(',').map((a) => a.trim()).filter(Boolean);
        try {
          const r = await receiveEmail(deps, mime, { to, from: f.sender }, request.log);
          return ok(r, r.outcome === 'posted' ? 'Reply posted' : 'Reply not posted');
        } catch (err) {
          await deps.callbackUses.release('mailgun', use).catch(() => undefined);
          throw err;
        }
      },
    });
  };
}
