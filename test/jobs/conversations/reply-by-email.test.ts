/**
 * Reply by e-mail (docs/conversations.md "Reply by e-mail"): the outgoing e-mail carries a signed
 * Reply-To; a reply sent over real SMTP (nodemailer) to the listener lands in the thread with its
 * attachment and without the quoted history; a forged address is refused at RCPT TO; an
 * auto-reply and a bounce are not posted; the Mailgun webhook checks its signature.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundSmtp, type InboundSmtp } from '../../../src/modules/jobs/conversations/index.ts';
import { mailgunSignature } from '../../../src/modules/jobs/conversations/inbound.routes.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { deliver, startFlakySmtp } from '../../messaging/messaging/helpers.ts';
import { conversationsWorld } from './helpers.ts';

const DOMAIN = 'reply.caretaker.test';
const MAILGUN_KEY = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('reply by e-mail', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof conversationsWorld>>;
  let outbox: Awaited<ReturnType<typeof startFlakySmtp>>;
  let inbound: InboundSmtp;
  let replyTo: string;
  const logged: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const log = { info: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }), warn: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }) };
  let smtp: Transporter;
  let base: string;

  beforeAll(async () => {
    outbox = await startFlakySmtp();
    t = await buildTestApp({ SMTP_URL: outbox.url, CARETAKER_INBOUND_EMAIL_DOMAIN: DOMAIN, CARETAKER_MAILGUN_SIGNING_KEY: MAILGUN_KEY });
    w = await conversationsWorld(t);
    base = `/api/jobs/${w.job.uuid}/threads`;
    inbound = await startInboundSmtp(t.deps, log, { port: 0, host: '127.0.0.1' });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: inbound.port, secure: false, ignoreTLS: true });
  });
  afterAll(async () => {
    smtp?.close();
    await inbound?.close();
    await t?.close();
    await outbox?.close();
  });

  const messages = async () => (await w.agentA1.client.get(`${base}/tenant/messages`)).json().data as Array<Record<string, unknown>>;

  it('the e-mail of a message carries a Reply-To unique to the thread and the recipient', async () => {
    const res = await w.agentA1.client.post(`${base}/tenant/messages`, { body: 'The plumber can come on Thursday morning. Does that suit you?' });
    expect(res.statusCode).toBe(201);
    await deliver(t);
    const mail = outbox.state.messages.find((m) => m.to.includes(w.tenant.user.email));
    expect(mail).toBeDefined();
    replyTo = /^Reply-To: (.+)$/im.exec(mail!.raw)![1]!.trim();
    expect(replyTo).toMatch(new RegExp(`^reply\\+\\d+\\.u${w.tenant.user.id}\\.[0-9a-f]{24}@${DOMAIN.replace(/\./g, '\\.')}$`));
    expect(mail!.text).toContain('The plumber can come on Thursday morning.');
    expect(mail!.text).toContain('Reply to this e-mail to answer.');
    expect(mail!.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    // the author gets no copy
    expect(outbox.state.messages.some((m) => m.to.includes(w.agentA1.user.email))).toBe(false);
  });

  it('a reply over SMTP lands in the thread with its attachment, quoted history cut', async () => {
    await smtp.sendMail({
      from: `Emily Clarke <${w.tenant.user.email}>`,
      to: replyTo,
      subject: `Re: [${w.job.reference}] Boiler not firing`,
      text: 'Thursday works, I will be in all morning. Photo of the stain attached.\n\nOn Sat, 21 Nov 2026 at 09:00, Agency A <no-reply@caretaker.test> wrote:\n> The plumber can come on Thursday morning.\n> Does that suit you?\n',
      attachments: [{ filename: 'stain.png', content: PNG, contentType: 'image/png' }],
    });
    const [newest] = await messages();
    expect(newest).toMatchObject({
      kind: 'message', channel: 'email', author_kind: 'tenant', author_name: 'Emily Clarke',
      body: 'Thursday works, I will be in all morning. Photo of the stain attached.',
      attachments: [{ kind: 'photo', filename: 'stain.png', mime: 'image/png' }],
    });
    const photo = (newest!.attachments as Array<{ download_url: string }>)[0]!;
    const download = await w.tenant.client.get(photo.download_url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    // the staff side hears of it
    await deliver(t);
    expect(outbox.state.messages.some((m) => m.to.includes(w.agentA1.user.email) && m.text.includes('Thursday works'))).toBe(true);
  });

  it('a forged or unknown reply address is refused at RCPT TO and logged; nothing is posted', async () => {
    const before = (await messages()).length;
    const forged = replyTo.replace(/\.([0-9a-f]{24})@/, (_, sig: string) => `.${sig.slice(0, 23)}${sig.endsWith('0') ? '1' : '0'}@`);
    const otherThread = replyTo.replace(/^reply\+(\d+)\./, (_, id: string) => `reply+${Number(id) + 1}.`);
    for (const to of [forged, otherThread, `someone@${DOMAIN}`]) {
      await expect(smtp.sendMail({ from: w.tenant.user.email, to, subject: 'Re: hello', text: 'Let me in' })).rejects.toThrow(/550/);
    }
    expect((await messages()).length).toBe(before);
    expect(logged.filter((l) => l.message === 'inbound e-mail refused').length).toBeGreaterThanOrEqual(3);
  });

  it('an auto-reply and a bounce are recognised and not posted', async () => {
    const before = (await messages()).length;
    await smtp.sendMail({ from: w.tenant.user.email, to: replyTo, subject: 'Out of office', text: 'I am away until Monday.', headers: { 'Auto-Submitted': 'auto-replied' } });
    await smtp.sendMail({ from: w.tenant.user.email, to: replyTo, subject: 'Automatic reply', text: 'Away.', headers: { 'X-Autoreply': 'yes', Precedence: 'auto_reply' } });
    await smtp.sendMail({ envelope: { from: '', to: replyTo }, from: `Mail Delivery System <MAILER-DAEMON@mx.example.test>`, to: replyTo, subject: 'Undelivered Mail Returned to Sender', text: 'This is the mail system.' });
    expect((await messages()).length).toBe(before);
    expect(logged.filter((l) => l.message === 'inbound e-mail ignored').map((l) => l.fields.reason)).toEqual(['auto_reply', 'auto_reply', 'bounce']);
  });

  it('the Mailgun webhook posts a signed raw-MIME reply and refuses a bad signature', async () => {
    const raw = (await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail({
      from: w.tenant.user.email, to: replyTo, subject: 'Re: visit', text: 'One more thing: the tap in the bathroom drips too.\n\n-----Original Message-----\nFrom: Agency A\nSent: Saturday\n\nold text',
      messageId: '<mailgun-1@example.test>',
    })).message as Buffer;
    const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
    const token = 'f6b1b7e0a3c94b6c8a2d1e0f9c8b7a6d5e4f3a2b1c0d9e8f7a';
    const form = (sig: string) => new URLSearchParams({ recipient: replyTo, sender: w.tenant.user.email, timestamp, token, signature: sig, 'body-mime': raw.toString('utf8') }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const bad = await t.app.inject({ method: 'POST', url: '/api/inbound/mailgun', headers, payload: form('0'.repeat(64)) });
    expect(bad.statusCode).toBe(403);
    const good = await t.app.inject({ method: 'POST', url: '/api/inbound/mailgun', headers, payload: form(mailgunSignature(MAILGUN_KEY, timestamp, token)) });
    expect(good.statusCode).toBe(200);
    expect(good.json().data).toMatchObject({ outcome: 'posted', attachments: 0 });
    // The same signature again is a replay (docs/security.md "One rule for every way in"): 409, nothing posted.
    const again = await t.app.inject({ method: 'POST', url: '/api/inbound/mailgun', headers, payload: form(mailgunSignature(MAILGUN_KEY, timestamp, token)) });
    expect(again.statusCode).toBe(409);
    // The same message redelivered under a fresh signature: a duplicate by its Message-ID.
    const token2 = `${token.slice(0, -1)}b`;
    const redelivered = new URLSearchParams({ recipient: replyTo, sender: w.tenant.user.email, timestamp, token: token2, signature: mailgunSignature(MAILGUN_KEY, timestamp, token2), 'body-mime': raw.toString('utf8') }).toString();
    expect((await t.app.inject({ method: 'POST', url: '/api/inbound/mailgun', headers, payload: redelivered })).json().data).toEqual({ outcome: 'duplicate' });
    const [newest] = await messages();
    expect(newest).toMatchObject({ channel: 'email', body: 'One more thing: the tap in the bathroom drips too.' });
  });
});
