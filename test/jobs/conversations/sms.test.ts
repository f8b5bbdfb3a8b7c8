/**
 * SMS (docs/conversations.md "SMS"): sent through the Twilio adapter to a local server speaking
 * Twilio's protocol, delivery reports with their signature and price, costs per agency, replies
 * landing in the tenant's thread, STOP and START, consent and quiet hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../../src/lib/crypto.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { deliver } from '../../messaging/messaging/helpers.ts';
import { conversationsWorld } from './helpers.ts';
import { signTwilio, startTwilioServer } from './twilio-server.ts';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'test-auth-token-0123456789';
const PUBLIC = 'https://caretaker.example.test';
const MOBILE = '+447700900123';

describe('SMS through Twilio', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof conversationsWorld>>;
  let twilio: Awaited<ReturnType<typeof startTwilioServer>>;
  let base: string;

  beforeAll(async () => {
    twilio = await startTwilioServer(SID, TOKEN);
    t = await buildTestApp({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+447700900000', TWILIO_API_URL: twilio.url, CARETAKER_PUBLIC_URL: PUBLIC });
    w = await conversationsWorld(t);
    base = `/api/jobs/${w.job.uuid}/threads`;
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const smsDeliveries = () => t.db.selectFrom('message_deliveries').select(['status', 'reason', 'recipient_address', 'next_attempt_at']).where('channel', '=', 'sms').orderBy('id').execute();
  const twilioPost = (path: string, params: Record<string, string>, signature = signTwilio(TOKEN, `${PUBLIC}${path}`, params)) =>
    t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, payload: new URLSearchParams(params).toString() });

  it('a tenant without sms_updates consent gets no SMS (logged no_consent)', async () => {
    expect((await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'We have booked the plumber.' })).statusCode).toBe(201);
    await deliver(t);
    expect(twilio.sent).toHaveLength(0);
    expect(await smsDeliveries()).toMatchObject([{ status: 'suppressed', reason: 'no_consent', recipient_address: MOBILE }]);
  });

  it('with consent, a message is sent through the Messages API and its delivery report records status and price', async () => {
    const now = t.clock.now();
    await t.db.insertInto('gdpr_consents').values({ uuid: newUuid(), agency_id: w.agencyA.id, tenant_id: w.tenantId, user_id: null, purpose: 'sms_updates', source: 'web_form', given_at: now, withdrawn_at: null, withdrawn_source: null, recorded_by_user_id: null, created_at: now }).execute();
    t.clock.advance(60);
    expect((await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'The plumber comes on Thursday, 8-12.' })).statusCode).toBe(201);
    await deliver(t);
    expect(twilio.sent).toHaveLength(1);
    const sms = twilio.sent[0]!;
    expect(sms).toMatchObject({ to: MOBILE, from: '+447700900000', statusCallback: `${PUBLIC}/api/sms/twilio/status` });
    expect(sms.body).toContain('The plumber comes on Thursday, 8-12.');
    expect(sms.body).toContain('Reply STOP');
    expect((await smsDeliveries()).at(-1)).toMatchObject({ status: 'sent' });

    const report = { AccountSid: SID, MessageSid: sms.sid, MessageStatus: 'delivered', To: MOBILE, From: '+447700900000', ErrorCode: '', Price: '-0.04000', PriceUnit: 'GBP', NumSegments: '1' };
    const forged = await twilioPost('/api/sms/twilio/status', { ...report, Price: '0' }, signTwilio(TOKEN, `${PUBLIC}/api/sms/twilio/status`, report));
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ success: false, error: 'Invalid signature' });
    expect((await twilioPost('/api/sms/twilio/status', report, 'bm90IGEgc2lnbmF0dXJl')).statusCode).toBe(403);
    const ok = await twilioPost('/api/sms/twilio/status', report);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Status recorded');
    const row = await t.db.selectFrom('sms_messages').selectAll().where('provider_sid', '=', sms.sid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ direction: 'outbound', status: 'delivered', price_currency: 'GBP', segments: 1, agency_id: w.agencyA.id });
    expect(Number(row.price_micros)).toBe(40_000);

    const usage = await w.adminA.client.get('/api/sms/usage?from=2026-11-01&to=2026-12-01');
    expect(usage.statusCode).toBe(200);
    expect(usage.json().data).toEqual({
      from: '2026-11-01', to: '2026-12-01', messages: 1, segments: 1, delivered: 1, failed: 0, received: 0, unpriced: 0,
      costs: [{ currency: 'GBP', price_micros: 40_000, amount_minor: 4 }],
    });
    expect((await w.adminB.client.get('/api/sms/usage')).json().data.messages).toBe(0);
    expect((await w.tenant.client.get('/api/sms/usage')).statusCode).toBe(403);
  });

  it("the tenant's reply lands in their thread", async () => {
    t.clock.advance(60);
    const res = await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMreply0001', From: MOBILE, To: '+447700900000', Body: 'Thursday is fine, thank you', NumMedia: '0' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    await deliver(t);
    const [newest] = (await w.agentA1.client.get(`${base}/tenant/messages`)).json().data;
    expect(newest).toMatchObject({ channel: 'sms', author_kind: 'tenant', author_name: 'Emily Clarke', body: 'Thursday is fine, thank you' });
    // a redelivered webhook does not post twice
    const again = await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMreply0001', From: MOBILE, To: '+447700900000', Body: 'Thursday is fine, thank you', NumMedia: '0' });
    expect(again.statusCode).toBe(200);
    await deliver(t);
    expect((await w.agentA1.client.get(`${base}/tenant/messages`)).json().data.filter((m: { channel: string }) => m.channel === 'sms')).toHaveLength(1);
    expect((await twilioPost('/api/sms/twilio/inbound', { From: MOBILE, Body: 'hi' }, 'forged')).statusCode).toBe(403);
  });

  const smsConsents = () => t.db.selectFrom('gdpr_consents').select(['source', 'withdrawn_at', 'withdrawn_source']).where('tenant_id', '=', w.tenantId).where('purpose', '=', 'sms_updates').orderBy('id').execute();
  const consentActivity = () => t.db.selectFrom('activity_log').select(['action', 'resource_type', 'resource_id', 'details']).where('action', 'like', 'consent.%').orderBy('id').execute();

  it('STOP is honoured until START: it withdraws the SMS consent, START gives it back', async () => {
    const stop = await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMstop0001', From: '07700 900123', To: '+447700900000', Body: ' stop ' });
    expect(stop.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>You will get no more texts from Agency A. Reply START to get them again.</Message></Response>');
    // Withdrawn as a withdrawal through the API is, with its activity entry; not a message of the thread.
    expect(await smsConsents()).toEqual([{ source: 'web_form', withdrawn_at: expect.any(Date), withdrawn_source: 'sms_reply' }]);
    expect(await consentActivity()).toEqual([
      { action: 'consent.withdraw', resource_type: 'tenant', resource_id: w.tenantId, details: expect.objectContaining({ purpose: 'sms_updates', source: 'sms_reply', keyword: 'STOP' }) },
    ]);
    const keywordMessages = await t.db.selectFrom('conversation_messages').select('id').where('body', 'ilike', '%stop%').execute();
    expect(keywordMessages).toEqual([]);
    const sentBefore = twilio.sent.length;
    t.clock.advance(60);
    await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'Reminder: plumber tomorrow.' });
    await deliver(t);
    expect(twilio.sent.length).toBe(sentBefore);
    expect((await smsDeliveries()).at(-1)).toMatchObject({ status: 'suppressed', reason: 'opted_out' });
    const start = await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMstart0001', From: MOBILE, To: '+447700900000', Body: 'Unstop' });
    expect(start.body).toContain('<Message>You will get texts from Agency A again. Reply STOP to stop them.</Message>');
    expect(await smsConsents()).toEqual([
      { source: 'web_form', withdrawn_at: expect.any(Date), withdrawn_source: 'sms_reply' },
      { source: 'sms_reply', withdrawn_at: null, withdrawn_source: null },
    ]);
    expect((await consentActivity()).map((a) => [a.action, (a.details as { keyword: string }).keyword])).toEqual([['consent.withdraw', 'STOP'], ['consent.give', 'UNSTOP']]);
    // A second START changes nothing: the consent is in force.
    await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMstart0002', From: MOBILE, To: '+447700900000', Body: 'START' });
    expect(await smsConsents()).toHaveLength(2);
    t.clock.advance(60);
    await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'The plumber is on the way.' });
    await deliver(t);
    expect(twilio.sent.length).toBe(sentBefore + 1);
  });

  it('quiet hours: a non-urgent SMS waits until 08:00 London; an urgent one goes at once', async () => {
    t.clock.set(new Date('2026-11-21T22:30:00Z')); // 22:30 in London (GMT)
    const sentBefore = twilio.sent.length;
    await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'Invoice is on its way.' });
    await deliver(t);
    expect(twilio.sent.length).toBe(sentBefore);
    const waiting = (await smsDeliveries()).at(-1)!;
    expect(waiting.status).toBe('queued');
    expect(new Date(waiting.next_attempt_at!).toISOString()).toBe('2026-11-22T08:00:00.000Z');
    await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'Water is off in the building tonight.', urgent: true });
    await deliver(t);
    expect(twilio.sent.length).toBe(sentBefore + 1);
    expect(twilio.sent.at(-1)!.body).toContain('Water is off in the building tonight.');
    t.clock.set(new Date('2026-11-22T08:00:30Z'));
    await deliver(t);
    expect(twilio.sent.length).toBe(sentBefore + 2);
  });
});
