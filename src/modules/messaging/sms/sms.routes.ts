/**
 * SMS endpoints (docs/conversations.md "SMS"): Twilio's status callback and incoming-message
 * webhook (both public, signed in X-Twilio-Signature), and the agency's counts and costs.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, MessageEnvelope, done, fileResponse, ok, responses } from '../../../http/envelope.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { TwilioForm, Usage, UsageQuery } from './sms.schemas.ts';
import { checkTwilioRequest, receiveSms, recordSmsStatus, smsUsage, type SmsReplyConsent } from './sms.service.ts';

const TwiML = fileResponse(['text/xml'], 'A TwiML <Response>, with a <Message> answering STOP and START');

/**
 * Registers the SMS routes. `consent` is what a STOP or START text does to the SMS consents of the
 * number's people (the GDPR module's smsReplyConsent, passed by src/main/app.ts).
 */
export function smsRoutes(deps: AppDeps, consent: SmsReplyConsent) {
  return async function plugin(app: App): Promise<void> {
    /** POST /api/sms/twilio/status: a delivery report. */
    app.post('/api/sms/twilio/status', {
      config: { permission: 'public' },
      schema: {
        tags: ['messaging'],
        summary: "Twilio's delivery report of an SMS (status callback)",
        description:
          'Form body as Twilio sends it (MessageSid, MessageStatus, ErrorCode; Price, PriceUnit and NumSegments when present), signed in ' +
          'X-Twilio-Signature over CARETAKER_PUBLIC_URL + the path: a missing or wrong signature is 403. The status and the price are recorded; ' +
          'an unknown MessageSid is answered 200 and records nothing. A report of an earlier stage (queued, sending, sent) after a final status ' +
          '(delivered, undelivered, failed, read, canceled), late or replayed, changes nothing: 200 "Status already final".',
        // Twilio posts forms; JSON is taken too, as on every write (src/http/methods.ts).
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TwilioForm,
        response: responses(MessageEnvelope, [400, 403, 429]),
      },
      handler: async (request) => {
        checkTwilioRequest(deps, request.url, request.body, request.headers['x-twilio-signature'] as string | undefined);
        const r = await recordSmsStatus(deps, request.body);
        return done(r === 'updated' ? 'Status recorded' : r === 'stale' ? 'Status already final' : 'Unknown message');
      },
    });

    /** POST /api/sms/twilio/inbound: an SMS sent to our number. */
    app.post('/api/sms/twilio/inbound', {
      config: { permission: 'public' },
      schema: {
        tags: ['messaging'],
        summary: 'An SMS received by the service number (Twilio incoming-message webhook)',
        description:
          'Form body as Twilio sends it (From, To, Body, MessageSid), signed in X-Twilio-Signature (else 403). STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, ' +
          'QUIT, OPTOUT, REVOKE (the whole text, any case) put the number on the opt-out list and withdraw the sms_updates consents of the people ' +
          'holding it; START, UNSTOP, YES, SUBSCRIBE, OPTIN take it off and give back the consents a STOP withdrew (answered with a confirmation ' +
          'naming the agency; neither is a message of a thread); any other text lands in the ' +
          'conversation thread of the last message sent to that number. Each MessageSid is handled once, ever (missing: 400): the same message again ' +
          '(a redelivery or a replayed request) changes nothing, so an old START cannot undo a later STOP, and is answered with an empty TwiML response. Answers TwiML.',
        // Twilio posts forms; JSON is taken too, as on every write (src/http/methods.ts).
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TwilioForm,
        response: responses(TwiML, [400, 403, 429]),
      },
      handler: async (request, reply) => {
        checkTwilioRequest(deps, request.url, request.body, request.headers['x-twilio-signature'] as string | undefined);
        const r = await receiveSms(deps, request.body, consent);
        if (r.outcome === 'duplicate') request.log.info({ message_sid: request.body.MessageSid }, 'inbound SMS already handled');
        const xml = `<?xml version="1.0" encoding="UTF-8"?><Response>${r.reply ? `<Message>${escapeHtml(r.reply)}</Message>` : ''}</Response>`;
        return reply.type('text/xml; charset=utf-8').send(xml);
      },
    });

    /** GET /api/sms/usage: the agency's SMS counts and costs in a period. */
    app.get('/api/sms/usage', {
      config: { permission: 'api.sms.usage.view' },
      schema: {
        tags: ['messaging'],
        summary: "The agency's SMS counts and costs",
        description: 'Messages sent in [from, to) (London days; default this month), their segments, deliveries and failures, replies received, and the cost per currency as the provider reported it in its delivery reports. SysOps: 403.',
        querystring: UsageQuery,
        response: responses(DataEnvelope(Usage), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await smsUsage(deps, requireAuth(request), request.query), 'SMS usage retrieved'),
    });
  };
}
