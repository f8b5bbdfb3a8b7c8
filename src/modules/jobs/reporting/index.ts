/**
 * Tenant self-service (docs/tenant-reporting.md): guided reporting through per-agency triage
 * flows, emergencies with the on-call alert, duplicates and merges, recalls and satisfaction
 * surveys, the tenant's visit links. The module's public door.
 */
import type { EventHandler } from '../../../events/index.ts';
import { emergencyAlertHandler, reportingErasureHandler, surveyHandler, visitLinkHandler } from './reporting.handlers.ts';

export { reportingRoutes } from './reporting.routes.ts';
export { UK_FLOWS, GAS_EMERGENCY_NUMBER } from './flows-catalogue.ts';

/** Event handlers of the module (listed in src/main/background.ts). */
export const handlers: EventHandler[] = [emergencyAlertHandler, surveyHandler, visitLinkHandler, reportingErasureHandler];
