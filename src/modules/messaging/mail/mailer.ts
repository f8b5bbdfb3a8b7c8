/**
 * Outgoing e-mail behind one interface (docs/email.md). With SMTP_URL set, messages
 * go out through nodemailer's SMTP transport; without it, nodemailer's stream transport renders
 * each message as RFC 822 text, which is written to `<CARETAKER_DATA_DIR>/mail/*.eml`.
 * Every message is logged with its recipient and subject only: never its body, which can hold a
 * token or a link carrying one, and never the SMTP credentials.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { MailMessage, Mailer, SentMail } from '../../../core/mailer.ts';
import { traceLogFields } from '../../../lib/tracing.ts';

export type { MailAttachment, MailMessage, Mailer, SentMail } from '../../../core/mailer.ts';

/** Where the mailer reports what it sent (a pino-like logger; Fastify's fits). */
export interface MailLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** A logger writing one JSON line per event to stdout (used before Fastify's logger exists). */
export function jsonLineLogger(level: string): MailLogger {
  const quiet = ['silent', 'fatal', 'error', 'warn'].includes(level);
  const line = (lvl: number, fields: Record<string, unknown>, msg: string) =>
    process.stdout.write(`${JSON.stringify({ level: lvl, time: Date.now(), ...traceLogFields(), ...fields, msg })}\n`);
  return {
    info: (fields, msg) => {
      if (!quiet) line(30, fields, msg);
    },
    error: (fields, msg) => {
      if (level !== 'silent') line(50, fields, msg);
    },
  };
}

export interface MailerOptions {
  /** SMTP URL (smtp:// or smtps://, credentials allowed); undefined selects the file transport. */
  smtpUrl: string | undefined;
  /** From header. */
  from: string;
  /**
   * SMTP connections kept open and reused (a pool, as many as messages sent at once:
   * CARETAKER_QUEUE_SEND_CONCURRENCY); unset: one connection per message.
   */
  connections?: number;
  /** Folder of the .eml files (file transport). */
  dir: string;
  logger: MailLogger;
}

/**
 * Nodemailer-backed Mailer: SMTP, or .eml files when no SMTP URL is configured. Nodemailer (about
 * 5 MiB of heap) is loaded and its transport made at the first message, so a server that sends none
 * never holds it (docs/operations.md "Starting").
 */
export class NodemailerMailer implements Mailer {
  private transporter: Promise<Transporter> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  readonly kind: 'smtp' | 'file';

  private readonly options: MailerOptions;

  constructor(options: MailerOptions) {
    this.options = options;
    this.kind = options.smtpUrl ? 'smtp' : 'file';
  }

  /** The transport, made at the first message: SMTP (pooled with `connections`) or the stream transport. */
  private transport(): Promise<Transporter> {
    const { smtpUrl, connections } = this.options;
    this.transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      smtpUrl
        ? connections
          ? // A pool saves the TCP (and TLS) handshake and the SMTP greeting of every message.
            nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections } as Parameters<typeof nodemailer.createTransport>[0])
          : nodemailer.createTransport(smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return this.transporter;
  }

  /** Folder the file transport writes to. */
  get dir(): string {
    return this.options.dir;
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await (await this.transport()).sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
      ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
      ...(message.attachments !== undefined ? { attachments: message.attachments } : {}),
    });
    const sent: SentMail = { messageId: String(info.messageId), transport: this.kind };
    if (this.kind === 'file') {
      await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      sent.file = path.join(this.options.dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      // The message holds a live link; readable by the service's user only.
      await writeFile(sent.file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    }
    this.options.logger.info({ mail_to: message.to, mail_subject: message.subject, ...sent }, 'mail sent');
    return sent;
  }

  sendLater(message: MailMessage): void {
    const job = this.send(message)
      .catch((err: unknown) => {
        this.options.logger.error(
          { mail_to: message.to, mail_subject: message.subject, error: err instanceof Error ? err.message : String(err) },
          'mail not sent',
        );
      })
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  async forget(needles: string[]): Promise<number> {
    const wanted = needles.map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 3);
    if (this.kind !== 'file' || wanted.length === 0) return 0;
    await this.flush();
    let names: string[];
    try {
      names = (await readdir(this.options.dir)).filter((n) => n.endsWith('.eml'));
    } catch {
      return 0; // no folder: nothing was ever written
    }
    const { simpleParser } = await import('mailparser');
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.options.dir, name);
      const raw = await readFile(file);
      const mail = await simpleParser(raw);
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(' ') : (mail.to?.text ?? '');
      // Decoded (quoted-printable or base64 bodies, encoded headers) and raw, lower-cased.
      const haystack = [to, mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : '', raw.toString('utf8')].join('\n').toLowerCase();
      if (wanted.some((n) => haystack.includes(n))) {
        await rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.flush();
    (await this.transporter)?.close();
  }
}
