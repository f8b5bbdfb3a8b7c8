/**
 * Outgoing e-mail: the mailer and the message templates (docs/messaging.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { NodemailerMailer, jsonLineLogger, type MailLogger, type Mailer } from './mailer.ts';
export { invitationMail, passwordResetMail } from './templates.ts';
