/**
 * The composition root of background work (docs/events.md): every module's event handlers and
 * periodic tasks, listed explicitly (no autoload). The worker subscribes these to the queue; tests
 * hand `backgroundHandlers()` to `dispatchPendingEvents`.
 */
import type { EventHandler, PeriodicTask } from '../events/index.ts';
import * as webhooks from '../modules/messaging/webhooks/index.ts';
import * as sla from '../modules/jobs/sla/index.ts';
import * as reports from '../modules/insight/reports/index.ts';
import * as messaging from '../modules/messaging/messaging/index.ts';
import * as money from '../modules/money/money/index.ts';
import { certificateExpiryTask } from '../modules/people/contractors/index.ts';
import * as storage from '../modules/platform/storage/index.ts';
import * as backfills from '../modules/platform/backfills/index.ts';
import * as landlords from '../modules/money/landlords/index.ts';
import * as recharges from '../modules/money/recharges/index.ts';
import * as worksOrders from '../modules/money/works-orders/index.ts';
import * as imports from '../modules/platform/imports/index.ts';
import * as hazards from '../modules/jobs/hazards/index.ts';
import * as reporting from '../modules/jobs/reporting/index.ts';
import * as compliance from '../modules/jobs/compliance/index.ts';
import { visitRemindersTask } from '../modules/jobs/jobs/index.ts';
import * as conversations from '../modules/jobs/conversations/index.ts';
import * as gdpr from '../modules/platform/gdpr/index.ts';

/** Every event handler of every module. */
export function backgroundHandlers(): EventHandler[] {
  return [
    ...webhooks.handlers,
    ...messaging.handlers,
    ...landlords.handlers,
    ...recharges.handlers,
    ...reporting.handlers,
    ...worksOrders.handlers,
    ...compliance.handlers,
    ...conversations.handlers,
  ];
}

/** Every periodic task of every module. */
export function periodicTasks(): PeriodicTask[] {
  return [
    ...webhooks.periodicTasks,
    ...sla.periodicTasks,
    ...reports.periodicTasks,
    ...messaging.periodicTasks,
    ...money.periodicTasks,
    certificateExpiryTask,
    ...storage.periodicTasks,
    ...backfills.periodicTasks,
    ...landlords.periodicTasks,
    ...imports.periodicTasks,
    ...hazards.periodicTasks,
    ...compliance.periodicTasks,
    visitRemindersTask,
    ...gdpr.periodicTasks,
  ];
}
