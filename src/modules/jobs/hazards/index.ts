/**
 * Hazards and statutory clocks (docs/compliance.md "Hazards and statutory clocks").
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
import type { PeriodicTask } from '../../../events/index.ts';
import { scanHazardClocks } from './hazards.service.ts';

export { hazardsRoutes } from './hazards.routes.ts';
export { getHazard, recomputeHazardClocks, scanHazardClocks } from './hazards.service.ts';
export { calendarDaysDeadline, planHazardClocks, STATUTORY_REGION, workingDaysDeadline, type HazardInput } from './statutory-clocks.ts';
export { hazardScope, nationOfPostcode, SCOPE_TEXT, type HazardScope, type Nation, type Tenure } from './scope.ts';
export { setPrivateRentedPolicy } from './hazards.repository.ts';

/** `hazards.scan`, every minute, once per cluster: moves statutory clocks to at_risk and breached. */
export const hazardScanTask: PeriodicTask = {
  name: 'hazards.scan',
  cron: '* * * * *',
  async run(deps) {
    await scanHazardClocks(deps);
  },
};

/** The module's periodic tasks (listed in src/main/background.ts). */
export const periodicTasks: PeriodicTask[] = [hazardScanTask];
