/**
 * The mailer (docs/email.md): .eml files through nodemailer's stream transport when SMTP_URL is
 * unset, SMTP otherwise, logs without secrets, and the configuration checks of the new variables.
 */
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { NodemailerMailer, type MailLogger } from '../../../src/modules/messaging/mail/mailer.ts';
import { passwordResetMail } from '../../../src/modules/messaging/mail/templates.ts';
import { decodeQuotedPrintable, startSmtpServer, tokenFrom } from './mail-helpers.ts';

function capturingLogger() {
  const lines: string[] = [];
  const logger: MailLogger = {
    info: (fields, msg) => lines.push(JSON.stringify({ ...fields, msg })),
    error: (fields, msg) => lines.push(JSON.stringify({ ...fields, msg })),
  };
  return { lines, logger };
}

const TOKEN = 'f'.repeat(64);
const message = () =>
  passwordResetMail({ to: 'Jo <jo@example.test>', name: 'Jo <script>', publicUrl: 'https://app.example.test', token: TOKEN, expiresAt: new Date('2026-11-21T10:00:00Z') });

describe('mailer', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => smtp?.close());

  it('writes RFC 822 .eml files when no SMTP URL is set, and logs no secret', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'caretaker-mailtest-')), 'mail');
    const { lines, logger } = capturingLogger();
    const mailer = new NodemailerMailer({ smtpUrl: undefined, from: 'Caretaker <no-reply@caretaker.test>', dir, logger });
    const sent = await mailer.send(message());
    expect(sent.transport).toBe('file');
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(path.join(dir, files[0]!)).toBe(sent.file);
    expect((await stat(sent.file!)).mode & 0o777).toBe(0o600);
    const raw = await readFile(sent.file!, 'utf8');
    expect(raw).toMatch(/^From: Caretaker <no-reply@caretaker\.test>$/m);
    expect(raw).toMatch(/^To: Jo <jo@example\.test>$/m);
    expect(raw).toMatch(/^MIME-Version: 1\.0$/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(tokenFrom(raw)).toBe(TOKEN);
    expect(decodeQuotedPrintable(raw)).toContain('Hello Jo &lt;script&gt;,');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ mail_to: 'Jo <jo@example.test>', mail_subject: 'Reset your Caretaker password', transport: 'file', msg: 'mail sent' });
    expect(lines.join('\n')).not.toContain(TOKEN);
    await mailer.close();
  });

  it('sends through SMTP when a URL is set (credentials in the URL are never logged)', async () => {
    const { lines, logger } = capturingLogger();
    const mailer = new NodemailerMailer({ smtpUrl: `smtp://user:s3cret@127.0.0.1:${smtp.port}`, from: 'Ops <ops@caretaker.test>', dir: '/nonexistent', logger });
    const sent = await mailer.send({ to: 'sam@example.test', subject: 'Plain', text: 'Just text' });
    expect(sent.transport).toBe('smtp');
    const received = smtp.messages.at(-1)!;
    expect(received.to).toEqual(['sam@example.test']);
    expect(received.from).toBe('ops@caretaker.test');
    expect(received.raw).toContain('Just text');
    expect(smtp.logins).toEqual(['user']);
    expect(lines.join('\n')).not.toMatch(/s3cret/);
    await mailer.close();
  });

  it('logs a failed background send without the message body; flush waits for it', async () => {
    const { lines, logger } = capturingLogger();
    const closed = await startSmtpServer();
    await closed.close();
    const mailer = new NodemailerMailer({ smtpUrl: `smtp://127.0.0.1:${closed.port}`, from: 'Caretaker <no-reply@caretaker.test>', dir: '/nonexistent', logger });
    await expect(mailer.send(message())).rejects.toThrow();
    mailer.sendLater(message());
    await mailer.flush();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'mail not sent', mail_subject: 'Reset your Caretaker password' });
    expect(lines[0]).not.toContain(TOKEN);
    await mailer.close();
  });

  it('validates SMTP_URL, CARETAKER_MAIL_FROM and CARETAKER_PUBLIC_URL', () => {
    const defaults = loadConfig({});
    expect(defaults.mail).toEqual({ smtpUrl: undefined, from: 'Caretaker <no-reply@caretaker.test>', publicUrl: 'http://127.0.0.1:3000' });
    const set = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', CARETAKER_MAIL_FROM: 'desk@example.com', CARETAKER_PUBLIC_URL: 'https://caretaker.example.com/' });
    expect(set.mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'desk@example.com', publicUrl: 'https://caretaker.example.com' });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL must use smtp: or smtps:/);
    expect(() => loadConfig({ SMTP_URL: 'not a url' })).toThrow(/SMTP_URL must be a URL/);
    expect(() => loadConfig({ CARETAKER_MAIL_FROM: 'nobody' })).toThrow(/CARETAKER_MAIL_FROM/);
    expect(() => loadConfig({ CARETAKER_PUBLIC_URL: 'ftp://x' })).toThrow(/CARETAKER_PUBLIC_URL/);
    expect(() => loadConfig({ CARETAKER_PASSWORD_RESET_EMAIL_MAX: '0' })).toThrow(/CARETAKER_PASSWORD_RESET_EMAIL_MAX/);
  });
});
