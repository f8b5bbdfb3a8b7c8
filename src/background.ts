/**
 * The composition root of background work (docs/events.md): every module's event handlers and
 * periodic tasks, listed explicitly (no autoload). The worker subscribes these to the queue; tests
 * hand `backgroundHandlers()` to `dispatchPendingEvents`.
 */
import type { EventHandler, PeriodicTask } from './events/index.ts';
import * as webhooks from './modules/webhooks/index.ts';
import * as sla from './modules/sla/index.ts';
import * as reports from './modules/reports/index.ts';
import * as messaging from './modules/messaging/index.ts';
import * as money from './modules/money/index.ts';
import { certificateExpiryTask } from './modules/contractors/index.ts';
import * as storage from './modules/storage/index.ts';
import * as backfills from './modules/backfills/index.ts';
import * as landlords from './modules/landlords/index.ts';
import * as recharges from './modules/recharges/index.ts';
import * as worksOrders from './modules/works-orders/index.ts';
import * as imports from './modules/imports/index.ts';
import * as hazards from './modules/hazards/index.ts';
import * as reporting from './modules/reporting/index.ts';
import * as compliance from './modules/compliance/index.ts';
import { visitRemindersTask } from './modules/jobs/index.ts';
import * as conversations from './modules/conversations/index.ts';

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
  ];
}
