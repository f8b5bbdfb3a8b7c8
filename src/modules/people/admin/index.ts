/**
 * Administration (spec: administration): branches, roles, rate-limit rules and the activity-log reader.
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { activityLogRoutes } from './activity-log.routes.ts';
export { branchesRoutes } from './branches.routes.ts';
export { rateLimitRoutes } from './rate-limits.routes.ts';
export { rolesRoutes } from './roles.routes.ts';
export { findAgency, findBranchById, findBranchRef, updateBranch, type BranchRow } from './branches.repository.ts';
export { visibleBranch } from './branches.service.ts';
