/**
 * The composition root of background work (docs/events.md): every module's event handlers and
 * periodic tasks, listed explicitly (no autoload). The worker subscribes these to the queue; tests
 * hand `backgroundHandlers()` to `dispatchPendingEvents`.
 */
import type { EventHandler, PeriodicTask } from './events/index.ts';
import * as storage from './modules/storage/index.ts';

/** Every event handler of every module. */
export function backgroundHandlers(): EventHandler[] {
  return [
    // ...sla.handlers, ...messaging.handlers, ...webhooks.handlers (each module's index.ts)
  ];
}

/** Every periodic task of every module. */
export function periodicTasks(): PeriodicTask[] {
  return [
    // ...sla.periodicTasks, ...money.periodicTasks
    ...storage.periodicTasks,
  ];
}
