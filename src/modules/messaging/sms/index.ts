/**
 * SMS through a provider (docs/conversations.md "SMS"): the Twilio adapter, delivery reports,
 * received messages and opt-outs, quiet hours, costs per agency.
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { smsRoutes } from './sms.routes.ts';
export { sendSms, smsSendAt, smsOptedOut, normalisePhone, isMobileNumber, type SmsAttempt, type SmsReplyConsent } from './sms.service.ts';
export { findReceivedSms } from './sms.repository.ts';
export { twilioSignature } from './twilio.ts';
