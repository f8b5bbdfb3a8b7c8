/**
 * Landlord recharges and statements (docs/money.md "Recharges", "Statements"): the contractor's
 * cost recharged to the landlords of the property with the agency's fee, and statements per
 * period as JSON, PDF and CSV. The module's public door: other modules and the composition root
 * import only this file (docs/architecture.md, module rule).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { EventHandler } from '../../../events/index.ts';
import type { App } from '../../../http/route-types.ts';
import { rechargeHandler } from './recharges.handlers.ts';
import { rechargesRoutes as routes } from './recharges.routes.ts';

/** Registers every recharge route. */
export function rechargesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await app.register(routes(deps));
  };
}

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers: EventHandler[] = [rechargeHandler];

export { makeRecharges, rechargesOfLandlord } from './recharges.service.ts';
