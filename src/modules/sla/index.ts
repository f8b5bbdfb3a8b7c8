/**
 * SLA breach detection (docs/sla.md): clocks per job and branch SLA rule, their recomputation,
 * and the `sla.scan` periodic task (the /api/sla routes are the sla-reports module). The only door other
 * modules use.
 */
import { slaScanTask } from './scan.ts';

export { announceJobSlaStart, jobSlaWrites, planJobSla, recomputeJobs, recomputeJobSla, recomputeOpenJobs, type JobSlaStart } from './recompute.ts';
export { newJobDates } from './clocks.repository.ts';
export { jobSlaColumns, jobSlaState, SLA_SUMMARY_STATES } from './job-sla-columns.repository.ts';
export { scanSlaClocks, slaScanTask } from './scan.ts';
export { secondsLeft } from './clock-engine.ts';
export { SLA_CALENDARS, UK_REGIONS, type SlaCalendar, type UkRegion } from './working-time.ts';

/** The module's periodic tasks (listed in src/background.ts). */
export const periodicTasks = [slaScanTask];
