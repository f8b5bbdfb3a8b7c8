/**
 * SLA breach detection (docs/sla.md): clocks per job and branch SLA rule, their recomputation,
 * and the `sla.scan` periodic task (the /api/sla routes are the sla-reports module). The only door other
 * modules use.
 */
import { slaScanTask } from './scan.ts';

export { announceJobSlaStart, backfillClocksBatch, countOpenJobs, jobSlaWrites, planJobSla, recomputeJobs, recomputeJobSla, recomputeOpenJobs, type JobSlaStart } from './recompute.ts';
export { newJobDates, startInputsOf, startInputsQuery } from './clocks.repository.ts';
export { jobSlaColumns, jobSlaState, SLA_SUMMARY_STATES } from './job-sla-columns.repository.ts';
export { scanSlaClocks, slaScanTask } from './scan.ts';
export { secondsLeft } from './clock-engine.ts';
export { DEFAULT_OFFICE_HOURS, HOUR_CALENDARS, SLA_CALENDARS, UK_REGIONS, WEEKDAYS, type OfficeHours, type SlaCalendar, type UkRegion, type Weekday } from './working-time.ts';
export { loadOfficeHours, officeHoursOf } from './clocks.repository.ts';
export { allowedMs } from './clock-engine.ts';
export { addCountedMs, countedMs, fromLondonAxis, toLondonAxis, type Counting } from './working-time.ts';
export { isBankHoliday, isWorkingDate } from './working-time.ts';
export { loadAgencySettings } from './clocks.repository.ts';

/** The module's periodic tasks (listed in src/main/background.ts). */
export const periodicTasks = [slaScanTask];
