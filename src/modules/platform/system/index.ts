/**
 * System status and metrics endpoints (spec: system).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { systemRoutes, type ReadinessChecks } from './system.routes.ts';
