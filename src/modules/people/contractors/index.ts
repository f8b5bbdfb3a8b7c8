/**
 * Contractors, their trades, coverage and certifications (spec: contractors).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { contractorsRoutes } from './contractors.routes.ts';
export { CERT_TYPE_CODES, REQUIRED_CERTIFICATES } from './certification-types.ts';
export { assertContractorAssignable } from './eligibility.ts';
export { findContractorRef } from './contractors.repository.ts';
export { certificateExpiryTask, scanExpiringCertificates, CERTIFICATE_WARNING_DAYS } from './certificate-expiry.task.ts';
export { findVisibleTrade } from './trades.repository.ts';
export { listExpiring } from './certifications.service.ts';
