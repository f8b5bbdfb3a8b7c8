/**
 * Agency appearance: theme and dashboard banner (spec: appearance).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { appearanceRoutes } from './appearance.routes.ts';
