/**
 * GDPR: consents, subject-access reports and erasure (spec: GDPR).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { gdprRoutes } from './gdpr.routes.ts';
export { CONSENT_PURPOSES, CONSENT_SOURCES } from './consents.schemas.ts';
export { smsReplyConsent, SMS_REPLY_SOURCE } from './consents.service.ts';
