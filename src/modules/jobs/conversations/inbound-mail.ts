/**
 * Reading a received e-mail (docs/conversations.md "Reply by e-mail"): what kind of message it is
 * (a person's reply, an auto-reply, a bounce), and the reply text without the quoted history.
 * Pure functions over a parsed message (mailparser), tested in test/unit.
 */
import EmailReplyParser from 'email-reply-parser';
import type { ParsedMail } from 'mailparser';

/** A header's value as text ('' when absent). */
function header(mail: ParsedMail, name: string): string {
  const v = mail.headers.get(name);
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return String(v);
}

/**
 * Whether the message was written by a machine, not a person.
 * - `bounce`: an empty envelope sender (MAIL FROM:<>), a delivery report (multipart/report), or a
 *   sender named MAILER-DAEMON or postmaster;
 * - `auto_reply`: Auto-Submitted other than `no` (RFC 3834), X-Autoreply / X-Autorespond,
 *   Precedence bulk, junk, list or auto_reply, X-Auto-Response-Suppress on a message that also
 *   says it is an auto-reply (Microsoft's X-MS-Exchange-Inbox-Rules-Loop, X-MS-Exchange-Generated-Message-Source);
 * - null: a person's message.
 * @param envelopeFrom the SMTP MAIL FROM ('' for the null sender; undefined when not known, as
 *   from a webhook that does not pass it)
 */
export function machineKind(mail: ParsedMail, envelopeFrom: string | undefined): 'bounce' | 'auto_reply' | null {
  const contentType = header(mail, 'content-type').toLowerCase();
  const from = (mail.from?.value[0]?.address ?? '').toLowerCase();
  if (envelopeFrom === '' || contentType.startsWith('multipart/report') || /^(mailer-daemon|postmaster)@/.test(from)) return 'bounce';
  const autoSubmitted = header(mail, 'auto-submitted').trim().toLowerCase();
  if (autoSubmitted !== '' && autoSubmitted !== 'no') return 'auto_reply';
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond') || mail.headers.has('x-ms-exchange-generated-message-source')) return 'auto_reply';
  if (['bulk', 'junk', 'list', 'auto_reply'].includes(header(mail, 'precedence').trim().toLowerCase())) return 'auto_reply';
  return null;
}

const OUTLOOK_SEPARATORS = [
  /^-{2,}\s*Original Message\s*-{2,}\s*$/im,
  /^_{10,}\s*$/m,
  /^From: .+\r?\n(Sent|Date): .+\r?\n/im,
];

/**
 * The new text of a reply: the quoted history ("On ... wrote:" and the `>` lines under it,
 * Outlook's "-----Original Message-----" or From:/Sent: block) and the signature cut off, by
 * email-reply-parser plus Outlook's separators, which it does not know.
 */
export function replyText(text: string): string {
  let body = text.replace(/\r\n/g, '\n');
  for (const re of OUTLOOK_SEPARATORS) {
    const m = re.exec(body);
    if (m) body = body.slice(0, m.index);
  }
  return new EmailReplyParser().parseReply(body).trim();
}
