/**
 * Job files and their integrity checks (spec: job files).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { jobFilesRoutes } from './job-files.routes.ts';
export { fileIntegrityRoutes } from './file-integrity.routes.ts';
export { fileIntegrityScanTask } from './file-integrity.service.ts';
export { uploadJobFile, maxBytes as uploadMaxBytes } from './job-files.service.ts';
export { findLiveFiles } from './job-files.repository.ts';
export { storeIncomingFile, recordIncomingFile, type StoredIncomingFile } from './incoming-files.ts';
