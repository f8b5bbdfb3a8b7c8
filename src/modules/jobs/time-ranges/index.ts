/**
 * Time ranges (spec: time ranges).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { timeRangesRoutes } from './time-ranges.routes.ts';
