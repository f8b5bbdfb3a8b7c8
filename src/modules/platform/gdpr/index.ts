/**
 * GDPR: consents, subject-access reports and erasure (spec: GDPR).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { gdprRoutes } from './gdpr.routes.ts';
export { CONSENT_PURPOSES, CONSENT_SOURCES } from './consents.schemas.ts';
export { smsReplyConsent, SMS_REPLY_SOURCE } from './consents.service.ts';
export { retentionTask, applyRetention } from './retention.service.ts';
export { historyPartitionsTask, maintainHistory, createHistoryMonths, historyStatus, historyArchives, restoreArchive, type HistoryRun } from './history.service.ts';
import { retentionTask } from './retention.service.ts';
import { historyPartitionsTask } from './history.service.ts';
import type { PeriodicTask } from '../../../events/index.ts';

/**
 * The GDPR module's periodic tasks: the retention schedule (daily; docs/gdpr.md "Retention") and
 * the history partitions (daily and at start; docs/operations.md "History partitions and retention").
 */
export const periodicTasks: PeriodicTask[] = [retentionTask, historyPartitionsTask];
