/**
 * Works orders by link and competing quotes (docs/works-orders.md): signed links a contractor
 * without an account works a job from, and requests for competing quotes. The module's public
 * door (docs/architecture.md, module rule).
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { EventHandler } from '../../../events/index.ts';
import { quoteAwardHandler, worksOrderMailHandler } from './works-orders.handlers.ts';
import { worksOrdersRoutes as routes } from './works-orders.routes.ts';

/** Registers every route of the module. */
export function worksOrdersRoutes(deps: AppDeps) {
  return routes(deps);
}

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers: EventHandler[] = [worksOrderMailHandler, quoteAwardHandler];
