/** The reports module's public door (docs/insight.md "Reports"). */
import type { PeriodicTask } from '../../../events/handlers.ts';
import { reportDeliveryTask } from './delivery.task.ts';

export { reportsRoutes } from './reports.routes.ts';
export { reportSubscriptionsRoutes } from './subscriptions.routes.ts';
export { REPORTS, findReport, type ReportDef } from './reports.catalogue.ts';
export { deliverDueReports, periodKeys, isoWeekKey } from './delivery.task.ts';

/** Periodic tasks of the module, listed in src/main/background.ts. */
export const periodicTasks: PeriodicTask[] = [reportDeliveryTask];
