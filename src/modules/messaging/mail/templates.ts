/**
 * E-mail templates of the users area (docs/email.md): plain text plus simple HTML for
 * the invitation and the password reset. Links are built from CARETAKER_PUBLIC_URL; every value
 * put into HTML is escaped. Times are London times for people ("Thu 26 Nov 2026, 18:07"), and no
 * message names an API path: the link's page is the way in for every reader.
 */
import { escapeHtml } from '../../../lib/html.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import type { MailMessage } from './mailer.ts';

function html(title: string, paragraphs: string[], link: string, button: string): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222">
<h1 style="font-size: 20px">${escapeHtml(title)}</h1>
${body}
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #1f5fa8; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(button)}</a></p>
<p style="font-size: 12px; color: #666">If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>
</body></html>
`;
}

export interface InvitationInput {
  to: string;
  name: string;
  /** Agency name, or null for an account without agency. */
  agencyName: string | null;
  inviterName: string;
  /** Base URL without trailing slash (CARETAKER_PUBLIC_URL). */
  publicUrl: string;
  token: string;
  expiresAt: Date;
}

/** The invitation message: a link to `<public>/accept-invitation?token=...`, valid until expiresAt. */
export function invitationMail(i: InvitationInput): MailMessage {
  const link = `${i.publicUrl}/accept-invitation?token=${encodeURIComponent(i.token)}`;
  const where = i.agencyName ? ` at ${i.agencyName}` : '';
  const subject = `You are invited to Caretaker${where}`;
  const lines = [
    `Hello ${i.name},`,
    `${i.inviterName} has created a Caretaker account for you${where}. Choose a password to start using it.`,
    `This invitation can be used once and expires on ${formatLondonDateTime(i.expiresAt)} (London time).`,
  ];
  const text = [
    ...lines,
    `Choose your password: ${link}`,
    'If you did not expect this e-mail, you can ignore it.',
  ].join('\n\n');
  return { to: i.to, subject, text: `${text}\n`, html: html(subject, lines, link, 'Choose a password') };
}

export interface ResetInput {
  to: string;
  name: string;
  publicUrl: string;
  token: string;
  expiresAt: Date;
}

/** The password-reset message: a link to `<public>/reset-password?token=...`, valid one hour. */
export function passwordResetMail(r: ResetInput): MailMessage {
  const link = `${r.publicUrl}/reset-password?token=${encodeURIComponent(r.token)}`;
  const subject = 'Reset your Caretaker password';
  const lines = [
    `Hello ${r.name},`,
    'Someone asked to reset the password of your Caretaker account. If it was you, choose a new password with the link below.',
    `The link can be used once and expires on ${formatLondonDateTime(r.expiresAt)} (London time). Resetting signs you out everywhere.`,
  ];
  const text = [
    ...lines,
    `Reset your password: ${link}`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ].join('\n\n');
  return { to: r.to, subject, text: `${text}\n`, html: html(subject, lines, link, 'Reset password') };
}
