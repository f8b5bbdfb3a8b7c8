/**
 * Job notes (spec: job notes).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { jobNotesRoutes } from './job-notes.routes.ts';
export { insertSystemNote } from './job-notes.repository.ts';
export { createJobNote } from './job-notes.service.ts';
export { readableVisibilities } from './job-notes.service.ts';
