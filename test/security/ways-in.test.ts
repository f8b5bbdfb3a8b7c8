/**
 * One rule for every way in (docs/security.md "One rule for every way in"):
 * - a Mailgun signature is accepted once: the same timestamp and token again, whatever the
 *   message, is 409 and posts nothing (also when two arrive at once);
 * - a received e-mail's author is the person of the thread who writes from its From address,
 *   never the person the reply address was made for: another agency's admin or tenant, another
 *   tenant of the same agency and a stranger are refused `not_a_participant` and logged; staff of
 *   the agency post as themselves;
 * - an e-mail attachment passes the upload routes' check: a 30000 x 30000 PNG is dropped with a
 *   note and stored nowhere, a cleaned name is used;
 * - a Twilio message is handled once per MessageSid: a replayed signed START after a later STOP
 *   gives no consent back and leaves the number opted out; a late or replayed delivery report of
 *   an earlier stage does not move a delivered message back.
 * Real parts: the Mailgun and Twilio signatures of the providers' schemes, MIME built by
 * nodemailer, the app's own database.
 */
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT } from '../../src/main/app.ts';
import { createLogger } from '../../src/main/startup.ts';
import { newUuid } from '../../src/lib/crypto.ts';
import { mailgunSignature } from '../../src/modules/jobs/conversations/inbound.routes.ts';
import { replyAddress, replyKey } from '../../src/modules/jobs/conversations/reply-address.ts';
import { buildTestApp, logLines, userClient, type TestApp } from '../helpers/app.ts';
import { insertTenant } from '../helpers/factories.ts';
import { form } from '../helpers/upload-form.ts';
import { pngDeclaring } from '../platform/appearance/images.ts';
import { conversationsWorld } from '../jobs/conversations/helpers.ts';
import { signTwilio } from '../jobs/conversations/twilio-server.ts';

const DOMAIN = 'reply.caretaker.test';
const MAILGUN_KEY = 'key-9f2c1e7d4b8a6053e1d2c3b4a5968778';
const TWILIO_SID = `AC${'fedcba9876543210'.repeat(2)}`;
const TWILIO_TOKEN = 'ways-in-auth-token-0123456789';
const PUBLIC = 'https://caretaker.example.test';
const MOBILE = '+447700900123';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let w: Awaited<ReturnType<typeof conversationsWorld>>;
let tenantReplyTo: string;
let tokenSeq = 0;
const log = logLines();

