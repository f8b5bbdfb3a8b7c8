/**
 * Finding a job the caller may see, for the modules that hang records off a job (notes, files).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { findVisibleJob } from './visible-job.ts';
