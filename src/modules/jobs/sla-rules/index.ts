/**
 * SLA rules (spec: SLA rules).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { slaRulesRoutes } from './sla-rules.routes.ts';
