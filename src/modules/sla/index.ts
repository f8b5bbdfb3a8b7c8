/**
 * SLA breach detection (docs/sla.md): clocks per job and branch SLA rule, their recomputation,
 * the `sla.scan` periodic task and the /api/sla routes. The only door other modules use.
 */
import { slaScanTask } from './scan.ts';

export { recomputeJobs, recomputeJobSla, recomputeOpenJobs } from './recompute.ts';
export { jobSlaColumns, jobSlaState, SLA_SUMMARY_STATES } from './job-sla-columns.ts';
export { scanSlaClocks, slaScanTask } from './scan.ts';
export { slaRoutes } from './sla.routes.ts';
export { SLA_CALENDARS, UK_REGIONS, type SlaCalendar, type UkRegion } from './working-time.ts';

/** The module's periodic tasks (listed in src/background.ts). */
export const periodicTasks = [slaScanTask];
