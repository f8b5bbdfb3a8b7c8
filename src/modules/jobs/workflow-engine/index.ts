/**
 * Workflow engine (n8n) integration (spec: workflow engine).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { workflowEngineRoutes } from './workflow-engine.routes.ts';