beforeAll(async () => {
  t = await buildTestApp(
    {
      CARETAKER_INBOUND_EMAIL_DOMAIN: DOMAIN, CARETAKER_MAILGUN_SIGNING_KEY: MAILGUN_KEY,
      TWILIO_ACCOUNT_SID: TWILIO_SID, TWILIO_AUTH_TOKEN: TWILIO_TOKEN, TWILIO_FROM: '+447700900000', TWILIO_API_URL: 'http://127.0.0.1:9', CARETAKER_PUBLIC_URL: PUBLIC,
    },
    { loggerInstance: createLogger({ logLevel: 'info' }, REDACT, log.stream) },
  );
  w = await conversationsWorld(t);
  // The tenant thread exists once the agent has written in it; its reply address for the tenant's account.
  expect((await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/threads/tenant/messages`, { body: 'The plumber can come on Thursday.' })).statusCode).toBe(201);
  const thread = await t.db.selectFrom('conversation_threads').select('id').where('job_id', '=', w.job.id).where('audience', '=', 'tenant').executeTakeFirstOrThrow();
  tenantReplyTo = replyAddress(await replyKey(t.db, t.clock.now()), DOMAIN, thread.id, `u${w.tenant.user.id}`);
});
afterAll(async () => t?.close());

const tenantThread = async () => (await w.agentA1.client.get(`/api/jobs/${w.job.uuid}/threads/tenant/messages?limit=100`)).json().data as Array<Record<string, unknown>>;

/** A raw MIME message as a mail client sends it. */
async function mime(m: { from: string; text: string; messageId?: string; attachments?: Array<{ filename: string; content: Buffer; contentType: string }> }): Promise<string> {
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail({
    from: m.from, to: tenantReplyTo, subject: `Re: [${w.job.reference}] Boiler not firing`, text: m.text,
    messageId: m.messageId ?? `<${newUuid()}@mail.example.test>`, attachments: m.attachments ?? [],
  });
  return (built.message as Buffer).toString('utf8');
}

/** A fresh Mailgun token: 50 hex characters, as Mailgun's. */
const freshToken = () => `${(++tokenSeq).toString(16).padStart(8, '0')}${'a1b2c3d4e5'.repeat(5)}`.slice(0, 50);

/** Posts to the Mailgun webhook with Mailgun's signature of (timestamp, token). */
function mailgun(raw: string, sig: { timestamp: string; token: string }, sender = 'someone@example.test') {
  const payload = new URLSearchParams({
    recipient: tenantReplyTo, sender, timestamp: sig.timestamp, token: sig.token, signature: mailgunSignature(MAILGUN_KEY, sig.timestamp, sig.token), 'body-mime': raw,
  }).toString();
  return t.app.inject({ method: 'POST', url: '/api/inbound/mailgun', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
}
const nowStamp = () => String(Math.floor(t.clock.now().getTime() / 1000));

describe('a Mailgun signature is accepted once', () => {
  it('the same timestamp, token and signature with three different messages posts only the first; the others are 409', async () => {
    const before = (await tenantThread()).length;
    const sig = { timestamp: nowStamp(), token: freshToken() };
    const first = await mailgun(await mime({ from: w.tenant.user.email, text: 'Thursday suits me.' }), sig, w.tenant.user.email);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ outcome: 'posted' });
    for (const text of ['Actually, cancel the visit.', 'Please send the keys to 1 Other Street.']) {
      const replay = await mailgun(await mime({ from: w.tenant.user.email, text }), sig, w.tenant.user.email);
      expect(replay.statusCode).toBe(409);
      expect(replay.json()).toEqual({ success: false, error: 'This signature was already used' });
    }
    const after = await tenantThread();
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ body: 'Thursday suits me.', channel: 'email' });
    expect(log.lines.some((l) => l.msg === 'inbound e-mail refused' && l.reason === 'replayed_signature')).toBe(true);
    // Past its freshness the same signature is refused as stale.
    t.clock.advance(301);
    expect((await mailgun(await mime({ from: w.tenant.user.email, text: 'Late replay.' }), sig, w.tenant.user.email)).statusCode).toBe(403);
  });

  it('of two requests with one signature arriving at once, exactly one is accepted', async () => {
    const before = (await tenantThread()).length;
    const sig = { timestamp: nowStamp(), token: freshToken() };
    const [a, b] = await Promise.all([
      mailgun(await mime({ from: w.tenant.user.email, text: 'First of the pair.' }), sig, w.tenant.user.email),
      mailgun(await mime({ from: w.tenant.user.email, text: 'Second of the pair.' }), sig, w.tenant.user.email),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((await tenantThread()).length).toBe(before + 1);
  });

  it('a refused message also spends its signature, and a redelivered message under a new signature is a duplicate', async () => {
    const sig = { timestamp: nowStamp(), token: freshToken() };
    expect((await mailgun(await mime({ from: 'stranger@example.test', text: 'Hello' }), sig)).json().data).toEqual({ outcome: 'refused', reason: 'not_a_participant' });
    expect((await mailgun(await mime({ from: w.tenant.user.email, text: 'Now as the tenant' }), sig, w.tenant.user.email)).statusCode).toBe(409);
    const raw = await mime({ from: w.tenant.user.email, text: 'Sent once, delivered twice.', messageId: '<ways-in-redelivered@mail.example.test>' });
    expect((await mailgun(raw, { timestamp: nowStamp(), token: freshToken() })).json().data).toMatchObject({ outcome: 'posted' });
    expect((await mailgun(raw, { timestamp: nowStamp(), token: freshToken() })).json().data).toEqual({ outcome: 'duplicate' });
  });
});

describe("a received e-mail's author comes from its sender and the thread", () => {
  it("refuses another agency's admin and tenant, another tenant of the agency and a stranger, writing to the tenant's reply address", async () => {
    const tenantB = await insertTenant(t.db, w.agencyB.id, [], 'Bob Other-Agency');
    const tenantBUser = await userClient(t, { role: 'tenant', agencyId: w.agencyB.id, tenantId: tenantB.id, name: 'Bob Other-Agency' });
    const before = await tenantThread();
    for (const from of [w.adminB.user.email, tenantBUser.user.email, w.otherTenant.user.email, 'stranger@example.test', w.contractor.user.email]) {
      const res = await mailgun(await mime({ from, text: `Posted as the tenant by ${from}?` }), { timestamp: nowStamp(), token: freshToken() }, from);
      expect(res.statusCode).toBe(200);
      expect(res.json().data, from).toEqual({ outcome: 'refused', reason: 'not_a_participant' });
      expect(log.lines.some((l) => l.msg === 'inbound e-mail refused' && l.reason === 'not_a_participant' && l.from === from), from).toBe(true);
    }
    const after = await tenantThread();
    expect(after).toEqual(before);
    expect(after.some((m) => String(m.body).startsWith('Posted as the tenant by'))).toBe(false);
  });

  it('the tenant (account or record address) posts as the tenant; staff of the agency post as themselves, never as the tenant', async () => {
    const asAccount = await mailgun(await mime({ from: `Emily Clarke <${w.tenant.user.email.toUpperCase()}>`, text: 'From my login address.' }), { timestamp: nowStamp(), token: freshToken() });
    expect(asAccount.json().data).toMatchObject({ outcome: 'posted' });
    const asRecord = await mailgun(await mime({ from: 'emily.clarke@example.test', text: 'From my other address.' }), { timestamp: nowStamp(), token: freshToken() });
    expect(asRecord.json().data).toMatchObject({ outcome: 'posted' });
    const asStaff = await mailgun(await mime({ from: w.agentA1.user.email, text: 'Forwarded to me, answering here.' }), { timestamp: nowStamp(), token: freshToken() });
    expect(asStaff.json().data).toMatchObject({ outcome: 'posted' });
    const [staff, record, account] = await tenantThread();
    expect(account).toMatchObject({ body: 'From my login address.', author_kind: 'tenant', author_name: 'Emily Clarke', author_uuid: w.tenant.user.uuid });
    expect(record).toMatchObject({ body: 'From my other address.', author_kind: 'tenant', author_name: 'Emily Clarke' });
    expect(staff).toMatchObject({ body: 'Forwarded to me, answering here.', author_kind: 'staff', author_uuid: w.agentA1.user.uuid });
  });
});

describe('e-mail attachments pass the upload check', () => {
  it('a 30000 x 30000 PNG by e-mail is dropped with a note and stored nowhere, as the upload route refuses it; a small photo is kept', async () => {
    const bomb = pngDeclaring(30_000, 30_000);
    const upload = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/photos`, form(bomb, 'bomb.png'));
    expect(upload.statusCode).toBe(400);
    expect(upload.json().error).toBe('The image is too large: 30000 x 30000 pixels (at most 50 megapixels)');
    const filesBefore = await t.db.selectFrom('job_files').select('id').where('job_id', '=', w.job.id).execute();
    const res = await mailgun(
      await mime({
        from: w.tenant.user.email, text: 'Two photos of the damp.',
        attachments: [
          { filename: 'damp\u202egnp.exe.png', content: bomb, contentType: 'image/png' },
          { filename: 'corner.png', content: PNG, contentType: 'image/png' },
        ],
      }),
      { timestamp: nowStamp(), token: freshToken() },
    );
    expect(res.json().data).toMatchObject({ outcome: 'posted', attachments: 1 });
    const [newest] = await tenantThread();
    expect(newest!.body).toBe('Two photos of the damp.\n\n(Attachment dampgnp.exe.png was not accepted: the image is too large: 30000 x 30000 pixels (at most 50 megapixels).)');
    expect(newest!.attachments).toMatchObject([{ filename: 'corner.png', kind: 'photo', mime: 'image/png' }]);
    const filesAfter = await t.db.selectFrom('job_files').select(['id', 'original_filename']).where('job_id', '=', w.job.id).execute();
    expect(filesAfter.length).toBe(filesBefore.length + 1);
    expect(filesAfter.map((f) => f.original_filename)).not.toContain('dampgnp.exe.png');
    expect(log.lines.some((l) => l.msg === 'inbound attachment refused' && l.reason === 'image_too_large')).toBe(true);
  });
});

