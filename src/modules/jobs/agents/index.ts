/**
 * Branch agents (spec: branch agents).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { branchAgentsRoutes } from './branch-agents.routes.ts';
