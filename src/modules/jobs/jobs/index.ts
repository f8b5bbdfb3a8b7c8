/**
 * Jobs: create, list, update and the lifecycle (spec: jobs).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { jobsRoutes } from './jobs.routes.ts';
export { jobScope, seesInternalFields, type JobScope } from './jobs.repository.ts';
export { findBranch, findContractor, findVisibleJobRef, visibleJobUuids, visibleTo, jobTypeExists, jobsQuery, lockJob } from './jobs.repository.ts';
export { STATUS, STATUS_NAMES } from './lifecycle.ts';
export { assertStaffMayWrite, jobRef, moveJob, partyOf, visibleJob, withLockedJob } from './job-rules.ts';
export { Job, type ListJobsInput, ListJobsQuery } from './jobs.schemas.ts';
export { createJob, getJob, visibleJobPages } from './jobs.service.ts';
export type { CreateJobInput, JobDto } from './jobs.schemas.ts';
export { acceptAssignment, bookVisit, declineAssignment, transitionJob } from './job-lifecycle.service.ts';
export { actAsLinkTenant, planOf, visitRemindersTask, visitWindows, VISIT_RULES } from './visits.service.ts';
export { SpanInput, VisitPlan } from './visits.schemas.ts';
export { raiseSystemJob, SYSTEM_ACTOR, type SystemJob, type SystemJobInput } from './job-system.service.ts';