describe('a Twilio message is handled once per MessageSid', () => {
  const twilioPost = (params: Record<string, string>) =>
    t.app.inject({
      method: 'POST', url: '/api/sms/twilio/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signTwilio(TWILIO_TOKEN, `${PUBLIC}/api/sms/twilio/inbound`, params) },
      payload: new URLSearchParams(params).toString(),
    });
  const text = (sid: string, body: string) => ({ AccountSid: TWILIO_SID, MessageSid: sid, From: MOBILE, To: '+447700900000', Body: body, NumMedia: '0' });
  const consentsInForce = () =>
    t.db.selectFrom('gdpr_consents').select('id').where('tenant_id', '=', w.tenantId).where('purpose', '=', 'sms_updates').where('withdrawn_at', 'is', null).execute();
  const optedOut = async () => (await t.db.selectFrom('sms_opt_outs').select('phone').where('phone', '=', MOBILE).executeTakeFirst()) !== undefined;

  it('a replayed signed START after a later STOP gives no consent back and leaves the number opted out', async () => {
    const now = t.clock.now();
    await t.db.insertInto('gdpr_consents').values({ uuid: newUuid(), agency_id: w.agencyA.id, tenant_id: w.tenantId, user_id: null, purpose: 'sms_updates', source: 'web_form', given_at: now, withdrawn_at: null, withdrawn_source: null, recorded_by_user_id: null, created_at: now }).execute();
    expect((await twilioPost(text('SMwaysin-stop-1', 'STOP'))).body).toContain('You will get no more texts');
    t.clock.advance(60);
    expect((await twilioPost(text('SMwaysin-start-1', 'START'))).body).toContain('You will get texts from Agency A again');
    expect(await consentsInForce()).toHaveLength(1);
    t.clock.advance(60);
    expect((await twilioPost(text('SMwaysin-stop-2', 'STOP'))).body).toContain('You will get no more texts');
    expect(await consentsInForce()).toHaveLength(0);
    t.clock.advance(3600);
    const replay = await twilioPost(text('SMwaysin-start-1', 'START'));
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(await consentsInForce()).toHaveLength(0);
    expect(await optedOut()).toBe(true);
    // A replayed STOP after a later START takes nothing away either.
    expect((await twilioPost(text('SMwaysin-start-2', 'START'))).body).toContain('again');
    expect((await twilioPost(text('SMwaysin-stop-1', 'STOP'))).body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(await consentsInForce()).toHaveLength(1);
    expect(await optedOut()).toBe(false);
    expect(log.lines.filter((l) => l.msg === 'inbound SMS already handled').map((l) => l.message_sid)).toEqual(['SMwaysin-start-1', 'SMwaysin-stop-1']);
  });

  it('a late or replayed delivery report of an earlier stage does not move a delivered message back', async () => {
    const now = t.clock.now();
    await t.db.insertInto('sms_messages').values({
      uuid: newUuid(), agency_id: w.agencyA.id, direction: 'outbound', delivery_id: null, thread_id: null, to_number: MOBILE, from_number: '+447700900000', body: null,
      provider: 'twilio', provider_sid: 'SMwaysin-out-1', status: 'queued', error_code: null, segments: 1, price_micros: null, price_currency: null, created_at: now, updated_at: now,
    }).execute();
    const report = (status: string) => {
      const params = { AccountSid: TWILIO_SID, MessageSid: 'SMwaysin-out-1', MessageStatus: status, To: MOBILE, From: '+447700900000' };
      return t.app.inject({
        method: 'POST', url: '/api/sms/twilio/status', payload: new URLSearchParams(params).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signTwilio(TWILIO_TOKEN, `${PUBLIC}/api/sms/twilio/status`, params) },
      });
    };
    const status = async () => (await t.db.selectFrom('sms_messages').select('status').where('provider_sid', '=', 'SMwaysin-out-1').executeTakeFirstOrThrow()).status;
    expect((await report('sent')).json().message).toBe('Status recorded');
    expect((await report('delivered')).json().message).toBe('Status recorded');
    const replay = await report('sent');
    expect(replay.statusCode).toBe(200);
    expect(replay.json().message).toBe('Status already final');
    expect(await status()).toBe('delivered');
  });

  it('a message without a MessageSid is 400 and changes nothing', async () => {
    const { MessageSid: _, ...noSid } = text('x', 'STOP');
    const res = await twilioPost(noSid);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: MessageSid' });
    expect(await optedOut()).toBe(false);
  });
});
