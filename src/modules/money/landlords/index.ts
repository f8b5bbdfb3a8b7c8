/**
 * Landlords, their properties and spend limits, and approvals by signed link (docs/landlords.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { EventHandler, PeriodicTask } from '../../../events/index.ts';
import type { App } from '../../../http/route-types.ts';
import { approvalMailHandler, approvalsTask, quoteApprovalHandler } from './approvals.handlers.ts';
import { approvalsRoutes } from './approvals.routes.ts';
import { landlordsRoutes as recordRoutes } from './landlords.routes.ts';

/** Registers every landlord route. */
export function landlordsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await app.register(recordRoutes(deps));
    await app.register(approvalsRoutes(deps));
  };
}

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers: EventHandler[] = [quoteApprovalHandler, approvalMailHandler];
/** Periodic tasks of the module (listed in src/main/background.ts). */
export const periodicTasks: PeriodicTask[] = [approvalsTask];

export { getLandlordRow, toLandlordDto, effectiveLimit } from './landlords.service.ts';
export {
  anonymiseLandlord, bankDetailsOf, findLandlordRef, latestVatRecordOn, ownersOfAddress, releaseVatParticulars, restrictVatParticulars, sharesOfLandlord, vatParticularsOf,
} from './landlords.repository.ts';
export { remindAndExpire } from './approvals.service.ts';
export { approvalsOfLandlord } from './approvals.repository.ts';
