/**
 * The contractors module's public door for background work (docs/events.md). Routes are still
 * registered from their own files in src/app.ts.
 */
export { certificateExpiryTask, scanExpiringCertificates, CERTIFICATE_WARNING_DAYS } from './certificate-expiry.task.ts';
