/**
 * What sending e-mail looks like to the rest of the code: the `Mailer` every module receives in
 * AppDeps, and its message. The implementation (SMTP or .eml files) is the mail module's
 * (src/modules/messaging/mail/mailer.ts); this file lets AppDeps name the type without importing a module.
 */

/** One message: plain text always, HTML optionally. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Reply-To header: a conversation's signed reply address (docs/conversations.md). */
  replyTo?: string;
  /** Files attached to the message (reports sent on a schedule; docs/insight.md). */
  attachments?: MailAttachment[];
}

/** One attached file. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** What a transport reports after accepting a message. */
export interface SentMail {
  messageId: string;
  transport: 'smtp' | 'file';
  /** Path of the written .eml file (file transport only). */
  file?: string;
}

/** The one interface the services use to send e-mail. */
export interface Mailer {
  /**
   * Sends one message and resolves once the transport accepted it.
   * @throws Error when the SMTP server refuses it or the file cannot be written
   */
  send(message: MailMessage): Promise<SentMail>;
  /**
   * Sends in the background (the caller does not wait: used where the response time must not
   * reveal whether a message was sent); failures are logged. `flush()` waits for these.
   */
  sendLater(message: MailMessage): void;
  /** Resolves when every background send has finished. */
  flush(): Promise<void>;
  /**
   * Removes the kept copies of sent messages (the .eml files of the file transport) whose
   * recipient, subject or body holds one of `needles` (case-insensitive, after decoding); an SMTP
   * transport keeps no copy and removes nothing (docs/gdpr.md "Erasure").
   * @returns the number of copies removed
   */
  forget(needles: string[]): Promise<number>;
  /** Finishes background sends and closes the transport. */
  close(): Promise<void>;
}
