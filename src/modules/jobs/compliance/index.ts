/**
 * The compliance register of properties (docs/compliance.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { complianceRoutes } from './compliance.routes.ts';
export { complianceTotals, listRegister } from './compliance.service.ts';
export { RegisterQuery } from './compliance.schemas.ts';
export { COMPLIANCE_STATUSES } from './compliance.repository.ts';
export { UK_COMPLIANCE_TYPES } from './compliance-types.ts';
export { complianceRemindersTask, REMINDER_THRESHOLDS, sendExpiryReminders } from './reminders.task.ts';

export { certificateFromJobDocument, duesToRaise, maintenanceCertificateHandler, maintenanceTask, raiseDueMaintenance } from './maintenance.service.ts';

import { complianceRemindersTask } from './reminders.task.ts';
import { maintenanceCertificateHandler, maintenanceTask } from './maintenance.service.ts';
/** The module's periodic tasks (listed in src/main/background.ts). */
export const periodicTasks = [complianceRemindersTask, maintenanceTask];
/** The module's event handlers (listed in src/main/background.ts). */
export const handlers = [maintenanceCertificateHandler];
