/**
 * Landlords by SMS (docs/landlords.md "By SMS"): approval requests and conversation messages
 * texted to a landlord's mobile through the Twilio adapter, against the local server speaking
 * Twilio's protocol used by the conversations SMS tests: only with an `sms_updates` consent of
 * one of the landlord's accounts, never after STOP, waiting for the end of the quiet hours, the
 * approval text carrying the signed people link (/approvals/link/..., never /api/), and a text
 * reply landing in the landlord thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { conversationsWorld } from '../../jobs/conversations/helpers.ts';
import { signTwilio, startTwilioServer } from '../../jobs/conversations/twilio-server.ts';
import { deliver } from '../../messaging/messaging/helpers.ts';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'test-auth-token-0123456789';
const PUBLIC = 'https://caretaker.example.test';
const LANDLORD_MOBILE = '+447700900555';

describe('Landlords by SMS', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof conversationsWorld>>;
  let twilio: Awaited<ReturnType<typeof startTwilioServer>>;

  beforeAll(async () => {
    twilio = await startTwilioServer(SID, TOKEN);
    t = await buildTestApp({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+447700900000', TWILIO_API_URL: twilio.url, CARETAKER_PUBLIC_URL: PUBLIC });
    w = await conversationsWorld(t);
    await t.db.updateTable('landlords').set({ approval_limit_pence: 30_000 }).where('id', '=', w.landlordId).execute();
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const landlordSms = () => t.db.selectFrom('message_deliveries').select(['template_key', 'status', 'reason', 'recipient_key', 'recipient_address', 'next_attempt_at'])
    .where('channel', '=', 'sms').where('recipient_kind', '=', 'landlord').orderBy('id').execute();
  const twilioPost = (path: string, params: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signTwilio(TOKEN, `${PUBLIC}${path}`, params) }, payload: new URLSearchParams(params).toString() });
  const requestApproval = async (title: string) => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, addressId: w.address.id, tenantId: w.tenantId, title });
    const res = await w.agentA1.client.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 45_000, description: 'Replace the boiler' });
    expect(res.statusCode).toBe(201);
    await deliver(t);
    return job;
  };

  it('without an sms_updates consent the approval request is e-mailed only; the text is logged no_consent', async () => {
    await requestApproval('Boiler A');
    expect(twilio.sent).toHaveLength(0);
    expect(await landlordSms()).toMatchObject([{ template_key: 'approval.requested', status: 'suppressed', reason: 'no_consent', recipient_key: `landlord:${w.landlordId}`, recipient_address: LANDLORD_MOBILE }]);
    const mail = await t.db.selectFrom('message_deliveries').select('recipient_address').where('channel', '=', 'email').where('template_key', '=', 'approval.requested').execute();
    expect(mail).toEqual([{ recipient_address: 'margaret.hale@example.test' }]);
  });

  it('with consent, the request is texted with the signed people link, which opens the answer page', async () => {
    const consent = await w.agentA1.client.post('/api/gdpr/consents', { user_uuid: w.landlord.user.uuid, purpose: 'sms_updates', source: 'phone' });
    expect(consent.statusCode).toBe(201);
    t.clock.advance(60);
    const job = await requestApproval('Boiler B');
    expect(twilio.sent).toHaveLength(1);
    const sms = twilio.sent[0]!;
    expect(sms).toMatchObject({ to: LANDLORD_MOBILE, from: '+447700900000' });
    expect(sms.body).toContain(`asks you to approve ${job.reference} (Boiler B): £450.00 incl. VAT`);
    expect(sms.body).toContain('Reply STOP');
    expect(sms.body).not.toContain('/api/');
    const link = /https:\/\/caretaker\.example\.test(\/approvals\/link\/[0-9a-f]{32}\.[A-Za-z0-9_-]{43})(\s|$)/.exec(sms.body);
    expect(link, sms.body).not.toBeNull();
    const page = await t.app.inject({ method: 'GET', url: link![1]! });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Approval needed for ${job.reference}`);
    expect((await landlordSms()).at(-1)).toMatchObject({ status: 'sent', reason: null });
  });

  it('quiet hours: a request at 22:30 London waits for 08:00', async () => {
    t.clock.set(new Date('2026-11-21T22:30:00Z'));
    const before = twilio.sent.length;
    await requestApproval('Boiler C');
    expect(twilio.sent.length).toBe(before);
    const waiting = (await landlordSms()).at(-1)!;
    expect(waiting.status).toBe('queued');
    expect(new Date(waiting.next_attempt_at!).toISOString()).toBe('2026-11-22T08:00:00.000Z');
    t.clock.set(new Date('2026-11-22T08:00:30Z'));
    await deliver(t);
    expect(twilio.sent.length).toBe(before + 1);
    expect(twilio.sent.at(-1)!.body).toContain('(Boiler C)');
  });

  it('a staff message in the landlord thread is texted; the reply lands in the landlord thread', async () => {
    t.clock.advance(60);
    const before = twilio.sent.length;
    const base = `/api/jobs/${w.job.uuid}/threads`;
    expect((await w.agentA1.client.post(`${base}/landlord/messages`, { body: 'The boiler engineer found a cracked heat exchanger.' })).statusCode).toBe(201);
    await deliver(t);
    expect(twilio.sent.length).toBe(before + 1);
    expect(twilio.sent.at(-1)).toMatchObject({ to: LANDLORD_MOBILE });
    expect(twilio.sent.at(-1)!.body).toContain('The boiler engineer found a cracked heat exchanger.');
    t.clock.advance(60);
    await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMlandlord01', From: LANDLORD_MOBILE, To: '+447700900000', Body: 'Go ahead with the replacement.' });
    await deliver(t);
    const [newest] = (await w.agentA1.client.get(`${base}/landlord/messages`)).json().data;
    expect(newest).toMatchObject({ channel: 'sms', author_kind: 'landlord', author_name: 'Margaret Hale', body: 'Go ahead with the replacement.' });
  });

  it('after STOP nothing is texted (logged opted_out) until START; STOP withdraws the login account\'s SMS consent, START gives it back', async () => {
    const stop = await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMlandlordstop', From: LANDLORD_MOBILE, To: '+447700900000', Body: 'STOP' });
    expect(stop.body).toContain('You will get no more texts from Agency A.');
    const consents = () => t.db.selectFrom('gdpr_consents').select(['source', 'withdrawn_source']).where('user_id', '=', w.landlord.user.id).where('purpose', '=', 'sms_updates').orderBy('id').execute();
    expect((await consents()).at(-1)).toMatchObject({ withdrawn_source: 'sms_reply' });
    const before = twilio.sent.length;
    t.clock.advance(60);
    await requestApproval('Boiler D');
    expect(twilio.sent.length).toBe(before);
    expect((await landlordSms()).at(-1)).toMatchObject({ template_key: 'approval.requested', status: 'suppressed', reason: 'opted_out' });
    await twilioPost('/api/sms/twilio/inbound', { AccountSid: SID, MessageSid: 'SMlandlordstart', From: LANDLORD_MOBILE, To: '+447700900000', Body: 'START' });
    expect((await consents()).at(-1)).toEqual({ source: 'sms_reply', withdrawn_source: null });
    t.clock.advance(60);
    await requestApproval('Boiler E');
    expect(twilio.sent.length).toBe(before + 1);
  });

  it("the landlord's subject-access report holds their thread's messages and their texts, inside the agency only", async () => {
    const uuid = (await t.db.selectFrom('landlords').select('uuid').where('id', '=', w.landlordId).executeTakeFirstOrThrow()).uuid;
    const res = await w.adminA.client.get(`/api/landlords/${uuid}/gdpr-report`);
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    expect(r.conversations.map((m: { thread: string; author_kind: string; channel: string; written_by_subject: boolean }) => [m.thread, m.author_kind, m.channel, m.written_by_subject])).toEqual([
      ['landlord', 'staff', 'web', false], ['landlord', 'landlord', 'sms', true],
    ]);
    expect(r.sms.numbers).toEqual([{ number: LANDLORD_MOBILE, opted_out_at: null, opt_out_keyword: null }]);
    // The one given back by START (newest first), and the one the STOP withdrew.
    expect(r.sms.consents).toEqual([
      expect.objectContaining({ purpose: 'sms_updates', source: 'sms_reply', active: true, user_uuid: w.landlord.user.uuid }),
      expect.objectContaining({ purpose: 'sms_updates', active: false, withdrawn_source: 'sms_reply', user_uuid: w.landlord.user.uuid }),
    ]);
    expect(r.sms.messages.map((m: { direction: string; kind: string | null; status: string; reason: string | null }) => [m.direction, m.kind, m.status, m.reason])).toEqual([
      // Sent texts keep the status the provider gave on accepting them (queued) until a delivery report comes.
      ['outbound', 'approval.requested', 'suppressed', 'no_consent'], ['outbound', 'approval.requested', 'queued', null], ['outbound', 'approval.requested', 'queued', null],
      ['outbound', 'conversation.message', 'queued', null], ['inbound', null, 'received', null], ['outbound', 'approval.requested', 'suppressed', 'opted_out'],
      ['outbound', 'approval.requested', 'queued', null],
    ]);
    expect((await w.adminB.client.get(`/api/landlords/${uuid}/gdpr-report`)).statusCode).toBe(404);
  });

  it('a landlord whose phone is a landline gets no text at all', async () => {
    await t.db.updateTable('landlords').set({ phone: '0113 496 0101' }).where('id', '=', w.landlordId).execute();
    const rows = (await landlordSms()).length;
    t.clock.advance(60);
    await requestApproval('Boiler F');
    expect((await landlordSms()).length).toBe(rows);
  });
});
